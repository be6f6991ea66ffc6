import FathomCore
import Glibc

/// `fathom convert SRC DST [--to scanner|stray]`: a capture written in another format.
enum ConvertCommand {
    static let usage = """
    usage: fathom convert SRC DST [--to scanner|stray]
             SRC: a scan in any format read (the scanner app's files, a Stray Scanner folder, a nerfstudio
             transforms.json with depth PNGs): its folder or any of its files; DST: the folder to write;
             --to: the format written (default: stray for a scanner-app scan, scanner for the others)
    """

    /// Runs `fathom convert ...`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var paths = [String](), target: ScanFormat?
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--to" where i + 1 < arguments.count:
                guard let f = [ScanFormat.scanner, .stray].first(where: { $0.name == arguments[i + 1] }) else {
                    fputs("fathom convert: --to must be scanner or stray, got '\(arguments[i + 1])'\n", stderr); return 2
                }
                target = f; i += 2
            case "--to":
                fputs("fathom convert: --to needs a value (scanner or stray)\n", stderr); return 2
            case let a where a.hasPrefix("-"):
                fputs("fathom convert: unknown option '\(a)'\n" + usage + "\n", stderr); return 2
            case let a: paths.append(a); i += 1
            }
        }
        guard paths.count == 2 else { fputs(usage + "\n", stderr); return 2 }
        do {
            let scan = try Scan(path: paths[0])
            let format = target ?? (scan.format == .scanner ? .stray : .scanner)
            let bar = ProgressBar(label: "writing \(scan.scanID)")
            let written = try scan.write(to: paths[1], format: format) { done, total in bar.update(done, total); return true }
            bar.finish()
            for w in scan.warnings { print("warning: \(w)") }
            print("wrote \(scan.count) frames of \(scan.scanID) (\(scan.format.name)) as \(format.name): \(written)")
            return 0
        } catch {
            fputs("fathom convert: \(error)\n", stderr)
            return 1
        }
    }
}
