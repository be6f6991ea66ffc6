import Glibc

/// Memory for a mesh's acceleration structure (nodes, triangle blocks, leaf tables), which queries read at random.
/// Buffers of 2 MiB and more are aligned to 2 MiB and marked for transparent huge pages (`madvise`), so that a
/// ray's reads miss the TLB far less (bench/README.md has the numbers). Where the kernel's
/// transparent huge pages are `never`, they stay ordinary pages (with `always` it may use huge pages for any
/// buffer). Smaller buffers are aligned to 64 bytes (a cache line).
enum MeshAllocation {
    static let hugePage = 1 << 21

    /// Uninitialized memory for `count` values; release it with `deallocate`. Traps when out of memory, as
    /// Swift's own allocation does.
    static func allocate<T>(_: T.Type, capacity count: Int) -> UnsafeMutableBufferPointer<T> {
        let bytes = Swift.max(1, count * MemoryLayout<T>.stride)
        let alignment = bytes >= hugePage ? hugePage : Swift.max(64, MemoryLayout<T>.alignment)
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, alignment, bytes) == 0, let memory else { fatalError("out of memory: \(bytes) bytes") }
        if alignment == hugePage { _ = madvise(memory, bytes, MADV_HUGEPAGE) }
        return UnsafeMutableBufferPointer(start: memory.bindMemory(to: T.self, capacity: count), count: count)
    }

    /// Frees memory from `allocate` (its values must be trivial or already deinitialized).
    static func deallocate<T>(_ buffer: UnsafeMutableBufferPointer<T>) {
        free(buffer.baseAddress)
    }
}
