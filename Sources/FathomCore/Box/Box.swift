import Glibc

/// The capture app's box: an oriented box rotated about world +y only, optionally standing on a floor.
///
/// Local axes: +x right, +y up, +z back; the front face is local -z. Every edit validates its result
/// before assigning, so a failed edit leaves the box unchanged.
@frozen
public struct Box: Equatable, Sendable {
    /// World meters.
    public internal(set) var center: SIMD3<Float>
    /// Full extents along local x, y, z, meters, each > 0.
    public internal(set) var scale: SIMD3<Float>
    /// Rotation about world +y, radians (not wrapped).
    public internal(set) var rotY: Float
    /// Height (world y) of the surface the box stands on; bottom corners are clamped to it.
    public internal(set) var floor: Float?

    /// A validated box. Throws `.notFinite` / `.outOfRange` naming the bad field.
    public init(center: SIMD3<Float>, scale: SIMD3<Float>, rotY: Float = 0, floor: Float? = nil) throws(FathomError) {
        try Check.finite(center, "center")
        try Check.positive(scale, "scale")
        try Check.finite(rotY, "rot_y")
        if let floor { try Check.finite(floor, "floor") }
        // A rotation mixes the extents into every axis: a corner's coordinate is at most |c| + (sx + sy + sz) / 2.
        guard (componentAbs(center) + SIMD3(repeating: 2 * scale.sum())).isFinite, (scale.x * scale.y * scale.z).isFinite else {
            throw FathomError(.notFinite, "center \(describe(center)) and scale \(describe(scale)) put corners or volume beyond the float range")
        }
        if let floor, !(floor + scale.y).isFinite {
            throw FathomError(.notFinite, "floor \(floor) and scale.y \(scale.y) put the box beyond the float range")
        }
        self.center = center
        self.scale = scale
        self.rotY = rotY
        self.floor = floor
    }

    /// The corner names, in corner-index order (also the manifest's keys).
    public static let cornerNames = [
        "top_left_front", "top_right_front", "bot_right_front", "bot_left_front",
        "top_left_back", "top_right_back", "bot_right_back", "bot_left_back",
    ]

    /// Local sign of each corner, in corner-index order.
    public static let cornerSigns: [SIMD3<Float>] = [
        SIMD3(-1, 1, -1), SIMD3(1, 1, -1), SIMD3(1, -1, -1), SIMD3(-1, -1, -1),
        SIMD3(-1, 1, 1), SIMD3(1, 1, 1), SIMD3(1, -1, 1), SIMD3(-1, -1, 1),
    ]

    /// The rotation R_y(rot_y).
    @inlinable public var rotation: Matrix3 { Matrix3.rotationY(rotY) }

    /// The 8 corners: center + R_y * (±sx/2, ±sy/2, ±sz/2), bottom corners raised to the floor.
    public var corners: [SIMD3<Float>] {
        let r = rotation
        return Box.cornerSigns.map { sign in
            var corner = center + r * (sign * scale / 2)
            if sign.y < 0, let floor { corner.y = Swift.max(corner.y, floor) }
            return corner
        }
    }

    /// Heights of the bottom and top faces after floor clamping.
    public var clampedBottomTop: (bottom: Float, top: Float) {
        let top = center.y + scale.y / 2
        var bottom = center.y - scale.y / 2
        if let floor { bottom = Swift.max(bottom, floor) }
        return (bottom, top)
    }

    /// The general oriented box of the corners: the bottom raised to the floor when the box reaches
    /// below it. Throws `.degenerate` when the floor leaves no height.
    public func orientedBox() throws(FathomError) -> OrientedBox {
        let (bottom, top) = clampedBottomTop
        guard top > bottom else {
            throw FathomError(.degenerate, "the box's top (\(top)) is at or below the floor (\(floor ?? bottom)): no height left")
        }
        // Far from the origin top - bottom rounds up to the spacing of floats there, past scale.y: where that puts
        // the volume past the float range (which the box's own check keeps it within), the height is scale.y.
        let exact = top - bottom
        let height = exact > scale.y && !(scale.x * exact * scale.z).isFinite ? scale.y : exact
        let c = SIMD3(center.x, bottom + exact / 2, center.z)  // (bottom + top) / 2 overflows near the float limit
        let q = Quaternion(0, sin(rotY / 2), 0, cos(rotY / 2))
        return try OrientedBox(center: c, scale: SIMD3(scale.x, height, scale.z), rotation: q)
    }
}
