import Glibc

extension ScanReport {
    /// Writes into `directory` (created if missing): `report.json`, `cloud.ply` (the fused cloud), `object.ply`
    /// (its points inside the box; only with a box), `report.html` (the page people read) and its figures as
    /// `top-view.svg`, `side-view.svg`, `speed.svg`, and with a box `coverage.svg` and `view-bins.svg`. The files
    /// are written as one set: each to a temporary file, renamed into place only when all are written, so a
    /// failure leaves the previous report's files (or none), not a mix. Returns the paths written.
    @discardableResult
    public func save(to directory: String) throws(FathomError) -> [String] {
        try ScanReport.prepare(directory)
        var contents: [(String, [UInt8])] = [("report.json", Array((json() + "\n").utf8)), ("cloud.ply", cloud.plyBytes(.binary))]
        if box != nil { contents.append(("object.ply", object.plyBytes(.binary))) }
        let figures = self.figures
        contents.append(("report.html", Array(html(figures: figures).utf8)))
        for figure in figures { contents.append((figure.file, Array(figure.svg(standalone: true).utf8))) }
        var files: [AtomicFile] = []
        do throws(FathomError) {
            for (name, bytes) in contents {
                let file = try AtomicFile("\(directory)/\(name)")
                files.append(file)
                try file.write(bytes)
            }
            for i in files.indices { try files[i].commit() }
        } catch {
            for i in files.indices { files[i].discard() }
            throw error
        }
        return files.map(\.path)
    }

    /// Creates `directory` if missing and checks that files can be made in it, so that a report's output fails
    /// before the work rather than after.
    public static func prepare(_ directory: String) throws(FathomError) {
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw FathomError(.io, "cannot create '\(directory)': \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw FathomError(.io, "'\(directory)' is not a directory")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw FathomError(.io, "cannot write into '\(directory)': \(String(cString: strerror(errno)))")
        }
    }
}
