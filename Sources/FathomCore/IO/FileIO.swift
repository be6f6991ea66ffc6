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

    /// Creates or replaces the file at `path` with `bytes`.
    public static func write(_ bytes: [UInt8], to path: String) throws(FathomError) {
        guard let file = fopen(path, "wb") else { throw FathomError(.io, "cannot create '\(path)': \(errorText())") }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else { throw FathomError(.io, "cannot write '\(path)': \(errorText())") }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
