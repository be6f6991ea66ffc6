import Glibc

/// The report's figures as SVG: a top view, a side view, speed over time, the box's coverage cross and the
/// view-direction bins. Each has axes in metres or seconds, a legend and words, inline in `report.html` and
/// as a file of its own.
struct ReportFigure {
    /// The element id in the page and the file name beside it.
    let id: String, file: String
    let title: String, caption: String
    let plot: SVGPlot

    func svg(standalone: Bool) -> String { plot.svg(title: title, standalone: standalone) }
}

extension ScanReport {
    /// The figures, in the page's order (coverage and bins only with a box).
    var figures: [ReportFigure] {
        var all = [topView, sideView, speedFigure]
        if let coverage {
            all.append(coverageCross(coverage))
            all.append(viewBins(coverage))
        }
        return all
    }

    // The palette: one colour per meaning across the figures.
    enum Palette {
        static let cloud = "#b4b4b4", object = "#1f77b4", box = "#2ca02c", path = "#222222", captures = "#d62728"
        static let focus = "#ff7f0e", next = "#9467bd", floor = "#8c564b", support = "#17becf", ceiling = "#9467bd"
        static let tooSlow = "#6baed6", slightlySlow = "#c6dbef", slightlyFast = "#fdd0a2", tooFast = "#f16913"
        static let slowLine = "#08519c", fastLine = "#a50f15", notNeeded = "#d0d0d0"
    }

    /// Seen from above, x across and z down as on a floor plan.
    var topView: ReportFigure {
        let cloudXZ = (0..<cloud.count).map { (Double(cloud[$0].x), Double(cloud[$0].z)) }
        let objectXZ = (0..<object.count).map { (Double(object[$0].x), Double(object[$0].z)) }
        var extent = Extent(robust: cloudXZ)
        extent.add(cameraPositions.map { (Double($0.x), Double($0.z)) })
        extent.add(objectXZ)
        if let box { extent.add(box.corners.map { (Double($0.x), Double($0.z)) }) }
        // The focus means something only where the views circle it; on a walk-through it can lie far away.
        let focus = objectCapture ? self.focus : nil
        if let focus { extent.add([(Double(focus.x), Double(focus.z))]) }
        if let next = coverage?.nextView { extent.add([(Double(next.position.x), Double(next.position.z))]) }
        let (xs, zs) = extent.padded(0.06)
        var plot = SVGPlot(width: 760, height: 620, legendWidth: 150, xRange: xs, yRange: zs, yDown: true, equalAspect: true)
        plot.cells(cloudXZ, cell: 3, color: Palette.cloud)
        plot.legend("fused cloud", .box(fill: Palette.cloud))
        if !objectXZ.isEmpty {
            plot.cells(objectXZ, cell: 3, color: Palette.object)
            plot.legend("object points", .box(fill: Palette.object))
        }
        if let box {
            let c = box.corners
            plot.polyline([0, 1, 5, 4, 0].map { (Double(c[$0].x), Double(c[$0].z)) }, color: Palette.box, width: 2.5)
            plot.legend("box", .line(color: Palette.box, dash: nil))
        }
        plot.polyline(cameraPositions.map { (Double($0.x), Double($0.z)) }, color: Palette.path)
        if let first = cameraPositions.first {
            plot.circle(Double(first.x), Double(first.z), radius: 4, fill: "white", stroke: Palette.path)
        }
        plot.legend("camera path", .line(color: Palette.path, dash: nil))
        let captured = captures.filter { cameraPositions.indices.contains($0) }
        for i in captured { plot.circle(Double(cameraPositions[i].x), Double(cameraPositions[i].z), radius: 4, fill: Palette.captures) }
        if !captured.isEmpty { plot.legend("captures", .dot(color: Palette.captures)) }
        if let focus {
            plot.cross(Double(focus.x), Double(focus.z), size: 7, color: Palette.focus)
            plot.legend("focus", .cross(color: Palette.focus))
        }
        if let next = coverage?.nextView, let box {
            plot.polyline([(Double(next.position.x), Double(next.position.z)), (Double(box.center.x), Double(box.center.z))],
                          color: Palette.next, dash: "5 4")
            plot.circle(Double(next.position.x), Double(next.position.z), radius: 6, fill: Palette.next)
            plot.legend("next view", .dot(color: Palette.next))
        }
        plot.axes(x: "x (m)", y: "z (m)")
        plot.scaleBar()
        plot.add(axesKey(plot))
        return ReportFigure(id: "fig-top", file: "top-view.svg", title: "Top view",
                            caption: "Seen from above: world x across, z down (as on a floor plan), in metres. The camera path starts at the open circle.",
                            plot: plot)
    }

