import Glibc

extension FileIO {
    /// Buffers of this size and more are aligned to it and marked for transparent huge pages.
    static let hugePage = 1 << 21

    /// `body` with the bytes of the regular file at `path`, checked and read as `read(_:limit:)` does, in a buffer
    /// that is freed when `body` returns: for a large file that is parsed once and dropped. A buffer of 2 MiB or
    /// more is aligned to 2 MiB and marked for transparent huge pages (`madvise`), so that the kernel gives it
    /// memory 2 MiB at a time: faulting a fresh buffer in 4 KiB at a time costs more than reading the file into it
    /// (bench/README.md, parse.py). Where transparent huge pages are `never`, it stays ordinary pages.
    static func withContents<T>(of path: String, limit: Int,
                                _ body: (UnsafeBufferPointer<UInt8>) throws(FathomError) -> T) throws(FathomError) -> T {
        let (fd, size) = try openBounded(path, limit: limit)
        defer { close(fd) }
        let bytes = Swift.max(size, 1)
        let alignment = bytes >= hugePage ? hugePage : 64
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, alignment, bytes) == 0, let memory else {
            throw FathomError(.outOfMemory, "cannot read '\(path)': no memory for its \(size) bytes")
        }
        defer { free(memory) }
        if alignment == hugePage { _ = madvise(memory, bytes, MADV_HUGEPAGE) }
        let buffer = memory.bindMemory(to: UInt8.self, capacity: bytes)
        try readAll(fd, size, into: buffer, path)
        return try body(UnsafeBufferPointer(start: buffer, count: size))
    }
}
