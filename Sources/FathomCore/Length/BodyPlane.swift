/// The plane of the object's body: RANSAC over the valid depth samples under the mask's body (`Mask.body`),
/// then least squares on the inliers, twice. The fish's body is nearly flat and the depth at its outline is
/// unreliable (flying pixels, the background), so keypoint rays and the mask's outline are placed on this
/// plane. Carries the first-order uncertainty of its parameters.
struct BodyPlane {
    let fit: PlaneFit
    /// In-plane principal axes of the inliers and their variances (meters^2).
    let axes: (SIMD3<Double>, SIMD3<Double>)
    let variances: (Double, Double)
    /// The valid depth samples under the body (optical frame), outliers included.
    let samples: [SIMD3<Double>]

    init(_ frame: DepthFrame, body: MaskBody, options: LengthOptions) throws(FathomError) {
        let points = frame.bodyPoints(body)
        guard points.count >= 3 else {
            throw FathomError(.noData, "the mask holds \(points.count) valid depth samples; a plane needs at least 3")
        }
        // The inlier distance: options.plane.threshold, or three times the depth noise at the samples' median depth
        // when that is larger (a fixed threshold far below the noise would keep a biased slice).
        let depths = points.map(\.z).sorted()
        let threshold = max(options.plane.threshold, 3 * options.noise(atDepth: depths[depths.count / 2]))
        var ransac = options.plane
        ransac.threshold = threshold
        let plane = try FitPoints.with(points, dimensions: 3) { p throws(FathomError) in try PlaneFit.ransac(p, ransac) }
        let inliers = points.filter { abs(plane.distance($0)) <= threshold }
        guard inliers.count >= 3 else { throw FathomError(.degenerate, "the plane of the masked depth keeps \(inliers.count) samples") }
        let (values, vectors) = try FitPoints.with(inliers, dimensions: 3) { p throws(FathomError) in
            try Moments(p).principalAxes(dimensions: 3)
        }
        fit = plane
        samples = points
        axes = (vectors[2], vectors[1])
        variances = (values[2], values[1])
    }

    /// Where the ray from the camera centre along `ray` (optical frame, z = 1) meets the plane, or nil when it
    /// does not meet it in front of the camera.
    func intersection(_ ray: SIMD3<Double>) -> SIMD3<Double>? {
        let denominator = dot(fit.normal, ray)
        let t = dot(fit.normal, fit.point) / denominator
        guard abs(denominator) > 1e-9 * length(ray), t > 0, t.isFinite else { return nil }
        return t * ray
    }

    /// `intersection`, throwing `.degenerate` naming the point when there is none.
    func intersect(_ ray: SIMD3<Double>, _ name: String) throws(FathomError) -> SIMD3<Double> {
        guard let point = intersection(ray) else {
            throw FathomError(.degenerate, "the \(name) ray does not meet the mask's plane in front of the camera")
        }
        return point
    }

    /// How a point on the plane moves per meter of shift of the plane along its normal: ray / (normal . ray).
    func shift(_ ray: SIMD3<Double>) -> SIMD3<Double> { ray / dot(fit.normal, ray) }

    /// The variance of a length along `e` between two points on the plane (with their `shift`s) from the
    /// plane's offset and tilt errors, which both points share: offset sigma^2 = rms^2 / n (unless the points'
    /// heights were measured where they are: `offset` false), tilt about each in-plane axis
    /// sigma^2 = rms^2 / (n * variance along it).
    func lengthVariance(e: SIMD3<Double>, head: (point: SIMD3<Double>, shift: SIMD3<Double>),
                        tail: (point: SIMD3<Double>, shift: SIMD3<Double>), offset: Bool = true) -> Double {
        let n = Double(fit.used), residual = fit.rms * fit.rms
        let gh = dot(e, head.shift), gt = dot(e, tail.shift)
        func lever(_ p: SIMD3<Double>, _ axis: SIMD3<Double>) -> Double { dot(p - fit.point, axis) }
        var variance = offset ? square(gh - gt) * residual / n : 0
        for (axis, spread) in [(axes.0, variances.0), (axes.1, variances.1)] where spread > 0 {
            variance += square(gh * lever(head.point, axis) - gt * lever(tail.point, axis)) * residual / (n * spread)
        }
        return variance
    }
}

extension DepthFrame {
    /// The optical-frame points of the valid samples whose mask cell lies in `body`, in double precision.
    func bodyPoints(_ body: MaskBody) -> [SIMD3<Double>] {
        let projector = Projector(self, .optical)
        let maskColumns = (0..<width).map { Mask.cell($0, grid: width, mask: body.width) }
        var points: [SIMD3<Double>] = []
        var row = [Float](repeating: 0, count: width)
        row.withUnsafeMutableBufferPointer { depths in
            for j in 0..<height {
                let runs = body.runs(inRow: Mask.cell(j, grid: height, mask: body.height))
                guard !runs.isEmpty else { continue }
                readRow(j, into: depths.baseAddress!)
                var run = runs.startIndex
                for i in 0..<width {
                    let x = maskColumns[i]
                    while run < runs.endIndex, runs[run].x1 <= x { run += 1 }
                    guard run < runs.endIndex else { break }
                    guard runs[run].x0 <= x, depths[i] > 0 else { continue }
                    points.append(SIMD3<Double>(projector.optical(i, j, depths[i])))
                }
            }
        }
        return points
    }
}
