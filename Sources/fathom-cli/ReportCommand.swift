import FathomCore
import Glibc

/// `fathom report SCAN [--out DIR] [--box FILE] [--plausible-depth M] [--json]` and `fathom demo [DIR]`: a capture turned into measurements.
enum ReportCommand {
    static let usage = """
    usage: fathom report SCAN [--out DIR] [--box FILE] [--plausible-depth M] [--json]
             SCAN: a scan (scanner app, Stray or nerfstudio): its folder or any of its files
             --box FILE: a boundingbox.json to use (default: the one beside the scan, else the box is estimated)
             --out DIR: write report.html (the page to open), report.json, cloud.ply, object.ply and the figures
                        (top-view.svg, side-view.svg, speed.svg, coverage.svg, view-bins.svg) into DIR
             --plausible-depth M: depth beyond M meters (or negative, or NaN) is no sensor's: left out and counted
                        per frame in the warnings (default 50; inf for none)
             --json: print report.json instead of the words
           fathom demo [DIR]   write the built-in capture into DIR/scan (default fathom-demo) and report it into DIR/report
    """

    /// Runs `fathom report ...`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var scanPath: String?, out: String?, boxPath: String?, json = false
        var options = CaptureOptions()
        var i = 0
        func fail(_ message: String) -> Int32 {
            fputs("fathom report: \(message)\n\(usage)\n", stderr)
            return 2
        }
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--help", "-h": print(usage); return 0
            case "--json": json = true; i += 1
            case "--out", "--box":
                guard i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") else {
                    return fail("\(a) needs a value (\(a == "--out" ? "a directory" : "a boundingbox.json file"))")
                }
                if a == "--out" { out = arguments[i + 1] } else { boxPath = arguments[i + 1] }
                i += 2
            case "--plausible-depth":
                guard i + 1 < arguments.count, let meters = Float(arguments[i + 1]) else {
                    return fail("--plausible-depth needs a number of meters (inf for none)")
                }
                options.plausibleDepth = meters
                do { try options.validate() } catch { return fail(error.message) }
                i += 2
            case _ where a.hasPrefix("-") && a != "-": return fail("unknown option '\(a)'")
            case _ where scanPath == nil: scanPath = a; i += 1
            default: return fail("one scan at a time: unexpected '\(a)' after '\(scanPath ?? "")'")
            }
        }
        guard let scanPath else { return fail("which scan? give its folder or one of its files") }
        do {
            let box = try boxPath.map { path throws(FathomError) in try Box(manifestAt: path) }
            if let out { try ScanReport.prepare(out) }
            try report(scanPath, options: options, box: box, out: out, json: json)
            return 0
        } catch {
            fputs("fathom report: \(error)\n", stderr)
            return 1
        }
    }

    /// Runs `fathom demo [DIR]`.
    static func demo(_ arguments: [String]) -> Int32 {
        guard arguments.count <= 1, arguments.first.map({ !$0.hasPrefix("-") }) ?? true else { fputs(usage + "\n", stderr); return 2 }
        let directory = arguments.first ?? "fathom-demo"
        do {
            if mkdir(directory, 0o755) != 0, errno != EEXIST { throw FathomError(.io, "cannot create '\(directory)'") }
            try ScanReport.prepare("\(directory)/report")
            print("writing the built-in capture (a 40 x 30 x 20 cm box, half circled in 10 s) into \(directory)/scan ...")
            let metadata = try DemoCapture.write(to: "\(directory)/scan")
            try report(metadata, options: CaptureOptions(), box: nil, out: "\(directory)/report", json: false)
            print("true box: \(ReportText.size(DemoCapture.boxScale)), centre \(ReportText.point(DemoCapture.boxCenter)), rotated \(ReportText.degrees(DemoCapture.boxYaw)) about y")
            print("open \(directory)/report/report.html to see the report")
            return 0
        } catch {
            fputs("fathom demo: \(error)\n", stderr)
            return 1
        }
    }

    static func report(_ path: String, options: CaptureOptions, box: Box?, out: String?, json: Bool) throws {
        // The report reads the frames in order: indexed as they are read, the streams are inflated once.
        let scan = try Scan(path: path, indexWhileReading: true)
        let bar = ProgressBar(label: "reading \(scan.scanID)")
        let report = try scan.report(options: options, box: box) { done, total in bar.update(done, total); return true }
        bar.finish()
        print(json ? report.json() : report.text())
        if let out {
            let written = try report.save(to: out)
            // With --json standard output is the JSON alone.
            fputs("wrote " + written.joined(separator: ", ") + "\n", json ? stderr : stdout)
        }
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
