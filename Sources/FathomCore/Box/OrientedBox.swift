/// An oriented box with any 3D rotation: world = center + rotation * local, |local_i| <= scale_i / 2.
@frozen
public struct OrientedBox: Equatable, Sendable {
    public internal(set) var center: SIMD3<Float>
    /// Full extents along local x, y, z, meters, each > 0.
    public internal(set) var scale: SIMD3<Float>
    /// Local-to-world rotation (unit).
    public internal(set) var rotation: Quaternion

    /// A validated box: finite center, scale > 0, rotation unit within 1e-3 (normalized).
    public init(center: SIMD3<Float>, scale: SIMD3<Float>, rotation: Quaternion = .identity) throws(FathomError) {
        try Check.finite(center, "center")
        try Check.positive(scale, "scale")
        self.rotation = try Quaternion.rotation(rotation, "rotation")
        // A rotation mixes the extents into every axis: a corner's coordinate is at most |c| + (sx + sy + sz) / 2.
        guard (componentAbs(center) + SIMD3(repeating: 2 * scale.sum())).isFinite, (scale.x * scale.y * scale.z).isFinite else {
            throw FathomError(.notFinite, "center \(describe(center)) and scale \(describe(scale)) put corners or volume beyond the float range")
        }
        self.center = center
        self.scale = scale
    }

    /// Volume, cubic meters.
    public var volume: Float { scale.x * scale.y * scale.z }

    /// The 8 corners in the capture app's corner order.
    public var corners: [SIMD3<Float>] {
        let r = rotation.matrix
        return Box.cornerSigns.map { center + r * ($0 * scale / 2) }
    }

    /// The box's point in its own frame.
    @inlinable
    public func local(_ point: SIMD3<Float>) -> SIMD3<Float> { rotation.matrix.transposed * (point - center) }
}
