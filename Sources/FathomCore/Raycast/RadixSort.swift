/// Least-significant-digit radix sort of 64-bit values by their high `keyBits` bits, stable: values with
/// equal keys keep their order. Used to order batch rays by a 32-bit key with the ray's index below it.
public enum RadixSort {
    static let digitBits = 11

    /// Sorts `values` in place by bits 64 - keyBits ..< 64; `scratch` must hold as many values.
    public static func sort(_ values: UnsafeMutableBufferPointer<UInt64>, keyBits: Int, scratch: UnsafeMutableBufferPointer<UInt64>) {
        precondition(scratch.count >= values.count && (1...64).contains(keyBits))
        let radix = 1 << digitBits
        var source = values, target = UnsafeMutableBufferPointer(rebasing: scratch[0..<values.count])
        var shift = 64 - keyBits
        withUnsafeTemporaryAllocation(of: Int.self, capacity: radix) { offsets in
            while shift < 64 {
                offsets.initialize(repeating: 0)
                for value in source { offsets[Int(truncatingIfNeeded: value >> UInt64(shift)) & (radix - 1)] &+= 1 }
                var sum = 0
                for d in 0..<radix { let count = offsets[d]; offsets[d] = sum; sum &+= count }
                for value in source {
                    let d = Int(truncatingIfNeeded: value >> UInt64(shift)) & (radix - 1)
                    target[offsets[d]] = value
                    offsets[d] &+= 1
                }
                swap(&source, &target)
                shift += digitBits
            }
        }
        if source.baseAddress != values.baseAddress { _ = values.update(fromContentsOf: source) }
    }
}
