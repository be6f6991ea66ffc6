import Glibc

/// Whole-file reads and writes with errno-based messages (".io" errors naming the path).
///
/// Only regular files are read or replaced: a path is opened without blocking (a FIFO would otherwise wait for a
/// writer forever) and its type checked before any byte moves. Writes go to a temporary file in the same folder
/// that is renamed over the target once complete, so a failure midway (a full disk, EIO) leaves the old file or
/// none, never a cut one.
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
        let (fd, size) = try openBounded(path, limit: limit)
        defer { close(fd) }
        var failure: FathomError?
        // Not zeroed first: every byte is read into place, or the array is dropped.
        let bytes = [UInt8](unsafeUninitializedCapacity: Swift.max(size, 1)) { buffer, initialized in
            do throws(FathomError) {
                try readAll(fd, size, into: buffer.baseAddress.unsafelyUnwrapped, path)
            } catch {
                failure = error
            }
            initialized = failure == nil ? size : 0
        }
        if let failure { throw failure }
        return bytes
    }

    /// `openRegular`, refused (`.format`, the descriptor closed) when the file is larger than `limit` bytes.
    static func openBounded(_ path: String, limit: Int) throws(FathomError) -> (fd: Int32, size: Int) {
        let (fd, size) = try openRegular(path)
        guard size <= limit else {
            close(fd)
            throw FathomError(.format, "'\(path)' is \(size) bytes, more than the \(limit) this kind of file may have")
        }
        return (fd, size)
    }

    /// Reads the `size` bytes of the file open as `fd` (named `path` in messages) into `buffer`: `.io` when a read
    /// fails or the file turns out shorter or longer than `size`.
    static func readAll(_ fd: Int32, _ size: Int, into buffer: UnsafeMutablePointer<UInt8>, _ path: String) throws(FathomError) {
        var done = 0
        while done < size {
            let n = pread(fd, buffer + done, size - done, off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw FathomError(.io, "cannot read '\(path)' at byte \(done): \(errorText())") }
            guard n > 0 else { throw FathomError(.io, "'\(path)' shrank while it was read (\(done) of \(size) bytes)") }
            done += n
        }
        var extra: UInt8 = 0
        guard pread(fd, &extra, 1, off_t(size)) == 0 else { throw FathomError(.io, "'\(path)' grew while it was read") }
    }

    /// Opens the regular file at `path` for reading: without blocking, then its type checked (`.io` for a FIFO,
    /// a device or a directory), then back to blocking reads. Returns the descriptor (the caller closes it) and
    /// the file's size.
    static func openRegular(_ path: String) throws(FathomError) -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FathomError(.io, "cannot open '\(path)': \(errorText())") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let text = errorText()
            close(fd)
            throw FathomError(.io, "cannot read '\(path)': \(text)")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FathomError(.io, "'\(path)' is not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, Int(truncatingIfNeeded: max(info.st_size, 0)))
    }

    /// Creates or replaces the file at `path` with `bytes`, as one step: written to a temporary file beside it
    /// and renamed over it. A target that exists and is not a regular file (a FIFO, a device, a directory) is
    /// refused (`.io`).
    public static func write(_ bytes: [UInt8], to path: String) throws(FathomError) {
        var file = try AtomicFile(path)
        do throws(FathomError) {
            try file.write(bytes)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}

/// A file written under a temporary name in its target's folder and renamed over the target by `commit()`:
/// readers of the target see the old file or the whole new one. `discard()` removes the temporary file.
struct AtomicFile {
    let path: String
    private(set) var temporaryPath: String
    private var fd: Int32

    /// Starts the file that will replace `path`. `.io` when `path` exists and is not a regular file, or when its
    /// folder cannot hold a new file.
    init(_ path: String) throws(FathomError) {
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists, (info.st_mode & S_IFMT) != S_IFREG {
            throw FathomError(.io, "'\(path)' is not a regular file: not replaced")
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(folder).\(name).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FathomError(.io, "cannot create '\(path)': \(FileIO.errorText())") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        // mkstemp makes the file private (0600): a replaced file keeps its mode, a new one gets what creat(2) would
        // give under the process's umask.
        fchmod(fd, exists ? info.st_mode & 0o7777 : 0o666 & ~AtomicFile.umask)
        self.path = path
        self.fd = fd
        temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The process's umask, read from /proc (umask(2) can only read it by changing it, for every thread); 022 where
    /// /proc does not say.
    static var umask: mode_t {
        // /proc's files say their size is 0: read what is there, up to a bound.
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0o022 }
        defer { close(fd) }
        var status = [UInt8](repeating: 0, count: 1 << 14)
        let n = status.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return 0o022 }
        for line in String(decoding: status[..<n], as: UTF8.self).split(separator: "\n") where line.hasPrefix("Umask:") {
            if let value = mode_t(line.dropFirst(6).trimmingPrefix(while: { $0 == " " || $0 == "\t" }), radix: 8) { return value }
        }
        return 0o022
    }

    /// Appends `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FathomError) {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw FathomError(.io, "cannot write '\(path)': \(n < 0 ? FileIO.errorText() : "nothing written")") }
            done += n
        }
    }

    func write(_ bytes: [UInt8]) throws(FathomError) {
        try bytes.withUnsafeBytes { b in Result { () throws(FathomError) in try write(b) } }.get()
    }

    /// Closes the temporary file and renames it over the target.
    mutating func commit() throws(FathomError) {
        let closed = close(fd)
        fd = -1
        guard closed == 0 else { throw FathomError(.io, "cannot write '\(path)': \(FileIO.errorText())") }
        guard rename(temporaryPath, path) == 0 else { throw FathomError(.io, "cannot replace '\(path)': \(FileIO.errorText())") }
    }

    /// Removes the temporary file (after a failure); the target stays as it was.
    mutating func discard() {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(temporaryPath)
    }
}
