import Glibc

/// Whole-file reads and writes with errno-based messages (".io" errors naming the path).
public enum FileIO {
    /// The bytes of the regular file at `path`: its size is read first and bounds the read, so a device such as
    /// /dev/zero, a FIFO or a directory is refused (`.io`) instead of read without end, and a file that grows or
    /// shrinks while it is read, or fails midway (EIO), is an `.io` error with nothing returned.
    public static func read(_ path: String) throws(FathomError) -> [UInt8] {
        try read(path, limit: Int.max)
    }

    /// `read(path)`, refused (`.format`) when the file is larger than `limit` bytes: files whose size comes from
    /// untrusted input are never read without a bound.
    public static func read(_ path: String, limit: Int) throws(FathomError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw FathomError(.io, "cannot open '\(path)': \(errorText())") }
        defer { fclose(file) }
        var info = stat()
        guard fstat(fileno(file), &info) == 0 else { throw FathomError(.io, "cannot read '\(path)': \(errorText())") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FathomError(.io, "'\(path)' is not a regular file") }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw FathomError(.format, "'\(path)' is \(size) bytes, more than the \(limit) this kind of file may have")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let n = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
        guard ferror(file) == 0 else { throw FathomError(.io, "cannot read '\(path)': \(errorText())") }
        guard n == size else { throw FathomError(.io, "'\(path)' shrank while it was read (\(n) of \(size) bytes)") }
        guard fgetc(file) == EOF, ferror(file) == 0 else { throw FathomError(.io, "'\(path)' grew while it was read") }
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
