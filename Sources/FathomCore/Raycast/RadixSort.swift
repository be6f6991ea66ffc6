/// Least-significant-digit radix sort of 64-bit values by their high `keyBits` bits, stable: values with
/// equal keys keep their order. Used to order batch rays by a 32-bit key with the ray's index below it.
///
/// Each pass splits the values into one contiguous part per thread: every part counts its digits, the counts
/// become offsets (by digit, then by part), and every part moves its values to their offsets. Parts in order
/// and values in order within a part keep it stable, so the result does not depend on the thread count.
public enum RadixSort {
    static let digitBits = 11
    /// Values per part at least: below it, the threads' start-up costs more than they save.
    static let minimumPart = 1 << 16

    /// Sorts `values` in place by bits 64 - keyBits ..< 64; `scratch` must hold as many values. `threads`: as
    /// in `ParallelFor.run` (0 = one per online CPU).
    public static func sort(_ values: UnsafeMutableBufferPointer<UInt64>, keyBits: Int, scratch: UnsafeMutableBufferPointer<UInt64>,
                            threads: Int = 1) {
        precondition(scratch.count >= values.count && (1...64).contains(keyBits))
        let radix = 1 << digitBits, n = values.count
        let parts = Swift.max(1, Swift.min(threads == 0 ? ParallelFor.processorCount : threads, n / minimumPart))
        let partSize = (n + parts - 1) / parts
        nonisolated(unsafe) var source = values, target = UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
        // offsets[p * radix + d]: part p's count of digit d, then where its next value of digit d goes.
        nonisolated(unsafe) let offsets = UnsafeMutableBufferPointer<Int>.allocate(capacity: parts * radix)
        defer { offsets.deallocate() }
        var shift = 64 - keyBits
        while shift < 64 {
            let digitShift = UInt64(shift), from = source, to = target
            @inline(__always) func digit(_ value: UInt64) -> Int { Int(truncatingIfNeeded: value >> digitShift) & (radix - 1) }
            offsets.initialize(repeating: 0)
            ParallelFor.run(count: parts, threads: parts, chunk: 1) { range in
                for p in range {
                    let counts = offsets.baseAddress.unsafelyUnwrapped + p * radix
                    for i in (p * partSize)..<Swift.min(n, (p + 1) * partSize) { counts[digit(from[i])] &+= 1 }
                }
            }
            var sum = 0
            for d in 0..<radix {
                for p in 0..<parts { let count = offsets[p * radix + d]; offsets[p * radix + d] = sum; sum &+= count }
            }
            ParallelFor.run(count: parts, threads: parts, chunk: 1) { range in
                for p in range {
                    let next = offsets.baseAddress.unsafelyUnwrapped + p * radix
                    for i in (p * partSize)..<Swift.min(n, (p + 1) * partSize) {
                        let value = from[i], d = digit(value)
                        to[next[d]] = value
                        next[d] &+= 1
                    }
                }
            }
            swap(&source, &target)
            shift += digitBits
        }
        if source.baseAddress != values.baseAddress { _ = values.update(fromContentsOf: source) }
    }
}
