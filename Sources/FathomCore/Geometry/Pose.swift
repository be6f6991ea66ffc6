import Glibc

/// A rigid transform: rotation then translation. As a pose it maps its local frame into its parent
/// (a camera pose is camera-to-world: world = T * camera).
@frozen
public struct Pose: Equatable, Sendable {
    public var rotation: Matrix3
    public var translation: SIMD3<Float>

    @inlinable
    public init(rotation: Matrix3, translation: SIMD3<Float>) {
        self.rotation = rotation
        self.translation = translation
    }

    public static let identity = Pose(rotation: Matrix3.identity, translation: SIMD3<Float>.zero)

    /// The pose with rotation `q` (validated unit, then normalized) and translation `t`.
    public init(rotation q: Quaternion, translation t: SIMD3<Float>) throws(FathomError) {
        let unit = try Quaternion.rotation(q, "rotation")
        try Check.finite(t, "translation")
        self.init(rotation: unit.matrix, translation: t)
    }

    /// A pose from 16 floats, column-major (element (r, c) at m[c*4 + r]); must be rigid within `tolerance`.
    public init(columnMajor m: [Float], tolerance: Float = rigidTolerance, name: String = "pose") throws(FathomError) {
        guard m.count == 16 else { throw FathomError(.outOfRange, "\(name) needs 16 values, got \(m.count)") }
        self = try m.withUnsafeBufferPointer { (buffer) throws(FathomError) -> Pose in
            try Pose(columnMajor: buffer.baseAddress!, tolerance: tolerance, name: name)
        }
    }

    /// A pose from 16 floats at `m`, column-major; must be rigid within `tolerance`. `name` is built only for an error.
    public init(columnMajor m: UnsafePointer<Float>, tolerance: Float = rigidTolerance,
                name: @autoclosure () -> String = "pose") throws(FathomError) {
        // The vector test first; the checks below, one by one, only find a refused pose's error.
        if let rigid = Pose(ifRigid: m, tolerance: tolerance) { self = rigid; return }
        for i in 0..<16 where !m[i].isFinite {
            throw FathomError(.notFinite, "\(name())[\(i)] (row \(i % 4), column \(i / 4)) must be finite, got \(m[i])")
        }
        let bottom = Swift.max(abs(m[3]), abs(m[7]), abs(m[11]), abs(m[15] - 1))
        guard bottom <= tolerance else {
            throw FathomError(.notRigid, "\(name()) is not rigid: bottom row is (\(m[3]), \(m[7]), \(m[11]), \(m[15])), not (0, 0, 0, 1)")
        }
        let r = Matrix3(SIMD3(m[0], m[1], m[2]), SIMD3(m[4], m[5], m[6]), SIMD3(m[8], m[9], m[10]))
        let deviation = r.rotationDeviation
        guard deviation <= tolerance else {
            throw FathomError(.notRigid, deviation.isInfinite
                ? "\(name()) is not rigid: its rotation part is a reflection (determinant < 0)"
                : "\(name()) is not rigid: |R^T R - I| = \(deviation) > tolerance \(tolerance)")
        }
        self.init(rotation: r, translation: SIMD3(m[12], m[13], m[14]))
    }

