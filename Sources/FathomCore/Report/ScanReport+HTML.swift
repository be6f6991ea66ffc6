/// `report.html`: one self-contained page (no network, no scripts, no external fonts) with the warnings first,
/// the measurements as a table with their evidence, and the figures inline.
extension ScanReport {
    /// A row of the measurements table: a key (the page's `data-key`), words, the value in SI units as in
    /// `report.json` (`data-si`), the value as people read it, and its evidence.
    struct Measurement {
        let key: String, name: String, si: String, shown: String, evidence: String
    }

    /// The measurements table's rows; a row is present when its value is in the report.
    var measurements: [Measurement] {
        var rows: [Measurement] = []
        func count(_ key: String, _ name: String, _ value: Int, _ evidence: String = "") {
            rows.append(Measurement(key: key, name: name, si: "\(value)", shown: "\(value)", evidence: evidence))
        }
        func length(_ key: String, _ name: String, _ value: Float, _ evidence: String) {
            rows.append(Measurement(key: key, name: name, si: JSONObject.number(value), shown: ReportText.centimetres(value), evidence: evidence))
        }
        func angle(_ key: String, _ name: String, _ value: Float, _ evidence: String) {
            rows.append(Measurement(key: key, name: name, si: JSONObject.number(value), shown: ReportText.degrees(value), evidence: evidence))
        }
        func time(_ key: String, _ name: String, _ value: Double, _ evidence: String) {
            rows.append(Measurement(key: key, name: name, si: JSONObject.number(value), shown: ReportText.seconds(value), evidence: evidence))
        }
        func surfaceEvidence(_ s: HorizontalSurface) -> String {
            "\(s.inliers) points over \(ReportText.area(s.area)), rms \(ReportText.millimetres(s.rms)), \(ReportText.percent(s.seenFromAbove)) seen from above"
        }
        count("frames", "Frames", frames, "depth read from \(fusedFrames) of them")
        count("fused_frames", "Fused frames", fusedFrames, "frames whose depth went into the cloud")
        time("duration", "Duration", duration, "first to last frame")
        if let floor { length("floor_height", "Floor height (y)", floor.height, surfaceEvidence(floor)) }
        if let ceiling { length("ceiling_height", "Ceiling height (y)", ceiling.height, surfaceEvidence(ceiling)) }
        if let roomHeight { length("room_height", "Room height", roomHeight, "ceiling above floor") }
        if let orbit {
            let what = objectCapture ? "an object capture" : "not an object capture" + (objectReason.map { ": \($0)" } ?? "")
            count("orbit_views", "Views at the focus", orbit.views, "within 20° of their optical axis; \(what)")
            angle("orbit_span", "Orbit span", orbit.span, "around the focus at \(ReportText.point(orbit.focus))")
            length("orbit_radius", "Orbit radius", orbit.radius, "median camera distance from the focus")
        }
        if let support { length("support_height", "Support height (y)", support.height, surfaceEvidence(support) + "; the box stands on it") }
        if let box {
            let source: String
            switch boxSource {
            case .given: source = "given by the caller"
            case .manifest: source = "read from boundingbox.json beside the scan"
            case .fitted: source = "fitted to \(objectVoxels) voxels of the object"
            case .none: source = ""
            }
            length("box_width", "Box width (x)", box.scale.x, source)
            length("box_height", "Box height (y)", box.scale.y, source)
            length("box_depth", "Box depth (z)", box.scale.z, source)
            angle("box_rotation", "Box rotation about y", box.rotY, "centre at \(ReportText.point(box.center))")
        }
        count("cloud_points", "Cloud points", cloud.count, "voxel means of the fused depth")
        count("object_points", "Object points", object.count, box == nil ? "no box" : "cloud points inside the box grown by one voxel")
        if let t = trajectory {
            length("path_length", "Camera path", Float(t.pathLength), "over \(t.steps) steps")
            rows.append(Measurement(key: "speed_p50", name: "Median speed", si: JSONObject.number(t.speedP50), shown: ReportText.speed(t.speedP50),
                                    evidence: "10th to 90th percentile \(ReportText.speed(t.speedP10)) to \(ReportText.speed(t.speedP90))"))
            rows.append(Measurement(key: "speed_max", name: "Top speed", si: JSONObject.number(t.speedMax), shown: ReportText.speed(t.speedMax), evidence: ""))
            time("time_too_slow", "Time too slow", t.timeTooSlow, "below \(ReportText.speed(speedLimits.slow))")
            time("time_too_fast", "Time too fast", t.timeTooFast, "above \(ReportText.speed(speedLimits.fast))")
        }
        if let c = coverage {
            rows.append(Measurement(key: "faces_complete", name: "Faces complete", si: "\(c.facesComplete)", shown: "\(c.facesComplete) of \(c.facesNeeded)",
                                    evidence: "\(c.counted) of \(c.views) captured views counted; goal \(c.goal) views per face"))
            rows.append(Measurement(key: "angular_score", name: "Angular score", si: JSONObject.number(c.angularScore),
                                    shown: SVGPlot.fixed(Double(c.angularScore), 2), evidence: "fraction of view-direction bins seen (0 to 1)"))
        }
        return rows
    }

