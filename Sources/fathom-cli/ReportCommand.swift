import FathomCore
import Glibc

/// `fathom report SCAN [--out DIR] [--box FILE]` and `fathom demo [DIR]`: a capture turned into measurements.
enum ReportCommand {
    static let usage = """
    usage: fathom report SCAN [--out DIR] [--box FILE]
             SCAN: a scan (scanner app, Stray or nerfstudio): its folder or any of its files; --box: a boundingbox.json to use
             (default: the one beside the scan, else the box is estimated); --out: write report.json,
             cloud.ply, object.ply, trajectory.png, coverage.png and speed.png into DIR
           fathom demo [DIR]   write the built-in capture into DIR/scan (default fathom-demo) and report it into DIR/report
    """

    /// Runs `fathom report ...`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var scanPath: String?, out: String?, boxPath: String?
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--out" where i + 1 < arguments.count: out = arguments[i + 1]; i += 2
            case "--box" where i + 1 < arguments.count: boxPath = arguments[i + 1]; i += 2
            case let a where !a.hasPrefix("-") && scanPath == nil: scanPath = a; i += 1
            default: fputs(usage + "\n", stderr); return 2
            }
        }
        guard let scanPath else { fputs(usage + "\n", stderr); return 2 }
        do {
            let box = try boxPath.map { path throws(FathomError) in try Box(manifestAt: path) }
            try report(scanPath, box: box, out: out)
            return 0
        } catch {
            fputs("fathom report: \(error)\n", stderr)
            return 1
        }
    }

    /// Runs `fathom demo [DIR]`.
    static func demo(_ arguments: [String]) -> Int32 {
        guard arguments.count <= 1 else { fputs(usage + "\n", stderr); return 2 }
        let directory = arguments.first ?? "fathom-demo"
        do {
            if mkdir(directory, 0o755) != 0, errno != EEXIST { throw FathomError(.io, "cannot create '\(directory)'") }
            print("writing the built-in capture (a 40 x 30 x 20 cm box, half circled in 10 s) into \(directory)/scan ...")
            let metadata = try DemoCapture.write(to: "\(directory)/scan")
            try report(metadata, box: nil, out: "\(directory)/report")
            print("true box: center \(format(DemoCapture.boxCenter)) scale \(format(DemoCapture.boxScale)) rot_y \(format(DemoCapture.boxYaw))")
            return 0
        } catch {
            fputs("fathom demo: \(error)\n", stderr)
            return 1
        }
    }

    static func report(_ path: String, box: Box?, out: String?) throws {
        let scan = try Scan(path: path)
        let options = CaptureOptions()
        let bar = ProgressBar(label: "reading \(scan.scanID)")
        let report = try scan.report(options: options, box: box) { done, total in bar.update(done, total); return true }
        bar.finish()
        print(summary(report))
        if let out {
            var written = try report.save(to: out)
            written += try ReportPlots.save(report, options: options, to: out)
            print("wrote " + written.joined(separator: ", "))
        }
    }

    /// The report in words.
    static func summary(_ r: ScanReport) -> String {
        var lines = ["scan \(r.scanID ?? "?"): \(r.frames) frames over \(format(r.duration)) s, depth fused from \(r.fusedFrames) frames into \(r.cloud.count) points (1 per voxel)"]
        func surface(_ name: String, _ s: HorizontalSurface?) -> String {
            guard let s else { return "\(name): not found" }
            return "\(name): y = \(format(s.height)) m (\(s.inliers) points over \(format(s.area)) m^2, rms \(format(s.rms)) m, "
                + "\(Int((s.seenFromAbove * 100).rounded()))% seen from above)"
        }
        lines.append(surface("floor", r.floor))
        if r.ceiling != nil { lines.append(surface("ceiling", r.ceiling)) }
        if let h = r.roomHeight { lines.append("room height: \(format(h)) m") }
        if let o = r.orbit {
            lines.append("orbit: \(o.views) views look at \(format(o.focus)) over \(Int((o.span * 180 / .pi).rounded())) degrees "
                + "(radius \(format(o.radius)) m): \(r.objectCapture ? "an object capture" : "not an object capture")")
        }
        if r.support != nil { lines.append(surface("support", r.support)) }
        if let box = r.box {
            lines.append("box (\(r.boxSource.name)): center \(format(box.center)) scale \(format(box.scale)) rot_y \(format(box.rotY)) rad, \(r.object.count) points inside")
        } else {
            lines.append("box: none")
        }
        if let t = r.trajectory {
            lines.append("path: \(format(t.pathLength)) m, speed p10/p50/p90/max \(format(t.speedP10))/\(format(t.speedP50))/\(format(t.speedP90))/\(format(t.speedMax)) m/s, too slow \(format(t.timeTooSlow)) s, too fast \(format(t.timeTooFast)) s")
        }
        if let c = r.coverage {
            let faces = zip(Box.faceNames, c.faces).map { "\($0) \($1.count)" }.joined(separator: ", ")
            lines.append("coverage of \(c.views) captured views: \(faces); \(c.facesComplete)/\(c.facesNeeded) faces complete, angular score \(format(c.angularScore))")
            if let next = c.nextView { lines.append("next view: from direction \(format(next.direction)), camera at \(format(next.position))") }
        }
        lines.append("selected \(r.selected.count) frames for a reconstruction")
        for w in r.warnings { lines.append("warning: \(w)") }
        return lines.joined(separator: "\n")
    }
}

/// A progress bar on standard error when it is a terminal; nothing otherwise.
final class ProgressBar {
    let label: String
    let enabled = isatty(STDERR_FILENO) != 0
    private var shown = -1

    init(label: String) { self.label = label }

    func update(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let percent = 100 * done / total
        guard percent != shown else { return }
        shown = percent
        let filled = 30 * done / total
        fputs("\r\(label) [\(String(repeating: "#", count: filled))\(String(repeating: " ", count: 30 - filled))] \(percent)%", stderr)
    }

    func finish() { if enabled, shown >= 0 { fputs("\n", stderr) } }
}
