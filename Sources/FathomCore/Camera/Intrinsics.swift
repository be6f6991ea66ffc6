/// Pinhole intrinsics in pixels of a width x height image (origin at the top-left corner, v down).
public struct Intrinsics: Equatable, Sendable {
    public var fx: Float, fy: Float, cx: Float, cy: Float
    public var width: Int, height: Int

    /// Validated: focal lengths > 0, principal point finite, size >= 1 pixel.
    public init(fx: Float, fy: Float, cx: Float, cy: Float, width: Int, height: Int) throws(FathomError) {
        try Check.positive(fx, "fx")
        try Check.positive(fy, "fy")
        try Check.finite(cx, "cx")
        try Check.finite(cy, "cy")
        guard width >= 1 else { throw FathomError(.outOfRange, "width must be >= 1, got \(width)") }
        guard height >= 1 else { throw FathomError(.outOfRange, "height must be >= 1, got \(height)") }
        self.fx = fx; self.fy = fy; self.cx = cx; self.cy = cy; self.width = width; self.height = height
    }

    /// The same sensor at another resolution: fx' = fx * w'/w, cx' = cx * w'/w, fy' = fy * h'/h, cy' = cy * h'/h.
    public func scaled(width newWidth: Int, height newHeight: Int) throws(FathomError) -> Intrinsics {
        guard newWidth >= 1 else { throw FathomError(.outOfRange, "width must be >= 1, got \(newWidth)") }
        guard newHeight >= 1 else { throw FathomError(.outOfRange, "height must be >= 1, got \(newHeight)") }
        let sx = Float(newWidth) / Float(width), sy = Float(newHeight) / Float(height)
        return try Intrinsics(fx: fx * sx, fy: fy * sy, cx: cx * sx, cy: cy * sy, width: newWidth, height: newHeight)
    }
}
