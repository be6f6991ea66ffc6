/// The straight length of the object under a mask: the extent of its body along its axis, on its plane.
extension DepthFrame {
    /// The mask's body (`Mask.body`: stray pixels and blobs apart from it are left out) is laid on the body
    /// plane (`BodyPlane`: the depth samples under it, flying pixels and the background rejected by their
    /// residuals), the axis is the principal direction of its area there, and the length is the extent of its
    /// outline along the axis (`PlanarBody.end`: each end a gap beyond the last inside pixel centre, at the
    /// body's height there). Head: the end toward the image's left (smaller optical x; the top when vertical).
    /// The endpoints are reported on the axis line through the body's centroid.
    public func measure(mask: Mask, options: LengthOptions) throws(FathomError) -> ObjectLength {
        let planar = try planarBody(mask, options)
        let e = planar.axis
        let trim = options.trimCount(planar.outline.count)
        let tail = planar.end(along: e, among: planar.outline, trim: trim, options: options)
        let head = planar.end(along: -e, among: planar.outline, trim: trim, options: options)
        let tHead = planar.along(head.point), tTail = planar.along(tail.point)
        guard tTail > tHead else { throw FathomError(.degenerate, "the mask's body has no extent along its axis") }
        let variance = head.variance + tail.variance
            + planar.plane.lengthVariance(e: e, head: (head.point, head.shift), tail: (tail.point, tail.shift), offset: false)
        let headPoint = planar.centre + tHead * e, tailPoint = planar.centre + tTail * e
        return try ObjectLength(length: tTail - tHead, sigma: variance.squareRoot(),
                            head: convert(headPoint, to: options.frame), tail: convert(tailPoint, to: options.frame),
                            headPixel: rgbPixel(headPoint), tailPixel: rgbPixel(tailPoint), rms: planar.plane.fit.rms,
                            samples: planar.plane.fit.used).checked()
    }

    /// The mask's body laid on its plane, after validating the options: the mask lengths' first step.
    func planarBody(_ mask: Mask, _ options: LengthOptions) throws(FathomError) -> PlanarBody {
        try options.validate()
        try require(options.frame)
        let body = try mask.body(gap: options.bodyGap)
        return try PlanarBody(self, body: body, plane: BodyPlane(self, body: body, options: options))
    }

    /// The RGB pixel an optical-frame point projects to.
    func rgbPixel(_ p: SIMD3<Double>) -> SIMD2<Float> {
        SIMD2(Float(Double(rgb.fx) * p.x / p.z + Double(rgb.cx)), Float(Double(rgb.fy) * p.y / p.z + Double(rgb.cy)))
    }
}

extension LengthOptions {
    /// Outline points dropped at each end: max(trimPoints, trimFraction * count), leaving at least one.
    func trimCount(_ count: Int) -> Int {
        min(max(trimPoints, Int(trimFraction * Double(count))), (count - 1) / 2)
    }
}
