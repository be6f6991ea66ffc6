/// A ray: the points origin + t * direction for t in a range [tmin, tmax].
@frozen
public struct Ray: Equatable, Sendable {
    public var origin: SIMD3<Float>
    public var direction: SIMD3<Float>

    @inlinable
    public init(origin: SIMD3<Float>, direction: SIMD3<Float>) {
        self.origin = origin
        self.direction = direction
    }

    /// The shortest direction accepted: below it, t * direction underflows float.
    public static let minimumDirectionLength: Float = 1e-18

    /// The longest direction component accepted: above it, the reciprocals the mesh's box tests use lose precision
    /// (they are subnormal beyond 2^126), and t of any surface at a float distance underflows.
    public static let maximumDirectionLength: Float = 1e18

    /// Throws `.notFinite` for a non-finite origin or direction, `.degenerate` for a zero direction or one whose
    /// largest component is below `minimumDirectionLength`, and `.outOfRange` for a component above
    /// `maximumDirectionLength`.
    public func validate(_ name: String = "ray") throws(FathomError) {
        try Check.finite(origin, "\(name).origin")
        try Check.finite(direction, "\(name).direction")
        guard direction != .zero else { throw FathomError(.degenerate, "\(name).direction must not be zero") }
        let longest = componentAbs(direction).max()
        guard longest >= Ray.minimumDirectionLength else {
            throw FathomError(.degenerate, "\(name).direction \(describe(direction)) is too short (components below 1e-18)")
        }
        guard longest <= Ray.maximumDirectionLength else {
            throw FathomError(.outOfRange, "\(name).direction \(describe(direction)) is too long (a component above 1e18)")
        }
    }

    @inlinable
    public func at(_ t: Float) -> SIMD3<Float> { origin + t * direction }
}

/// Validates a cast's range: finite tmin >= 0, tmax >= tmin (tmax may be +infinity).
public func validateRange(tmin: Float, tmax: Float) throws(FathomError) {
    guard !tmin.isNaN, !tmax.isNaN else { throw FathomError(.notFinite, "tmin and tmax must not be NaN") }
    guard tmin.isFinite else { throw FathomError(.notFinite, "tmin must be finite, got \(tmin)") }
    guard tmin >= 0 else { throw FathomError(.outOfRange, "tmin must be >= 0, got \(tmin)") }
    guard tmax >= tmin else { throw FathomError(.outOfRange, "tmin (\(tmin)) must be <= tmax (\(tmax))") }
}

/// Where a ray meets a surface.
@frozen
public struct Hit: Equatable, Sendable {
    /// Distance along the ray in units of |direction|.
    public var t: Float
    public var point: SIMD3<Float>
    /// Unit geometric normal.
    public var normal: SIMD3<Float>
    /// Barycentrics of a triangle hit: point = (1-u-v) v0 + u v1 + v v2.
    public var u: Float
    public var v: Float
    /// Triangle index, box face index, or 0.
    public var primitive: UInt32
    public var classification: UInt8
    /// True when the ray meets the side the normal points to.
    public var frontFace: Bool

    @inlinable
    public init(t: Float, point: SIMD3<Float>, normal: SIMD3<Float>, u: Float = 0, v: Float = 0,
                primitive: UInt32 = 0, classification: UInt8 = 0, frontFace: Bool) {
        self.t = t; self.point = point; self.normal = normal; self.u = u; self.v = v
        self.primitive = primitive; self.classification = classification; self.frontFace = frontFace
    }
}

/// A caller-owned array of rays stored as 6 packed floats each (origin xyz, direction xyz), the layout
/// of the C ABI's fathom_ray. Read-only, no copy.
@frozen
public struct RayBuffer: @unchecked Sendable {
    public let base: UnsafePointer<Float>
    public let count: Int

    @inlinable
    public init(base: UnsafePointer<Float>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Ray i (no bounds check: i must be in 0..<count).
    @inlinable
    public subscript(i: Int) -> Ray {
        let p = base + 6 &* i
        return Ray(origin: SIMD3(p[0], p[1], p[2]), direction: SIMD3(p[3], p[4], p[5]))
    }
}
