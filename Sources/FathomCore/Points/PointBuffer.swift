/// A caller-owned, read-only buffer of float32 xyz points: point i at byte offset i * stride.
///
/// Validation (`init(base:count:stride:)`) happens once; the hot loops then index without checks.
@frozen
public struct PointBuffer: @unchecked Sendable {
    public let base: UnsafePointer<Float>
    public let count: Int
    /// Stride in floats (the byte stride / 4), >= 3.
    public let floatStride: Int

    /// Validates a (pointer, count, byte stride) triple: count >= 1, stride a multiple of 4 and >= 12,
    /// pointer 4-byte aligned, and count * stride addressable without overflow.
    /// `names` are the argument names used in messages (points, count, stride).
    public init(base: UnsafeRawPointer, count: Int, strideBytes: Int,
                names: (points: String, count: String, stride: String) = ("points", "count", "stride")) throws(FathomError) {
        guard count >= 1 else { throw FathomError(.outOfRange, "\(names.count) must be >= 1, got \(count)") }
        guard strideBytes >= 12, strideBytes % 4 == 0 else {
            throw FathomError(.outOfRange, "\(names.stride) must be a multiple of 4 and >= 12 bytes, got \(strideBytes)")
        }
        guard Int(bitPattern: base) % 4 == 0 else { throw FathomError(.outOfRange, "\(names.points) must be 4-byte aligned") }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: strideBytes)
        guard !overflow, UInt(bitPattern: Int(bitPattern: base)).addingReportingOverflow(UInt(bytes)).overflow == false else {
            throw FathomError(.overflow, "\(names.count) * \(names.stride) overflows (\(names.count) \(count), \(names.stride) \(strideBytes))")
        }
        self.base = base.assumingMemoryBound(to: Float.self)
        self.count = count
        self.floatStride = strideBytes / 4
    }

    /// Point i (no bounds check: i must be in 0..<count).
    @inlinable
    public subscript(i: Int) -> SIMD3<Float> {
        let p = base + i &* floatStride
        return SIMD3(p[0], p[1], p[2])
    }

    /// Throws `.notFinite` naming the first point with a NaN or infinite coordinate.
    public func requireFinite(_ name: String = "points") throws(FathomError) {
        for i in 0..<count where !self[i].isFinite {
            throw FathomError(.notFinite, "\(name)[\(i)] = \(self[i]) is not finite")
        }
    }
}