    /// Arrows naming the world's x and z directions in the top view's corner.
    private func axesKey(_ plot: SVGPlot) -> String {
        let x = plot.right - 70, y = plot.top + 14
        return "<g class=\"axes-key\" stroke=\"#444\" fill=\"#444\"><path d=\"M\(SVGPlot.number(x)) \(SVGPlot.number(y))h40M\(SVGPlot.number(x)) \(SVGPlot.number(y))v40\" fill=\"none\"/>"
            + "<path d=\"M\(SVGPlot.number(x + 40)) \(SVGPlot.number(y - 4))l8 4l-8 4z\"/><path d=\"M\(SVGPlot.number(x - 4)) \(SVGPlot.number(y + 40))l4 8l4 -8z\"/>"
            + "<text x=\"\(SVGPlot.number(x + 52))\" y=\"\(SVGPlot.number(y + 4))\" stroke=\"none\">x</text><text x=\"\(SVGPlot.number(x - 4))\" y=\"\(SVGPlot.number(y + 62))\" stroke=\"none\">z</text></g>"
    }

    /// Seen along z: world x across, height y up, with the floor, support and ceiling heights.
    var sideView: ReportFigure {
        let cloudXY = (0..<cloud.count).map { (Double(cloud[$0].x), Double(cloud[$0].y)) }
        var extent = Extent(robust: cloudXY)
        extent.add(cameraPositions.map { (Double($0.x), Double($0.y)) })
        let surfaces = [("floor", floor, Palette.floor), ("support", support, Palette.support), ("ceiling", ceiling, Palette.ceiling)]
        for case let (_, s?, _) in surfaces { extent.add([(extent.x.lowerBound, Double(s.height))]) }
        if let box { extent.add(box.corners.map { (Double($0.x), Double($0.y)) }) }
        let (xs, ys) = extent.padded(0.06)
        var plot = SVGPlot(width: 760, height: 460, legendWidth: 150, xRange: xs, yRange: ys, equalAspect: true)
        plot.cells(cloudXY, cell: 3, color: Palette.cloud)
        plot.legend("fused cloud", .box(fill: Palette.cloud))
        var labelled: [Double] = []
        for case let (name, s?, color) in surfaces {
            let y = Double(s.height)
            plot.polyline([(plot.xRange.lowerBound, y), (plot.xRange.upperBound, y)], color: color, width: 2, dash: "8 4")
            // Labels of surfaces at about the same height (a support that is the floor) stack upward.
            var labelY = plot.py(y) - 5
            while labelled.contains(where: { abs($0 - labelY) < 14 }) { labelY -= 14 }
            labelled.append(labelY)
            plot.add("<text class=\"height-label\" x=\"\(SVGPlot.number(plot.right - 6))\" y=\"\(SVGPlot.number(labelY))\" text-anchor=\"end\" fill=\"\(color)\">"
                + "\(name) y = \(ReportText.centimetres(s.height))</text>")
            plot.legend(name, .line(color: color, dash: "8 4"))
        }
        if let box {
            let xsBox = box.corners.map { Double($0.x) }, ysBox = box.corners.map { Double($0.y) }
            if let x0 = xsBox.min(), let x1 = xsBox.max(), let y0 = ysBox.min(), let y1 = ysBox.max() {
                plot.polyline([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], color: Palette.box, width: 2.5)
                plot.legend("box", .line(color: Palette.box, dash: nil))
            }
        }
        plot.polyline(cameraPositions.map { (Double($0.x), Double($0.y)) }, color: Palette.path)
        plot.legend("cameras", .line(color: Palette.path, dash: nil))
        plot.axes(x: "x (m)", y: "height y (m)")
        return ReportFigure(id: "fig-side", file: "side-view.svg", title: "Side view",
                            caption: "Seen along z: world x across and height (y, up) in metres, at one scale; dashed lines are the horizontal surfaces found.",
                            plot: plot)
    }

