/// The capture app's edits. Each builds the new box through the validating initializer and assigns it
/// only then, so a throw (bad argument, or a result that overflows) leaves the box unchanged.
extension Box {
    /// Replaces self with the validated box of the given fields.
    private mutating func commit(center: SIMD3<Float>? = nil, scale: SIMD3<Float>? = nil, rotY: Float? = nil,
                                 floor: Float?? = nil) throws(FathomError) {
        self = try Box(center: center ?? self.center, scale: scale ?? self.scale, rotY: rotY ?? self.rotY,
                       floor: floor ?? self.floor)
    }

    /// center = `newCenter`.
    public mutating func setCenter(_ newCenter: SIMD3<Float>) throws(FathomError) {
        try commit(center: newCenter)
    }

    /// center += offset (world).
    public mutating func updateCenter(_ offset: SIMD3<Float>) throws(FathomError) {
        try Check.finite(offset, "offset")
        try commit(center: center + offset)
    }

    /// center += R_camera * offset: a translation given in the camera's frame.
    public mutating func updateCenter(_ offset: SIMD3<Float>, inFrameOf camera: Pose) throws(FathomError) {
        try Check.finite(offset, "offset")
        try updateCenter(camera.apply(direction: offset))
    }

    /// center = (x, floor + sy/2, z). Throws `.invalidState` without a floor.
    public mutating func setCenterOnFloor(x: Float, z: Float) throws(FathomError) {
        try Check.finite(x, "x")
        try Check.finite(z, "z")
        guard let floor else { throw FathomError(.invalidState, "the box has no floor: set one first") }
        try commit(center: SIMD3(x, floor + scale.y / 2, z))
    }

    /// scale = `newScale` (each > 0); with a floor, re-seated: center.y = floor + sy/2.
    public mutating func setScale(_ newScale: SIMD3<Float>) throws(FathomError) {
        try Check.positive(newScale, "scale")
        var newCenter = center
        if let floor { newCenter.y = floor + newScale.y / 2 }
        try commit(center: newCenter, scale: newScale)
    }

    /// scale *= multiplier per axis (each > 0); with a floor, re-seated.
    public mutating func updateScale(_ multiplier: SIMD3<Float>) throws(FathomError) {
        try Check.positive(multiplier, "multiplier")
        try Check.positive(scale * multiplier, "scale * multiplier")
        try setScale(scale * multiplier)
    }

    /// rot_y = radians.
    public mutating func setAngle(_ radians: Float) throws(FathomError) {
        try Check.finite(radians, "radians")
        try commit(rotY: radians)
    }

    /// rot_y += radians.
    public mutating func updateAngle(_ radians: Float) throws(FathomError) {
        try Check.finite(radians, "radians")
        try commit(rotY: rotY + radians)
    }

    /// Sets the floor height; the box does not move.
    public mutating func setFloor(_ height: Float) throws(FathomError) {
        try Check.finite(height, "height")
        try commit(floor: .some(height))
    }

    /// Removes the floor.
    public mutating func clearFloor() { floor = nil }

    /// The face on the offset's side moves out by |offset|; the opposite face stays.
    public mutating func extendSide(_ offset: SIMD3<Float>) throws(FathomError) {
        try Check.finite(offset, "offset")
        try applySide(scale: scale + componentAbs(offset), offset: offset)
    }

    /// The face opposite the offset's sign moves in by |offset|. Throws `.outOfRange` if a scale would
    /// become <= 0.
    public mutating func shrinkSide(_ offset: SIMD3<Float>) throws(FathomError) {
        try Check.finite(offset, "offset")
        try applySide(scale: scale - componentAbs(offset), offset: offset)
    }

    private mutating func applySide(scale newScale: SIMD3<Float>, offset: SIMD3<Float>) throws(FathomError) {
        for axis in 0..<3 where !(newScale[axis] > 0) {
            let name = ["x", "y", "z"][axis]
            throw FathomError(newScale[axis].isFinite ? .outOfRange : .notFinite,
                              "offset.\(name) = \(offset[axis]) would leave scale.\(name) = \(newScale[axis]); it must stay > 0")
        }
        try commit(center: center + rotation * (offset / 2), scale: newScale)
    }
}
