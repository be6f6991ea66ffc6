/// The plane keypoint rays are intersected with: RANSAC over the masked depth samples (the fish's body is
/// nearly flat; the depth at its outline is unreliable), with the first-order uncertainty of its parameters.
struct KeypointPlane {
    let fit: PlaneFit
    /// In-plane principal axes of the inliers and their variances (meters^2).
    let axes: (SIMD3<Double>, SIMD3<Double>)
    let variances: (Double, Double)

    init(_ frame: DepthFrame, mask: Mask, options: LengthOptions) throws(FathomError) {
        let points = try frame.maskedPoints(mask)
        guard points.count >= 3 else {
            throw FathomError(.noData, "the mask holds \(points.count) valid depth samples; a plane needs at least 3")
        }
        let plane = try FitPoints.with(points, dimensions: 3) { p throws(FathomError) in try PlaneFit.ransac(p, options.plane) }
        let inliers = points.filter { abs(plane.distance($0)) <= options.plane.threshold }
        let (values, vectors) = try FitPoints.with(inliers, dimensions: 3) { p throws(FathomError) in
            try Moments(p).principalAxes(dimensions: 3)
        }
        fit = plane
        axes = (vectors[2], vectors[1])
        variances = (values[2], values[1])
    }

    /// Where the ray from the camera centre along `ray` (optical frame, z = 1) meets the plane.
    func intersect(_ ray: SIMD3<Double>, _ name: String) throws(FathomError) -> SIMD3<Double> {
        let denominator = dot(fit.normal, ray)
        let t = dot(fit.normal, fit.point) / denominator
        guard abs(denominator) > 1e-9 * length(ray), t > 0, t.isFinite else {
            throw FathomError(.degenerate, "the \(name) keypoint's ray does not meet the mask's plane in front of the camera")
        }
        return t * ray
    }

    /// The variance of a length from the plane's offset and tilt errors, which both endpoints share:
    /// offset sigma^2 = rms^2 / n, tilt about each in-plane axis sigma^2 = rms^2 / (n * variance along it).
    func lengthVariance(e: SIMD3<Double>, head: KeypointEstimate, tail: KeypointEstimate) -> Double {
        let n = Double(fit.used), residual = fit.rms * fit.rms
        let gh = dot(e, head.dPlane), gt = dot(e, tail.dPlane)
        func lever(_ p: SIMD3<Double>, _ axis: SIMD3<Double>) -> Double { dot(p - fit.point, axis) }
        var variance = square(gh - gt) * residual / n
        for (axis, spread) in [(axes.0, variances.0), (axes.1, variances.1)] where spread > 0 {
            variance += square(gh * lever(head.point, axis) - gt * lever(tail.point, axis)) * residual / (n * spread)
        }
        return variance
    }
}

extension DepthFrame {
    /// The optical-frame points of the valid samples under `mask`, in double precision.
    func maskedPoints(_ mask: Mask) throws(FathomError) -> [SIMD3<Double>] {
        let selection = DepthSelection(x0: 0, y0: 0, x1: width, y1: height, step: 1, mask: mask)
        let count = validCount(selection)
        var flat = [Float](repeating: 0, count: 3 * count)
        _ = flat.withUnsafeMutableBufferPointer {
            backproject(selection, to: .optical, points: $0.baseAddress, pixels: nil, normals: nil, capacity: count)
        }
        return (0..<count).map { i -> SIMD3<Double> in
            SIMD3<Double>(SIMD3<Float>(flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]))
        }
    }
}