    /// Camera speed over time on the guidance bands.
    var speedFigure: ReportFigure {
        let speeds = motion.map { $0.guidance == .unknown ? Double.nan : Double($0.speed) }
        let fastest = speeds.filter(\.isFinite).max() ?? 0
        let top = max(fastest, Double(speedLimits.fast)) * 1.15
        let duration = max(times.last ?? 0, 1e-3)
        var plot = SVGPlot(width: 760, height: 380, legendWidth: 190, xRange: SVGPlot.range(0, duration), yRange: SVGPlot.range(0, top))
        let slow = Double(speedLimits.slow), fast = Double(speedLimits.fast), slightly = Double(speedLimits.slightly)
        let bands = [("too slow", 0, slow, Palette.tooSlow), ("slightly slow", slow, slow * (1 + slightly), Palette.slightlySlow),
                     ("slightly fast", fast * (1 - slightly), fast, Palette.slightlyFast), ("too fast", fast, top, Palette.tooFast)]
        plot.legend("speed", .line(color: Palette.path, dash: nil))
        for (name, low, high, color) in bands {
            if high > low {
                let y0 = plot.py(min(high, top)), y1 = plot.py(low)
                plot.add("<rect x=\"\(SVGPlot.number(plot.left))\" y=\"\(SVGPlot.number(y0))\" width=\"\(SVGPlot.number(plot.right - plot.left))\" height=\"\(SVGPlot.number(y1 - y0))\" fill=\"\(color)\" fill-opacity=\"0.55\"/>")
            }
            plot.legend(name, .box(fill: color))
        }
        plot.polyline([(0, slow), (duration, slow)], color: Palette.slowLine, width: 1.5, dash: "6 3")
        plot.polyline([(0, fast), (duration, fast)], color: Palette.fastLine, width: 1.5, dash: "6 3")
        plot.legend("slow threshold \(SVGPlot.fixed(slow, 3)) m/s", .line(color: Palette.slowLine, dash: "6 3"))
        plot.legend("fast threshold \(SVGPlot.fixed(fast, 3)) m/s", .line(color: Palette.fastLine, dash: "6 3"))
        plot.polyline(zip(times, speeds).map { ($0, $1) }, color: Palette.path, width: 1.5)
        plot.axes(x: "time (s)", y: "speed (m/s)")
        return ReportFigure(id: "fig-speed", file: "speed.svg", title: "Camera speed",
                            caption: "Camera speed (m/s) over time (s from the first frame) on the guidance bands; gaps are frames without a speed.",
                            plot: plot)
    }

