import Glibc

/// A quaternion stored (x, y, z, w): vector part first, real part last (the simd_quatf order).
/// Rotations are unit quaternions; q and -q are the same rotation.
@frozen
public struct Quaternion: Equatable, Sendable {
    public var vector: SIMD4<Float>

    @inlinable public init(_ x: Float, _ y: Float, _ z: Float, _ w: Float) { vector = SIMD4(x, y, z, w) }
    @inlinable public init(vector: SIMD4<Float>) { self.vector = vector }

    public static let identity = Quaternion(0, 0, 0, 1)

    @inlinable public var imag: SIMD3<Float> { SIMD3(vector.x, vector.y, vector.z) }
    @inlinable public var real: Float { vector.w }
    /// |q|, scaled by the largest component first so it cannot overflow or underflow.
    public var length: Float {
        let largest = pointwiseMax(vector, -vector).max()
        guard largest > 0, largest.isFinite else { return largest }
        let v = vector / largest
        return (v * v).sum().squareRoot() * largest
    }
    @inlinable public var isFinite: Bool { vector.x.isFinite && vector.y.isFinite && vector.z.isFinite && vector.w.isFinite }

    /// The rotation by `angle` radians about `axis` (right-hand rule); `axis` must not be zero.
    public init(axis: SIMD3<Float>, angle: Float) throws(FathomError) {
        try Check.finite(axis, "axis")
        try Check.finite(angle, "angle")
        let largest = componentAbs(axis).max()
        guard largest > 0 else { throw FathomError(.degenerate, "axis must not be zero") }
        let unit = axis / largest / FathomCore.length(axis / largest)
        let s = sin(angle / 2)
        self.init(unit.x * s, unit.y * s, unit.z * s, cos(angle / 2))
    }

    /// q / |q|; throws `.degenerate` for a zero (or denormal-small) quaternion.
    public func normalized() throws(FathomError) -> Quaternion {
        let largest = pointwiseMax(vector, -vector).max()
        guard largest > 0 else { throw FathomError(.degenerate, "quaternion has zero length") }
        let v = vector / largest
        return Quaternion(vector: v / (v * v).sum().squareRoot())
    }

    /// Hamilton product: the rotation `b` followed by `a`.
    @inlinable
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        let av = a.imag, bv = b.imag
        let v = a.real * bv + b.real * av + cross(av, bv)
        return Quaternion(v.x, v.y, v.z, a.real * b.real - dot(av, bv))
    }

    /// The inverse of a unit quaternion.
    @inlinable public var conjugate: Quaternion { Quaternion(-vector.x, -vector.y, -vector.z, vector.w) }

    /// `v` rotated by this unit quaternion.
    @inlinable
    public func rotate(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let u = imag
        let t = 2 * cross(u, v)
        return v + real * t + cross(u, t)
    }

    /// The rotation matrix of this unit quaternion.
    public var matrix: Matrix3 {
        let x = vector.x, y = vector.y, z = vector.z, w = vector.w
        return Matrix3(
            SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))
    }

    /// The unit quaternion of a rotation matrix (Shepperd's method: divide by the largest of the four
    /// candidate denominators, so no branch loses precision). The result has w >= 0.
    public init(rotation m: Matrix3) {
        let (m00, m11, m22) = (m.c0.x, m.c1.y, m.c2.z)
        let trace = m00 + m11 + m22
        var q: SIMD4<Float>
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = SIMD4((m.c1.z - m.c2.y) / s, (m.c2.x - m.c0.z) / s, (m.c0.y - m.c1.x) / s, s / 4)
        } else if m00 > m11 && m00 > m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            q = SIMD4(s / 4, (m.c1.x + m.c0.y) / s, (m.c2.x + m.c0.z) / s, (m.c1.z - m.c2.y) / s)
        } else if m11 > m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            q = SIMD4((m.c1.x + m.c0.y) / s, s / 4, (m.c2.y + m.c1.z) / s, (m.c2.x - m.c0.z) / s)
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            q = SIMD4((m.c2.x + m.c0.z) / s, (m.c2.y + m.c1.z) / s, s / 4, (m.c0.y - m.c1.x) / s)
        }
        if q.w < 0 { q = -q }
        let n = (q * q).sum().squareRoot()
        vector = q / n
    }

    /// The unit quaternion of a 3x3 matrix that must be a rotation within `tolerance`.
    public init(checkedRotation m: Matrix3, tolerance: Float = rigidTolerance) throws(FathomError) {
        guard m.isFinite else { throw FathomError(.notFinite, "matrix must be finite") }
        let deviation = m.rotationDeviation
        guard deviation <= tolerance else {
            throw FathomError(.notRigid, deviation.isInfinite
                ? "matrix is a reflection (determinant < 0), not a rotation"
                : "matrix is not a rotation: |R^T R - I| = \(deviation) > \(tolerance)")
        }
        self.init(rotation: m)
    }

    /// The angle of the rotation taking `self` to `other`, radians in [0, pi]. Both must be unit.
    /// Uses 2 atan2(|v|, |w|) of the relative rotation: acos of a dot product near 1 would lose
    /// about 1e-3 rad to float rounding for nearly equal rotations.
    public func angle(to other: Quaternion) -> Float {
        let relative = conjugate * other
        return 2 * atan2(FathomCore.length(relative.imag), abs(relative.real))
    }

    /// Spherical interpolation along the shorter arc from `self` (t = 0) to `other` (t = 1); unit inputs.
    public func slerp(to other: Quaternion, t: Float) -> Quaternion {
        var b = other.vector
        var d = (vector * b).sum()
        if d < 0 { b = -b; d = -d }
        let result: SIMD4<Float>
        if d > 0.9995 {
            // Nearly the same rotation: sin(theta) ~ 0, interpolate linearly and renormalize.
            result = vector + t * (b - vector)
        } else {
            let theta = acos(d)
            let s = sin(theta)
            result = (sin((1 - t) * theta) / s) * vector + (sin(t * theta) / s) * b
        }
        // Normalized in Double: for t far outside [0, 1] the float sum of squares overflows.
        let wide = SIMD4<Double>(result)
        return Quaternion(vector: SIMD4<Float>(wide / (wide * wide).sum().squareRoot()))
    }

    /// Validates a quaternion used as a rotation (finite, |q| within 1e-3 of 1) and normalizes it.
    public static func rotation(_ q: Quaternion, _ name: String) throws(FathomError) -> Quaternion {
        for (c, v) in zip(["x", "y", "z", "w"], [q.vector.x, q.vector.y, q.vector.z, q.vector.w]) {
            try Check.finite(v, "\(name).\(c)")
        }
        let n = q.length
        guard abs(n - 1) <= 1e-3 else {
            throw FathomError(.outOfRange, "\(name) must be a unit quaternion, |q| = \(n)")
        }
        return Quaternion(vector: q.vector / n)
    }
}

/// Tolerance for "is this a rigid transform": the largest |(R^T R - I)_ij| and bottom-row deviation.
public let rigidTolerance: Float = 1e-3
