import Glibc

extension ScanReport {
    /// Writes `report.json`, `cloud.ply` (the fused cloud) and `object.ply` (its points inside the box;
    /// written only when there is a box) into `directory`, created if missing. Returns the paths written.
    @discardableResult
    public func save(to directory: String) throws(FathomError) -> [String] {
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw FathomError(.io, "cannot create '\(directory)': \(String(cString: strerror(errno)))")
        }
        var written = ["\(directory)/report.json", "\(directory)/cloud.ply"]
        try FileIO.write(Array((json() + "\n").utf8), to: written[0])
        try cloud.savePLY(path: written[1])
        if box != nil {
            written.append("\(directory)/object.ply")
            try object.savePLY(path: written[2])
        }
        return written
    }
}
