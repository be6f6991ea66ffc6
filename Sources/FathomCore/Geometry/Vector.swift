/// Small helpers on SIMD vectors, the engine's point and direction type (meters, world frame unless named).

import CLanes

@inlinable
public func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }

@inlinable
public func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

@inlinable
public func length(_ a: SIMD3<Float>) -> Float { dot(a, a).squareRoot() }

@inlinable
public func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

@inlinable
public func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

@inlinable
public func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }

/// `v` scaled to unit length (NaN for a zero vector: callers pass nonzero vectors).
@inlinable
func normalize(_ v: SIMD3<Float>) -> SIMD3<Float> { v / length(v) }

@inlinable
func normalize(_ v: SIMD3<Double>) -> SIMD3<Double> { v / length(v) }

/// `v` scaled to unit length through Double, where no float vector's squared length overflows or underflows
/// (in float it does for components beyond about 1e19 or below 1e-19); zero when `v` is zero or not finite.
@inlinable
public func unit(_ v: SIMD3<Float>) -> SIMD3<Float> { unit(SIMD3<Double>(v)) }

/// `v` scaled to unit length and rounded to float; zero when `v` is zero or not finite.
@inlinable
public func unit(_ v: SIMD3<Double>) -> SIMD3<Float> {
    let l = length(v)
    return l > 0 && l.isFinite ? SIMD3<Float>(v / l) : .zero
}

extension SIMD3 where Scalar == Float {
    /// True when x, y and z are all finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

/// The world's up direction (+y).
public let worldUp = SIMD3<Float>(0, 1, 0)

/// |v| per component.
@inlinable @inline(__always)
public func componentAbs(_ v: SIMD3<Float>) -> SIMD3<Float> { lanesMax(v, -v) }

@inlinable @inline(__always)
public func componentAbs(_ v: SIMD3<Double>) -> SIMD3<Double> { lanesMax(v, -v) }

/// "(x, y, z)" for messages.
public func describe(_ v: SIMD3<Float>) -> String { "(\(v.x), \(v.y), \(v.z))" }

// Lane-wise minimum and maximum that always inline (the standard library's generic pointwiseMin/Max
// stay out-of-line calls in hot loops). y < x ? y : x, as Swift.min; LLVM turns them into minps/maxps.

@inlinable @inline(__always)
public func lanesMin(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    SIMD4(Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.min(a.z, b.z), Swift.min(a.w, b.w))
}

@inlinable @inline(__always)
public func lanesMax(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    SIMD4(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z), Swift.max(a.w, b.w))
}

/// a < b ? a : b per lane (b when either is NaN): one vminps (`fathom_lanes_min`), also with a broadcast operand.
@inlinable @inline(__always)
public func lanesMin(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { fathom_lanes_min(a, b) }

/// |x| per lane (the sign bit cleared, as scalar abs).
@inlinable @inline(__always)
public func lanesAbs(_ x: SIMD8<Float>) -> SIMD8<Float> {
    unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt32>.self) & SIMD8(repeating: 0x7fff_ffff), to: SIMD8<Float>.self)
}

extension SIMD8 where Scalar == Float {
    /// `replacing(with:where:)` as one blend (`fathom_lanes_select`): the standard library's can compile to a
    /// branch per lane.
    @inlinable @inline(__always)
    public func lanesReplacing(with other: Self, where mask: SIMDMask<SIMD8<Int32>>) -> Self {
        fathom_lanes_select(unsafeBitCast(mask, to: SIMD8<Int32>.self), other, self)
    }
}

extension SIMD8 where Scalar == Int32 {
    /// `replacing(with:where:)` as one blend (`fathom_lanes_select_int`).
    @inlinable @inline(__always)
    public func lanesReplacing(with other: Self, where mask: SIMDMask<SIMD8<Int32>>) -> Self {
        fathom_lanes_select_int(unsafeBitCast(mask, to: SIMD8<Int32>.self), other, self)
    }
}

/// The lanes of a mask as bits: bit i set when lane i is.
@inlinable @inline(__always)
public func laneBits(_ mask: SIMDMask<SIMD8<Int32>>) -> Int { signBits(unsafeBitCast(mask, to: SIMD8<UInt32>.self)) }

/// Bit i set when lane i's sign bit is set (one vmovmskps with AVX: `CLanes`).
@inlinable @inline(__always)
public func signBits(_ v: SIMD8<UInt32>) -> Int {
    Int(fathom_lanes_sign_bits(unsafeBitCast(v, to: SIMD8<Int32>.self)))
}

/// a > b ? a : b per lane (b when either is NaN): one vmaxps (`fathom_lanes_max`), also with a broadcast operand.
@inlinable @inline(__always)
public func lanesMax(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { fathom_lanes_max(a, b) }

@inlinable @inline(__always)
public func lanesMin(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.min(a.z, b.z))
}

@inlinable @inline(__always)
public func lanesMax(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z))
}

@inlinable @inline(__always)
public func lanesMax(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z))
}
