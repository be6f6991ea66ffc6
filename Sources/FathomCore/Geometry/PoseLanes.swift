import CLanes

/// Eight 3-vectors in SIMD lanes (structure of arrays): lane i of x, y and z is vector i.
@frozen @usableFromInline
struct Lanes3 {
    @usableFromInline var x, y, z: SIMD8<Float>

    @inlinable @inline(__always)
    init(_ x: SIMD8<Float>, _ y: SIMD8<Float>, _ z: SIMD8<Float>) {
        self.x = x; self.y = y; self.z = z
    }

    @inlinable @inline(__always)
    static func - (a: Lanes3, b: Lanes3) -> Lanes3 { Lanes3(a.x - b.x, a.y - b.y, a.z - b.z) }

    /// Vector i as a SIMD3.
    @inlinable @inline(__always)
    subscript(i: Int) -> SIMD3<Float> { SIMD3(x[i], y[i], z[i]) }
}

/// Per lane, `dot(a, b)`: ((a.x b.x + a.y b.y) + a.z b.z), the order of SIMD3's sum(), so every lane is bit-identical
/// to the scalar dot.
@inlinable @inline(__always)
func dot(_ a: Lanes3, _ b: Lanes3) -> SIMD8<Float> { (a.x * b.x + a.y * b.y) + a.z * b.z }

/// Per lane, the scalar `cross`.
@inlinable @inline(__always)
func cross(_ a: Lanes3, _ b: Lanes3) -> Lanes3 {
    Lanes3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// Eight consecutive rigid-pose candidates (16 floats each, column-major, as the C ABI passes them) read in place and
/// transposed into lanes: lane i of every field is pose i's value.
@frozen @usableFromInline
struct PoseLanes {
    /// The rotation's columns and the translation.
    @usableFromInline var c0, c1, c2, t: Lanes3
    /// The bottom row m[3], m[7], m[11], m[15].
    @usableFromInline var w0, w1, w2, w3: SIMD8<Float>

    /// Reads poses m[0..<128] (`fathom_lanes_transposed`).
    @inlinable @inline(__always)
    init(_ m: UnsafePointer<Float>) {
        @inline(__always) func column(_ c: Int32) -> Lanes3 {
            Lanes3(fathom_lanes_transposed(m, c, 0), fathom_lanes_transposed(m, c, 1), fathom_lanes_transposed(m, c, 2))
        }
        c0 = column(0)
        c1 = column(1)
        c2 = column(2)
        t = column(3)
        w0 = fathom_lanes_transposed(m, 0, 3)
        w1 = fathom_lanes_transposed(m, 1, 3)
        w2 = fathom_lanes_transposed(m, 2, 3)
        w3 = fathom_lanes_transposed(m, 3, 3)
    }

    /// Bit i set when pose i passes `Pose(ifRigid:tolerance:)`: the same decision per lane (every value finite, the
    /// bottom row within `tolerance` of (0, 0, 0, 1), R^T R within `tolerance` of I, determinant not negative).
    @inlinable @inline(__always)
    func rigidMask(tolerance: Float) -> UInt8 {
        let zero = SIMD8<Float>.zero, limit = SIMD8(repeating: tolerance), one = SIMD8<Float>(repeating: 1)
        // Each deviation within the limit, rather than their maximum: the same decision for finite values, and false
        // for an infinite or NaN one. So the bottom row needs no finiteness test, nor the rotation (an infinite or NaN
        // entry makes its column's squared length one); the translation does: x * 0 is (+-)0 for a finite x and NaN
        // for an infinite or NaN one, and NaN survives the sum.
        @inline(__always) func small(_ deviation: SIMD8<Float>) -> SIMDMask<SIMD8<Int32>> { lanesAbs(deviation) .<= limit }
        let finite = (t.x * zero + t.y * zero) + t.z * zero .== zero
        let bottom = small(w0) .& small(w1) .& small(w2) .& small(w3 - one)
        let diagonal = small(dot(c0, c0) - one) .& small(dot(c1, c1) - one) .& small(dot(c2, c2) - one)
        let offDiagonal = small(dot(c0, c1)) .& small(dot(c0, c2)) .& small(dot(c1, c2))
        let within = finite .& bottom .& diagonal .& offDiagonal .& (dot(c0, cross(c1, c2)) .>= zero)
        return UInt8(truncatingIfNeeded: laneBits(within))
    }

    /// These lanes moved up by one, with the pose at `previous` (16 floats, column-major) first: lane i holds the pose
    /// before pose i (the bottom row is not moved).
    @inlinable @inline(__always)
    func shifted(after previous: UnsafePointer<Float>) -> PoseLanes {
        @inline(__always) func shift(_ a: SIMD8<Float>, _ first: Float) -> SIMD8<Float> {
            SIMD8(first, a[0], a[1], a[2], a[3], a[4], a[5], a[6])
        }
        @inline(__always) func shift(_ a: Lanes3, _ column: Int) -> Lanes3 {
            Lanes3(shift(a.x, previous[4 &* column]), shift(a.y, previous[4 &* column &+ 1]), shift(a.z, previous[4 &* column &+ 2]))
        }
        var result = self
        result.c0 = shift(c0, 0)
        result.c1 = shift(c1, 1)
        result.c2 = shift(c2, 2)
        result.t = shift(t, 3)
        return result
    }

    /// Pose i (after its lane passed `rigidMask`).
    @inlinable @inline(__always)
    subscript(i: Int) -> Pose { Pose(rotation: Matrix3(c0[i], c1[i], c2[i]), translation: t[i]) }
}

/// Per lane, `rotationAngle(a, b)`'s operations in its order: the angle of the rotation from `a`'s to `b`'s.
@inlinable @inline(__always)
func rotationAngle(_ a: PoseLanes, _ b: PoseLanes) -> SIMD8<Float> {
    let trace = (dot(a.c0, b.c0) + dot(a.c1, b.c1)) + dot(a.c2, b.c2)
    let v = Lanes3(dot(a.c2, b.c1) - dot(a.c1, b.c2), dot(a.c0, b.c2) - dot(a.c2, b.c0), dot(a.c1, b.c0) - dot(a.c0, b.c1))
    return fastAtan2(dot(v, v).squareRoot(), trace - 1)
}
