import FathomCore
import Glibc

/// REPL functions for scans (the scanner app's files, Stray Scanner and nerfstudio folders) and capture reports.
let scanBuiltins: [String: Builtin] = [
    "open_scan": Builtin(usage: "open_scan(path [, index])",
                         summary: "opens a scan (scanner app, Stray or nerfstudio): its folder or any of its files; index \"at open\" (default) "
                                  + "or \"while reading\" (the app's streams inflated as frames are read: once, read in order)") { a in
        try a.expect(1...2)
        let index = try a.choice(1, "index", ["at open", "while reading"], default: "at open")
        return .scan(try Scan(path: a.string(0, "path"), indexWhileReading: index == "while reading"))
    },
    "scan_frame": Builtin(usage: "scan_frame(scan, i)", summary: "frame i's depth map in meters (its pose: scan_pose)") { a in
        try a.expect(2...2)
        let scan = try a.scan(0, "scan"), i = try a.integer(1, "i")
        let frame = try ScanFrame(scan, i)
        let values = try frame.withDepthFrame { (f) throws(FathomError) -> [Float] in
            (0..<(f.height * f.width)).map { f.depth($0 % f.width, $0 / f.width) ?? 0 }
        }
        return .depth(DepthImage(values: values, width: frame.width, height: frame.height, rgb: frame.rgb))
    },
    "scan_pose": Builtin(usage: "scan_pose(scan, i)", summary: "frame i's camera-to-world pose") { a in
        try a.expect(2...2)
        let scan = try a.scan(0, "scan"), i = try a.integer(1, "i")
        guard i >= 0, i < scan.count else { throw FathomError(.outOfRange, "i must be in 0...\(scan.count - 1), got \(i)") }
        return .pose(scan.poses[i])
    },
    "scan_warnings": Builtin(usage: "scan_warnings(scan)", summary: "what was wrong but readable in the scan's files") { a in
        try a.expect(1...1)
        let warnings = try a.scan(0, "scan").warnings
        return warnings.isEmpty ? .string("no warnings") : .list(warnings.map { .string($0) })
    },
    "scan_cloud": Builtin(usage: "scan_cloud(scan [, voxel])", summary: "the scan's confident depth as world points, one per voxel (default 0.01 m)") { a in
        try a.expect(1...2)
        let voxel = a.count > 1 ? try a.float(1, "voxel") : 0.01
        return .cloud(Cloud(xyz: try a.scan(0, "scan").pointCloud(voxel: voxel).points))
    },
    "convert_scan": Builtin(usage: "convert_scan(scan, dir [, format])",
                            summary: "writes the scan into dir as \"scanner\" (default) or \"stray\"; gives the path to open") { a in
        try a.expect(2...3)
        let scan: Scan
        if case .string(let path) = a.values[0] { scan = try Scan(path: path) } else { scan = try a.scan(0, "scan") }
        let name = try a.choice(2, "format", [ScanFormat.scanner, .stray].map(\.name), default: "scanner")
        let format = name == ScanFormat.stray.name ? ScanFormat.stray : .scanner
        return .string(try scan.write(to: a.string(1, "dir"), format: format))
    },
    "scan_report": Builtin(usage: "scan_report(scan [, box])", summary: "the capture's measurements: floor, box, path, speed, coverage") { a in
        try a.expect(1...2)
        let scan: Scan
        if case .string(let path) = a.values[0] {
            scan = try Scan(path: path, indexWhileReading: true)  // read once, in order
        } else {
            scan = try a.scan(0, "scan")
        }
        return .report(try scan.report(box: a.count > 1 ? a.box(1, "box") : nil))
    },
    "report_box": Builtin(usage: "report_box(report)", summary: "the report's box (fitted, given or read from boundingbox.json)") { a in
        try a.expect(1...1)
        guard let box = try a.report(0, "report").box else { throw FathomError(.noData, "the report has no box: no object was found") }
        return .box(box)
    },
    "save_report": Builtin(usage: "save_report(report, dir)", summary: "writes report.json, cloud.ply, object.ply, report.html and its SVG figures into dir") { a in
        try a.expect(2...2)
        let report = try a.report(0, "report"), directory = try a.string(1, "dir")
        let written = try report.save(to: directory)
        return .string("wrote " + written.joined(separator: ", "))
    },
    "demo_scan": Builtin(usage: "demo_scan(dir [, frames])", summary: "writes the built-in capture (a box half circled, 600 frames) into dir") { a in
        try a.expect(1...2)
        let path = try DemoCapture.write(to: a.string(0, "dir"), frames: a.count > 1 ? a.integer(1, "frames") : 600)
        return .string(path)
    },
]

extension Arguments {
    func scan(_ i: Int, _ name: String) throws -> Scan {
        guard case .scan(let s) = values[i] else {
            throw FathomError(.outOfRange, "\(name) must be a scan (see open_scan), got \(values[i].typeName); usage: \(usage)")
        }
        return s
    }

    func report(_ i: Int, _ name: String) throws -> ScanReport {
        guard case .report(let r) = values[i] else {
            throw FathomError(.outOfRange, "\(name) must be a report (see scan_report), got \(values[i].typeName); usage: \(usage)")
        }
        return r
    }
}

/// How the REPL shows a scan.
func describe(_ scan: Scan) -> String {
    let format = ["float32", "float16", "uint16"][Int(scan.depthFormat.rawValue)]
    return "scan \(scan.scanID) (\(scan.format.name)): \(scan.count) frames, depth \(scan.depthWidth)x\(scan.depthHeight) \(format)"
        + "\(scan.hasConfidence ? " with confidence" : ""), RGB \(scan.rgbWidth)x\(scan.rgbHeight)"
        + (scan.indexesWhileReading ? ", indexed while reading" : "")
        + (scan.warnings.isEmpty ? "" : ", \(scan.warnings.count) warning(s) (scan_warnings)")
}
