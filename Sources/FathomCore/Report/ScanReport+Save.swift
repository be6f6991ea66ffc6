import Glibc

extension ScanReport {
    /// Writes into `directory` (created if missing): `report.json`, `cloud.ply` (the fused cloud), `object.ply`
    /// (its points inside the box; only with a box), `report.html` (the page people read) and its figures as
    /// `top-view.svg`, `side-view.svg`, `speed.svg`, and with a box `coverage.svg` and `view-bins.svg`.
    /// Returns the paths written.
    @discardableResult
    public func save(to directory: String) throws(FathomError) -> [String] {
        try ScanReport.prepare(directory)
        var written: [String] = []
        func write(_ name: String, _ text: String) throws(FathomError) {
            written.append("\(directory)/\(name)")
            try FileIO.write(Array(text.utf8), to: written[written.count - 1])
        }
        try write("report.json", json() + "\n")
        written.append("\(directory)/cloud.ply")
        try cloud.savePLY(path: written[written.count - 1])
        if box != nil {
            written.append("\(directory)/object.ply")
            try object.savePLY(path: written[written.count - 1])
        }
        try write("report.html", html())
        for figure in figures { try write(figure.file, figure.svg(standalone: true)) }
        return written
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