    /// The page as HTML text.
    public func html() -> String { html(figures: figures) }

    /// The page with figures already drawn (`save` draws them once for the page and the .svg files).
    func html(figures: [ReportFigure]) -> String {
        let id = HTMLText.escape(scanID ?? "unnamed scan")
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="Fathom \(FathomVersion.string)">
        <title>Fathom report: \(id)</title>
        <style>
        body { font-family: sans-serif; margin: 2em auto; max-width: 980px; padding: 0 1em; color: #222; line-height: 1.4; }
        h1 { font-size: 1.6em; margin-bottom: 0.2em; }
        h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
        .lead { color: #555; }
        #warnings li { background: #fff4e0; border-left: 4px solid #e69500; margin: 0.3em 0; padding: 0.3em 0.6em; list-style: none; }
        #warnings ul { padding: 0; }
        #warnings .none { color: #2a7a2a; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 0.35em 0.6em; border-bottom: 1px solid #eee; vertical-align: top; }
        td.value { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
        td.evidence { color: #555; font-size: 0.92em; }
        figure { margin: 1.5em 0; }
        figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
        figcaption { color: #555; font-size: 0.92em; }
        </style>
        </head>
        <body>
        <h1>Capture report: \(id)</h1>
        <p class="lead">\(frames) frames over \(ReportText.seconds(duration)). Lengths in centimetres, angles in degrees, times in seconds; heights are world y (up) in the capture's frame.\(objectReason.map { " No object: " + HTMLText.escape($0) + "." } ?? "")</p>
        <section id="warnings">
        <h2>Warnings</h2>

        """
        if warnings.isEmpty {
            page += "<p class=\"none\">No warnings.</p>\n"
        } else {
            page += "<ul>\n" + warnings.map { "<li class=\"warning\">\(HTMLText.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        page += "</section>\n<section id=\"summary\">\n<h2>Measurements</h2>\n<table id=\"measurements\">\n"
            + "<thead><tr><th>Measurement</th><th>Value</th><th>Evidence</th></tr></thead>\n<tbody>\n"
        for m in measurements {
            page += "<tr data-key=\"\(m.key)\"><th>\(HTMLText.escape(m.name))</th><td class=\"value\" data-si=\"\(m.si)\">\(HTMLText.escape(m.shown))</td>"
                + "<td class=\"evidence\">\(HTMLText.escape(m.evidence))</td></tr>\n"
        }
        page += "</tbody>\n</table>\n</section>\n<section id=\"figures\">\n<h2>Figures</h2>\n"
        for figure in figures {
            page += "<figure id=\"\(figure.id)\">\n<h3>\(HTMLText.escape(figure.title))</h3>\n" + figure.svg(standalone: false)
                + "<figcaption>\(HTMLText.escape(figure.caption)) Also in <code>\(figure.file)</code>.</figcaption>\n</figure>\n"
        }
        page += "</section>\n<footer><p class=\"lead\">Written by Fathom \(FathomVersion.string). The numbers behind this page are in report.json (meters, seconds, radians).</p></footer>\n</body>\n</html>\n"
        return page
    }
}
