import Glibc

/// A 3x3 float matrix stored by columns (acts on column vectors: m * v = c0*v.x + c1*v.y + c2*v.z).
@frozen
public struct Matrix3: Equatable, Sendable {
    public var c0: SIMD3<Float>, c1: SIMD3<Float>, c2: SIMD3<Float>

    @inlinable
    public init(_ c0: SIMD3<Float>, _ c1: SIMD3<Float>, _ c2: SIMD3<Float>) {
        self.c0 = c0; self.c1 = c1; self.c2 = c2
    }

    /// From 9 floats, column-major (element (r, c) at values[c*3 + r]); throws `.outOfRange` unless there are 9.
    @inlinable
    public init(columnMajor v: [Float]) throws(FathomError) {
        guard v.count == 9 else { throw FathomError(.outOfRange, "a 3x3 matrix needs 9 values, got \(v.count)") }
        self.init(SIMD3(v[0], v[1], v[2]), SIMD3(v[3], v[4], v[5]), SIMD3(v[6], v[7], v[8]))
    }

    public static let identity = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// The 9 floats, column-major.
    @inlinable public var columnMajor: [Float] { [c0.x, c0.y, c0.z, c1.x, c1.y, c1.z, c2.x, c2.y, c2.z] }

    @inlinable public var transposed: Matrix3 {
        Matrix3(SIMD3(c0.x, c1.x, c2.x), SIMD3(c0.y, c1.y, c2.y), SIMD3(c0.z, c1.z, c2.z))
    }

    @inlinable public var determinant: Float { dot(c0, cross(c1, c2)) }

    @inlinable public var isFinite: Bool { c0.isFinite && c1.isFinite && c2.isFinite }

    @inlinable
    public static func * (m: Matrix3, v: SIMD3<Float>) -> SIMD3<Float> { m.c0 * v.x + m.c1 * v.y + m.c2 * v.z }

    @inlinable
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(a * b.c0, a * b.c1, a * b.c2) }

    /// Rotation about world +y by `angle` radians (the capture app's R_y).
    @inlinable
    public static func rotationY(_ angle: Float) -> Matrix3 {
        let c = cos(angle), s = sin(angle)
        return Matrix3(SIMD3(c, 0, -s), SIMD3(0, 1, 0), SIMD3(s, 0, c))
    }

    /// How far the matrix is from a rotation: the largest |(M^T M - I)_ij|, or infinity for a
    /// reflection (determinant < 0). A singular matrix is at least 1 away.
    @inlinable @inline(__always)
    public var rotationDeviation: Float {
        let diagonal = SIMD3(dot(c0, c0), dot(c1, c1), dot(c2, c2)) - 1
        let offDiagonal = SIMD3(dot(c0, c1), dot(c0, c2), dot(c1, c2))
        let m = lanesMax(componentAbs(diagonal), componentAbs(offDiagonal))
        let worst = Swift.max(m.x, Swift.max(m.y, m.z))
        return determinant < 0 ? .infinity : worst
    }
}