    /// The box's faces unfolded as a cross, each in the app's colour for its progress, named, with its count.
    func coverageCross(_ c: CoverageReport) -> ReportFigure {
        var plot = SVGPlot(width: 600, height: 600, legendWidth: 130, xRange: 0...3, yRange: 0...4, yDown: true, equalAspect: true)
        // (column, row) of front, left, right, bottom, top, back.
        let places = [(1, 2), (0, 1), (2, 1), (1, 3), (1, 1), (1, 0)]
        for (i, face) in c.faces.enumerated() where i < places.count {
            let (col, row) = places[i]
            let x0 = plot.px(Double(col)) + 2, y0 = plot.py(Double(row)) + 2
            let side = plot.xScale - 4
            let fill = face.needed ? ReportText.rgb(face.color) : Palette.notNeeded
            let count = "\(face.count) views · \(ReportText.percent(face.progress))"
            let bar = side * 0.8 * Double(min(max(face.progress, 0), 1))
            plot.add("<rect x=\"\(SVGPlot.number(x0))\" y=\"\(SVGPlot.number(y0))\" width=\"\(SVGPlot.number(side))\" height=\"\(SVGPlot.number(side))\" fill=\"\(fill)\" stroke=\"#555\"/>")
            plot.add("<text class=\"face-name\" x=\"\(SVGPlot.number(x0 + side / 2))\" y=\"\(SVGPlot.number(y0 + side * 0.4))\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">\(Box.faceNames[i])</text>")
            plot.add("<text class=\"face-count\" x=\"\(SVGPlot.number(x0 + side / 2))\" y=\"\(SVGPlot.number(y0 + side * 0.6))\" text-anchor=\"middle\">\(count)</text>")
            plot.add("<rect x=\"\(SVGPlot.number(x0 + side * 0.1))\" y=\"\(SVGPlot.number(y0 + side * 0.75))\" width=\"\(SVGPlot.number(side * 0.8))\" height=\"8\" fill=\"white\" stroke=\"#333\"/>"
                + "<rect x=\"\(SVGPlot.number(x0 + side * 0.1))\" y=\"\(SVGPlot.number(y0 + side * 0.75))\" width=\"\(SVGPlot.number(bar))\" height=\"8\" fill=\"#333\"/>")
        }
        for p in [0, 50, 100] {
            let t = Float(p) / 100
            plot.legend("\(p)%", .box(fill: ReportText.rgb((1 - t) * SIMD3(1, 1, 0) + t * SIMD3(0, 1, 1))))
        }
        plot.legend("not needed", .box(fill: Palette.notNeeded))
        return ReportFigure(id: "fig-coverage", file: "coverage.svg", title: "Face coverage",
                            caption: "The box's faces unfolded (top in the middle, front below it): captured views counted on each face and its progress to the goal of \(c.goal) views, coloured from yellow (none) to cyan (done) as the capture app colours them.",
                            plot: plot)
    }

    /// The view-direction bins seen from above: sectors of azimuth around, rings of height from the lowest
    /// (outside) to the highest (centre), each shaded by its count.
    func viewBins(_ c: CoverageReport) -> ReportFigure {
        var plot = SVGPlot(width: 560, height: 460, legendWidth: 150, xRange: -1.1...1.1, yRange: -1.1...1.1, yDown: true, equalAspect: true)
        let rings = max(c.rings, 1), sectors = max(c.sectors, 1)
        let most = max(c.bins.max() ?? 0, 1)
        for ring in 0..<rings {
            let outer = Double(rings - ring) / Double(rings), inner = Double(rings - ring - 1) / Double(rings)
            for sector in 0..<sectors {
                let index = ring * sectors + sector
                let count = index < c.bins.count ? c.bins[index] : 0
                let a0 = Double(sector) / Double(sectors) * 2 * .pi, a1 = Double(sector + 1) / Double(sectors) * 2 * .pi
                let fill = count == 0 ? "#f4f4f4" : ReportText.blues(Double(count) / Double(most))
                func point(_ r: Double, _ a: Double) -> String { "\(SVGPlot.number(plot.px(r * cos(a)))) \(SVGPlot.number(plot.py(r * sin(a))))" }
                let radiusOut = SVGPlot.number(outer * plot.xScale), radiusIn = SVGPlot.number(inner * plot.xScale)
                let d = "M\(point(outer, a0))A\(radiusOut) \(radiusOut) 0 0 1 \(point(outer, a1))"
                    + (inner > 0 ? "L\(point(inner, a1))A\(radiusIn) \(radiusIn) 0 0 0 \(point(inner, a0))Z" : "L\(point(0, 0))Z")
                plot.add("<path d=\"\(d)\" fill=\"\(fill)\" stroke=\"white\"/>")
                if count > 0 {
                    let r = (outer + inner) / 2, a = (a0 + a1) / 2
                    plot.add("<text class=\"bin-count\" x=\"\(SVGPlot.number(plot.px(r * cos(a))))\" y=\"\(SVGPlot.number(plot.py(r * sin(a))))\" dy=\"4\" text-anchor=\"middle\" font-size=\"10\" fill=\"\(Double(count) / Double(most) > 0.5 ? "white" : "black")\">\(count)</text>")
                }
            }
        }
        plot.add("<text class=\"direction\" x=\"\(SVGPlot.number(plot.px(1.01)))\" y=\"\(SVGPlot.number(plot.py(0)))\" dy=\"4\">+x</text>")
        plot.add("<text class=\"direction\" x=\"\(SVGPlot.number(plot.px(0)))\" y=\"\(SVGPlot.number(plot.py(1.02)))\" dy=\"10\" text-anchor=\"middle\">+z</text>")
        plot.legend("no views", .box(fill: "#f4f4f4"))
        plot.legend("1 view", .box(fill: ReportText.blues(1 / Double(most))))
        plot.legend("\(most) views", .box(fill: ReportText.blues(1)))
        if let next = c.nextView {
            let d = next.direction
            let azimuth = atan2(Double(d.z), Double(d.x))
            let height = c.hemisphere ? Double(d.y) : (Double(d.y) + 1) / 2
            let r = 1 - min(max(height, 0), 1)
            plot.circle(r * cos(azimuth), r * sin(azimuth), radius: 6, fill: Palette.next, stroke: "white")
            plot.legend("next view", .dot(color: Palette.next))
        }
        return ReportFigure(id: "fig-bins", file: "view-bins.svg", title: "View directions",
                            caption: "Directions from the box to the counted cameras, seen from above: \(sectors) sectors of azimuth (from +x toward +z) and \(rings) rings of equal area from the lowest direction (outside) to the highest (centre); each cell shows its views.",
                            plot: plot)
    }
}

/// The x-y extent of what a figure draws. A cloud's extent leaves out its extreme 0.5% on each side (stray
/// points would shrink the rest to a dot); the figure leaves out the points outside.
struct Extent {
    var x: ClosedRange<Double>, y: ClosedRange<Double>
    private var empty = true

