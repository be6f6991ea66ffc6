/// Lengths along a fitted 3D line: of every valid sample under a mask, or of the points of a traced centre line.
extension DepthFrame {
    /// The extent of the valid samples under `mask` along their total-least-squares line, between the trimmed
    /// extreme projections, widened by half a sample footprint at each end (the outermost sample centres lie on
    /// average that far inside the object's ends). Head: the end with the smaller projection.
    public func measure(mask: Mask, options: LengthOptions) throws(FathomError) -> ObjectLength {
        try options.validate()
        try require(options.frame)
        let points = try maskedPoints(mask)
        guard points.count >= 2 else {
            throw FathomError(.noData, "the mask holds \(points.count) valid depth samples; a length needs at least 2")
        }
        let line = try FitPoints.with(points, dimensions: 3) { p throws(FathomError) in try LineFit.fit3D(p) }
        let e = line.direction
        let projections = points.map { dot($0 - line.point, e) }.sorted()
        let trim = min(max(options.trimPoints, Int(options.trimFraction * Double(points.count))), (points.count - 2) / 2)
        let tStart = projections[trim], tEnd = projections[points.count - 1 - trim]
        let startFootprint = footprint(line.point + tStart * e, along: e)
        let endFootprint = footprint(line.point + tEnd * e, along: e)
        let head = line.point + (tStart - startFootprint / 2) * e
        let tail = line.point + (tEnd + endFootprint / 2) * e
        // Each end: uniform within a footprint (sigma = footprint / sqrt(12)) plus its depth noise along the line.
        var variance = 0.0
        for (end, footprint) in [(head, startFootprint), (tail, endFootprint)] {
            let ray = end / end.z
            variance += footprint * footprint / 12 + square(dot(e, ray) * options.noise(atDepth: end.z))
        }
        return ObjectLength(length: length(tail - head), sigma: variance.squareRoot(),
                            head: convert(head, to: options.frame), tail: convert(tail, to: options.frame),
                            headPixel: rgbPixel(head), tailPixel: rgbPixel(tail), rms: line.rms, samples: points.count)
    }

    /// The extent of a traced centre line: each RGB pixel gets its depth as a keypoint does (pixels without
    /// valid depth are skipped), a 3D line is fitted, and the length is the extent of the projections, untrimmed.
    public func measure(polyline pixels: [SIMD2<Float>], mask: Mask?, options: LengthOptions) throws(FathomError) -> ObjectLength {
        try options.validate()
        try require(options.frame)
        var plane: KeypointPlane?
        if options.keypointDepth == .plane {
            guard let mask else { throw FathomError(.invalidState, "plane keypoint depth needs a mask") }
            plane = try KeypointPlane(self, mask: mask, options: options)
        }
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
        let first = projected.indices.min { projected[$0] < projected[$1] }!
        let last = projected.indices.max { projected[$0] < projected[$1] }!
        var variance = 0.0
        for index in [first, last] {
            let k = estimates[index].estimate
            variance += square(dot(e, k.du) * options.pixelNoise) + square(dot(e, k.dv) * options.pixelNoise)
                + square(dot(e, k.dDepth) * k.depthSigma)
        }
        if let plane { variance += plane.lengthVariance(e: e, head: estimates[first].estimate, tail: estimates[last].estimate) }
        let head = line.point + projected[first] * e, tail = line.point + projected[last] * e
        return ObjectLength(length: projected[last] - projected[first], sigma: variance.squareRoot(),
                            head: convert(head, to: options.frame), tail: convert(tail, to: options.frame),
                            headPixel: estimates[first].pixel, tailPixel: estimates[last].pixel, rms: line.rms,
                            samples: plane?.fit.used ?? estimates.reduce(0) { $0 + $1.estimate.samples })
    }

    /// The length along unit `e` that one depth-grid pixel of image motion covers at optical point `p`:
    /// 1 / |d(pixel)/dt| for the point p + t e.
    func footprint(_ p: SIMD3<Double>, along e: SIMD3<Double>) -> Double {
        let z = p.z
        let du = Double(grid.fx) * (e.x * z - p.x * e.z) / (z * z)
        let dv = Double(grid.fy) * (e.y * z - p.y * e.z) / (z * z)
        let rate = (du * du + dv * dv).squareRoot()
        return rate > 0 ? 1 / rate : 0
    }

    /// The RGB pixel an optical-frame point projects to.
    func rgbPixel(_ p: SIMD3<Double>) -> SIMD2<Float> {
        SIMD2(Float(Double(rgb.fx) * p.x / p.z + Double(rgb.cx)), Float(Double(rgb.fy) * p.y / p.z + Double(rgb.cy)))
    }
}
