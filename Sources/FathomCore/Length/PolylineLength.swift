/// The straight length of a traced centre line.
extension DepthFrame {
    /// The extent of a traced centre line: each RGB pixel gets its depth as a keypoint does (pixels without
    /// valid depth are skipped), a 3D line is fitted, and the length is the extent of the projections, untrimmed.
    public func measure(polyline pixels: [SIMD2<Float>], mask: Mask?, options: LengthOptions) throws(FathomError) -> ObjectLength {
        try options.validate()
        try require(options.frame)
        let plane = try keypointPlane(mask, options)
        var estimates: [(pixel: SIMD2<Float>, estimate: KeypointEstimate)] = []
        for (i, pixel) in pixels.enumerated() {
            do throws(FathomError) {
                estimates.append((pixel, try keypoint(pixel, "pixels[\(i)]", plane, options)))
            } catch where error.kind == .noData {
                continue
            }
        }
        guard estimates.count >= 2 else {
            throw FathomError(.noData, "\(estimates.count) of the \(pixels.count) traced pixels have valid depth; a length needs at least 2")
        }
        let line = try FitPoints.with(estimates.map(\.estimate.point), dimensions: 3) { p throws(FathomError) in try LineFit.fit3D(p) }
        let e = line.direction
        let projected = estimates.map { dot($0.estimate.point - line.point, e) }
        var first = 0, last = 0
        for index in projected.indices {
            if projected[index] < projected[first] { first = index }
            if projected[index] > projected[last] { last = index }
        }
        var variance = 0.0
        for index in [first, last] { variance += estimates[index].estimate.variance(along: e, options) }
        if let plane {
            variance += plane.lengthVariance(e: e, head: (estimates[first].estimate.point, estimates[first].estimate.dPlane),
                                             tail: (estimates[last].estimate.point, estimates[last].estimate.dPlane))
        }
        let head = line.point + projected[first] * e, tail = line.point + projected[last] * e
        return try ObjectLength(length: projected[last] - projected[first], sigma: variance.squareRoot(),
                            head: convert(head, to: options.frame), tail: convert(tail, to: options.frame),
                            headPixel: estimates[first].pixel, tailPixel: estimates[last].pixel, rms: line.rms,
                            samples: plane?.fit.used ?? estimates.reduce(0) { $0 + $1.estimate.samples }).checked()
    }
}
