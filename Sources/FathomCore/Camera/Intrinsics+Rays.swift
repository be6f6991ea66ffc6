/// Rays from pixels and pixels from points. Pixel coordinates are continuous with (0, 0) at the top-left
/// corner of the top-left pixel: pixel (i, j)'s centre is (i + 0.5, j + 0.5).
extension Intrinsics {
    /// The world ray from the camera centre through pixel (u, v): camera-frame direction
    /// ((u - cx)/fx, -(v - cy)/fy, -1), normalized, rotated by the camera pose (ARKit axes).
    public func ray(camera: Pose, u: Float, v: Float) throws(FathomError) -> Ray {
        try Check.finite(u, "u")
        try Check.finite(v, "v")
        let direction = camera.apply(direction: cameraDirection(u: u, v: v))
        try Check.finite(direction, "the ray direction")
        return Ray(origin: camera.translation, direction: direction)
    }

    /// The unit camera-frame direction ((u - cx)/fx, -(v - cy)/fy, -1) / |.|, through Double: for a principal
    /// point far outside the image or a focal length near 0 the float components or their squares overflow.
    @inline(__always)
    func cameraDirection(u: Float, v: Float) -> SIMD3<Float> {
        unit(SIMD3((Double(u) - Double(cx)) / Double(fx), -(Double(v) - Double(cy)) / Double(fy), -1))
    }

    /// Pixel coordinates of a world point, with whether it is behind the camera (u, v are then 0) or
    /// outside the image.
    public func project(_ point: SIMD3<Float>, camera: Pose) throws(FathomError) -> (u: Float, v: Float, behind: Bool, outside: Bool) {
        try Check.finite(point, "point")
        // In Double: the camera-frame point R^T (point - t) of a far point, and the pixel of a point nearly level
        // with the camera, lie beyond the floats; such a point is outside the image (u, v clamped to the largest
        // floats), not behind it.
        let r = camera.rotation, relative = SIMD3<Double>(point) - SIMD3<Double>(camera.translation)
        let p = SIMD3(dot(SIMD3<Double>(r.c0), relative), dot(SIMD3<Double>(r.c1), relative), dot(SIMD3<Double>(r.c2), relative))
        guard p.z < 0 else { return (0, 0, true, false) }
        let depth = -p.z
        let wideU = Double(fx) * p.x / depth + Double(cx)
        let wideV = -Double(fy) * p.y / depth + Double(cy)
        guard !wideU.isNaN, !wideV.isNaN else { return (0, 0, true, false) }  // a point beyond the floats
        let largest = Double(Float.greatestFiniteMagnitude)
        let u = Float(min(max(wideU, -largest), largest)), v = Float(min(max(wideV, -largest), largest))
        let outside = !(u >= 0 && u <= Float(width) && v >= 0 && v <= Float(height))
        return (u, v, false, outside)
    }

    /// The number of rays in a grid with every `step`-th pixel (step >= 1): ceil(w/step) * ceil(h/step).
    /// In UInt64: two 32-bit sizes multiply past Int.max.
    public func gridCount(step: Int) -> UInt64 {
        let columns = UInt64((width - 1) / step + 1), rows = UInt64((height - 1) / step + 1)
        return columns.multipliedReportingOverflow(by: rows).partialValue  // < 2^64 for 32-bit sizes
    }

    /// Rays through the centres of every `step`-th pixel, row by row, as 6 packed floats each
    /// (origin, direction).
    public func gridRays(camera: Pose, step: Int, into out: UnsafeMutablePointer<Float>) throws(FathomError) {
        guard step >= 1 else { throw FathomError(.outOfRange, "step must be >= 1, got \(step)") }
        let rotation = camera.rotation
        var k = 0
        for row in stride(from: 0, to: height, by: step) {
            for column in stride(from: 0, to: width, by: step) {
                let u = Float(column) + 0.5, v = Float(row) + 0.5
                let direction = rotation * cameraDirection(u: u, v: v)
                let o = camera.translation
                (out[k], out[k + 1], out[k + 2], out[k + 3], out[k + 4], out[k + 5]) = (o.x, o.y, o.z, direction.x, direction.y, direction.z)
                k += 6
            }
        }
    }
}