    init(robust points: [(Double, Double)]) {
        x = 0...0
        y = 0...0
        let step = max(1, points.count / 100_000)
        var xs: [Double] = [], ys: [Double] = []
        for i in stride(from: 0, to: points.count, by: step) where points[i].0.isFinite && points[i].1.isFinite {
            xs.append(points[i].0)
            ys.append(points[i].1)
        }
        guard !xs.isEmpty else { return }
        xs.sort()
        ys.sort()
        let low = Int(Double(xs.count - 1) * 0.005), high = Int(Double(xs.count - 1) * 0.995)
        x = xs[low]...xs[high]
        y = ys[low]...ys[high]
        empty = false
    }

    mutating func add(_ points: [(Double, Double)]) {
        for (px, py) in points where px.isFinite && py.isFinite {
            if empty {
                x = px...px
                y = py...py
                empty = false
            } else {
                x = min(x.lowerBound, px)...max(x.upperBound, px)
                y = min(y.lowerBound, py)...max(y.upperBound, py)
            }
        }
    }

    /// Both ranges grown by `fraction` of the larger span on each side (at least 10 cm).
    func padded(_ fraction: Double) -> (ClosedRange<Double>, ClosedRange<Double>) {
        let pad = max(max(x.upperBound - x.lowerBound, y.upperBound - y.lowerBound) * fraction, 0.1)
        return (SVGPlot.range(x.lowerBound - pad, x.upperBound + pad), SVGPlot.range(y.lowerBound - pad, y.upperBound + pad))
    }
}