    /// The pose at `m` (16 floats, column-major) if `init(columnMajor:tolerance:name:)` accepts it, else nil: the
    /// same test (every value finite, bottom row and rotation deviation within `tolerance`) without the message.
    @inlinable @inline(__always)
    public init?(ifRigid m: UnsafePointer<Float>, tolerance: Float) {
        let raw = UnsafeRawPointer(m)
        let c0 = raw.loadUnaligned(as: SIMD4<Float>.self), c1 = raw.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
        let c2 = raw.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self), c3 = raw.loadUnaligned(fromByteOffset: 48, as: SIMD4<Float>.self)
        // x * 0 is (+-)0 for a finite x and NaN for an infinite or NaN one, and NaN survives the sum.
        let zero = SIMD4<Float>.zero
        let zeros: SIMD4<Float> = (c0 * zero + c1 * zero) + (c2 * zero + c3 * zero)
        guard all(zeros .== zero) else { return nil }
        let bottom = Swift.max(abs(c0.w), abs(c1.w), abs(c2.w), abs(c3.w - 1))
        let r = Matrix3(SIMD3(c0.x, c0.y, c0.z), SIMD3(c1.x, c1.y, c1.z), SIMD3(c2.x, c2.y, c2.z))
        guard bottom <= tolerance, r.rotationDeviation <= tolerance else { return nil }
        self.init(rotation: r, translation: SIMD3(c3.x, c3.y, c3.z))
    }

    /// The pose at `m` (16 floats, column-major) without any check: one that passed `init(ifRigid:tolerance:)` before.
    @inlinable @inline(__always)
    init(unchecked m: UnsafePointer<Float>) {
        self.init(rotation: Matrix3(SIMD3(m[0], m[1], m[2]), SIMD3(m[4], m[5], m[6]), SIMD3(m[8], m[9], m[10])),
                  translation: SIMD3(m[12], m[13], m[14]))
    }

    /// A pose from 16 floats in row-major order (element (r, c) at rows[r*4 + c]).
    public init(rowMajor rows: [Float], tolerance: Float = rigidTolerance, name: String = "rows") throws(FathomError) {
        guard rows.count == 16 else { throw FathomError(.outOfRange, "\(name) needs 16 values, got \(rows.count)") }
        let columns = (0..<16).map { rows[($0 % 4) * 4 + $0 / 4] }
        try self.init(columnMajor: columns, tolerance: tolerance, name: name)
    }

    /// The 16 floats, column-major, bottom row (0, 0, 0, 1).
    public var columnMajor: [Float] {
        let r = rotation, t = translation
        return [r.c0.x, r.c0.y, r.c0.z, 0, r.c1.x, r.c1.y, r.c1.z, 0, r.c2.x, r.c2.y, r.c2.z, 0, t.x, t.y, t.z, 1]
    }

    /// The 16 floats, row-major.
    public var rowMajor: [Float] {
        let m = columnMajor
        return (0..<16).map { m[($0 % 4) * 4 + $0 / 4] }
    }

    /// The rotation as a unit quaternion with w >= 0.
    public var quaternion: Quaternion { Quaternion(rotation: rotation) }

    /// `a * b`: the pose `b` followed by `a`.
    @inlinable
    public static func * (a: Pose, b: Pose) -> Pose {
        Pose(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
    }

    /// The inverse transform (R^T, -R^T t).
    @inlinable
    public var inverse: Pose {
        let rt = rotation.transposed
        return Pose(rotation: rt, translation: -(rt * translation))
    }

    /// A point of the local frame in the parent frame.
    @inlinable public func apply(point p: SIMD3<Float>) -> SIMD3<Float> { rotation * p + translation }

    /// A direction of the local frame in the parent frame.
    @inlinable public func apply(direction d: SIMD3<Float>) -> SIMD3<Float> { rotation * d }

    /// Heading about world +y, radians in (-pi, pi]: the angle a with R_y(a) * (0,0,1) along the horizontal
    /// projection of local +z; from local +x when local +z is vertical.
    public var yaw: Float {
        let z = rotation.c2, x = rotation.c0
        let angle = (z.x * z.x + z.z * z.z) > 1e-12 ? atan2(z.x, z.z) : atan2(-x.z, x.x)
        // atan2 gives -pi for a signed-zero argument (and Float(pi) rounds above pi): fold into (-pi, pi].
        return angle <= -Float.pi ? Float.pi : angle
    }

    /// Distance between the origins (meters) and angle of the rotation between the poses (radians, [0, pi]).
    public func distance(to other: Pose) -> (meters: Float, radians: Float) {
        (FathomCore.length(translation - other.translation), quaternion.angle(to: other.quaternion))
    }

    /// The largest deviation from rigid of a 4x4 column-major matrix (see `rigidTolerance`).
    public static func rigidDeviation(columnMajor m: [Float]) -> Float {
        guard m.count == 16, m.allSatisfy({ $0.isFinite }) else { return .infinity }
        let bottom = Swift.max(abs(m[3]), abs(m[7]), abs(m[11]), abs(m[15] - 1))
        let r = Matrix3(SIMD3(m[0], m[1], m[2]), SIMD3(m[4], m[5], m[6]), SIMD3(m[8], m[9], m[10]))
        return Swift.max(bottom, r.rotationDeviation)
    }

    /// The rigid pose nearest a 4x4 column-major matrix: its 3x3 part replaced by the closest rotation
    /// (polar decomposition U V^T from LAPACK's SVD, with the sign fixed so det = +1), bottom row reset,
    /// translation kept. Throws `.notRigid` if the matrix deviates by more than `maxDeviation`.
    public static func orthonormalized(columnMajor m: [Float], maxDeviation: Float) throws(FathomError) -> Pose {
        try Check.positive(maxDeviation, "max_deviation")
        guard m.count == 16 else { throw FathomError(.outOfRange, "pose needs 16 values") }
        for (i, v) in m.enumerated() where !v.isFinite {
            throw FathomError(.notFinite, "pose[\(i)] must be finite, got \(v)")
        }
        let deviation = rigidDeviation(columnMajor: m)
        guard deviation <= maxDeviation else {
            throw FathomError(.notRigid, deviation.isInfinite
                ? "pose is a reflection (determinant < 0), too far from rigid to repair"
                : "pose deviates from rigid by \(deviation) > max_deviation \(maxDeviation)")
        }
        let a: [Double] = [0, 1, 2, 4, 5, 6, 8, 9, 10].map { Double(m[$0]) }
        let r = try LinearAlgebra.nearestRotation(a)
        let rotation = Matrix3(SIMD3(Float(r[0]), Float(r[1]), Float(r[2])),
                               SIMD3(Float(r[3]), Float(r[4]), Float(r[5])),
                               SIMD3(Float(r[6]), Float(r[7]), Float(r[8])))
        return Pose(rotation: rotation, translation: SIMD3(m[12], m[13], m[14]))
    }
}
