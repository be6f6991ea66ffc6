import Glibc

/// Whole-file reads and writes with errno-based messages (".io" errors naming the path).
public enum FileIO {
    /// The bytes of the file at `path`.
    public static func read(_ path: String) throws(FathomError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw FathomError(.io, "cannot open '\(path)': \(errorText())") }
        defer { fclose(file) }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes.append(contentsOf: chunk[0..<n])
            if n < chunk.count {
                if ferror(file) != 0 { throw FathomError(.io, "cannot read '\(path)': \(errorText())") }
                return bytes
            }
        }
    }

    /// The bytes of the regular file at `path`, refused (`.format`) when it is larger than `limit` bytes:
    /// files whose size comes from untrusted input are never read without a bound.
    public static func read(_ path: String, limit: Int) throws(FathomError) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FathomError(.io, "cannot open '\(path)': \(errorText())") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FathomError(.io, "'\(path)' is not a regular file") }
        guard Int(info.st_size) <= limit else {
            throw FathomError(.format, "'\(path)' is \(info.st_size) bytes, more than the \(limit) this kind of file may have")
        }
        let bytes = try read(path)
        guard bytes.count <= limit else { throw FathomError(.io, "'\(path)' grew while it was read") }
        return bytes
    }

    /// Creates or replaces the file at `path` with `bytes`.
    public static func write(_ bytes: [UInt8], to path: String) throws(FathomError) {
        guard let file = fopen(path, "wb") else { throw FathomError(.io, "cannot create '\(path)': \(errorText())") }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else { throw FathomError(.io, "cannot write '\(path)': \(errorText())") }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
