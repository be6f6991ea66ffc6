/// A measured length with its 1-sigma uncertainty (see README, "Uncertainty").
public struct ObjectLength: Equatable, Sendable {
    /// Meters.
    public var length: Double
    /// One standard deviation, meters.
    public var sigma: Double
    /// The endpoints in the options' frame: the head keypoint (or the line's start) and the tail.
    public var head: SIMD3<Double>, tail: SIMD3<Double>
    /// The endpoints' RGB pixel coordinates.
    public var headPixel: SIMD2<Float>, tailPixel: SIMD2<Float>
    /// The fit's RMS residual (plane or line), meters; 0 for nearest or median keypoints.
    public var rms: Double
    /// Depth samples the result rests on.
    public var samples: Int
}

extension ObjectLength {
    /// The result, or an error when its error bar is not a number: noise settings whose terms overflow (a
    /// depth_noise_growth of 1e20) or multiply 0 by infinity.
    func checked() throws(FathomError) -> ObjectLength {
        guard sigma.isFinite, length.isFinite else {
            throw FathomError(.outOfRange, "the noise settings give no finite error bar (length \(length), sigma \(sigma))")
        }
        return self
    }
}

/// One keypoint's 3D point (optical frame) and the derivatives the uncertainty needs.
struct KeypointEstimate {
    var point: SIMD3<Double>
    /// dPoint/du and dPoint/dv (per RGB pixel).
    var du: SIMD3<Double>, dv: SIMD3<Double>
    /// dPoint per meter of independent depth error, and that error's sigma.
    var dDepth: SIMD3<Double>, depthSigma: Double
    /// dPoint per meter of shift of the fitted plane along its normal (plane keypoints only).
    var dPlane: SIMD3<Double>
    var samples: Int

    /// The variance of the point's position along unit `e` from its pixel and depth noise.
    func variance(along e: SIMD3<Double>, _ options: LengthOptions) -> Double {
        square(dot(e, du) * options.pixelNoise) + square(dot(e, dv) * options.pixelNoise) + square(dot(e, dDepth) * depthSigma)
    }
}

extension DepthFrame {
    /// The length between two RGB keypoints, each given its depth by `options.keypointDepth`
    /// (`.plane` needs `mask`). Throws `.outOfRange` for a keypoint outside the image, `.noData` without depth there.
    public func measure(head: SIMD2<Float>, tail: SIMD2<Float>, mask: Mask?, options: LengthOptions) throws(FathomError) -> ObjectLength {
        try options.validate()
        try require(options.frame)
        guard head != tail else { throw FathomError(.degenerate, "head and tail are the same pixel (\(head.x), \(head.y))") }
        let plane = try keypointPlane(mask, options)
        let h = try keypoint(head, "head", plane, options), t = try keypoint(tail, "tail", plane, options)
        let offset = h.point - t.point
        let distance = length(offset)
        guard distance > 0 else {  // distinct pixels can round to the same point: no direction, no uncertainty
            throw FathomError(.degenerate, "head (\(head.x), \(head.y)) and tail (\(tail.x), \(tail.y)) back-project to the same point")
        }
        let e = offset / distance
        // First-order propagation: L = |h - t|, dL = e . dh - e . dt.
        var variance = h.variance(along: e, options) + t.variance(along: e, options)
        if let plane { variance += plane.lengthVariance(e: e, head: (h.point, h.dPlane), tail: (t.point, t.dPlane)) }
        return try ObjectLength(length: distance, sigma: variance.squareRoot(),
                            head: convert(h.point, to: options.frame), tail: convert(t.point, to: options.frame),
                            headPixel: head, tailPixel: tail, rms: plane?.fit.rms ?? 0,
                            samples: plane?.fit.used ?? (h.samples + t.samples)).checked()
    }

    /// The body plane keypoints meet when they take their depth from a plane (which needs `mask`), else nil.
    func keypointPlane(_ mask: Mask?, _ options: LengthOptions) throws(FathomError) -> BodyPlane? {
        guard options.keypointDepth == .plane else { return nil }
        guard let mask else { throw FathomError(.invalidState, "plane keypoint depth needs a mask") }
        return try BodyPlane(self, body: mask.body(gap: options.bodyGap), options: options)
    }

    /// The optical-frame point of an RGB keypoint and its sensitivities.
    func keypoint(_ pixel: SIMD2<Float>, _ name: String, _ plane: BodyPlane?, _ options: LengthOptions) throws(FathomError) -> KeypointEstimate {
        _ = try gridCoordinates(u: pixel.x, v: pixel.y, name)
        let ray = SIMD3(Double((pixel.x - rgb.cx) / rgb.fx), Double((pixel.y - rgb.cy) / rgb.fy), 1)
        let fx = Double(rgb.fx), fy = Double(rgb.fy)
        if let plane {
            let point = try plane.intersect(ray, "\(name) keypoint's")
            // The intersection moves with the pixel: differentiate t(u) * ray(u) by central differences.
            let step = 0.5
            func at(_ du: Double, _ dv: Double) -> SIMD3<Double> {
                plane.intersection(ray + SIMD3(du / fx, dv / fy, 0)) ?? point
            }
            return KeypointEstimate(point: point, du: (at(step, 0) - at(-step, 0)) / (2 * step),
                                    dv: (at(0, step) - at(0, -step)) / (2 * step),
                                    dDepth: .zero, depthSigma: 0, dPlane: plane.shift(ray), samples: 0)
        }
        let reading = try keypointDepth(pixel, name, options)
        let d = reading.depth
        // The point follows the surface as the pixel moves: d(u, v) changes at the window's gradient.
        let perU = Double(width) / Double(rgb.width), perV = Double(height) / Double(rgb.height)
        return KeypointEstimate(point: ray * d, du: SIMD3(d / fx, 0, 0) + ray * (reading.gradient.x * perU),
                                dv: SIMD3(0, d / fy, 0) + ray * (reading.gradient.y * perV),
                                dDepth: ray, depthSigma: reading.sigma, dPlane: .zero, samples: reading.samples)
    }

    /// The depth under a keypoint from the valid samples of a window centred on the sample under it (5 x 5 by
    /// default; 3 x 3 for `.nearest`, whose window only gives the gradient), and the window's depth gradient
    /// (meters per depth-grid pixel: the median slope between valid samples 1 to 4 apart along each axis, zero
    /// without such a pair).
    ///
    /// `.median`: the median of the samples, each first moved to the keypoint along the gradient (on a tilted
    /// surface the plain median is the depth at the window's centre sample, up to half a sample away), again
    /// without those more than 3 sigma of noise from it, with sigma noise * sqrt(pi / 2n). `.nearest`: the
    /// sample under the keypoint, with the depth noise and the depth change across its cell (gradient^2 / 12 per
    /// axis).
    func keypointDepth(_ pixel: SIMD2<Float>, _ name: String, _ options: LengthOptions) throws(FathomError)
        -> (depth: Double, sigma: Double, gradient: SIMD2<Double>, samples: Int) {
        let (x, y) = try gridCoordinates(u: pixel.x, v: pixel.y, name)
        let i = Swift.min(Int(x), width - 1), j = Swift.min(Int(y), height - 1)
        let nearest = options.keypointDepth == .nearest
        let r = nearest ? 1 : options.window / 2
        var readings: [(offset: SIMD2<Double>, depth: Double)] = []
        var alongX: [Double] = [], alongY: [Double] = []  // slopes between valid samples 1 to 4 apart in a row or column
        let columns = Swift.max(0, i - r)...Swift.min(width - 1, i + r), rows = Swift.max(0, j - r)...Swift.min(height - 1, j + r)
        for jj in rows {
            for ii in columns {
                guard let d = depth(ii, jj) else { continue }
                readings.append((SIMD2(Double(ii) + 0.5 - Double(x), Double(jj) + 0.5 - Double(y)), Double(d)))
                for step in 1...4 {
                    if columns.contains(ii + step), let other = depth(ii + step, jj) { alongX.append(Double(other - d) / Double(step)) }
                    if rows.contains(jj + step), let other = depth(ii, jj + step) { alongY.append(Double(other - d) / Double(step)) }
                }
            }
        }
        // The median slope along each axis (Theil-Sen): flying pixels at an outline do not tilt it.
        let gradient = SIMD2(median(alongX), median(alongY))
        if nearest {
            guard let d = depth(i, j) else {
                throw FathomError(.noData, "\(name) (\(pixel.x), \(pixel.y)) has no valid depth at depth sample (\(i), \(j))")
            }
            let noise = options.noise(atDepth: Double(d))
            return (Double(d), (noise * noise + (gradient * gradient).sum() / 12).squareRoot(), gradient, 1)
        }
        guard !readings.isEmpty else {
            throw FathomError(.noData, "\(name) (\(pixel.x), \(pixel.y)) has no valid depth in the \(options.window)x\(options.window) window around depth sample (\(i), \(j))")
        }
        let moved = readings.map { $0.depth - (gradient * $0.offset).sum() }.sorted()
        let first = moved[(moved.count - 1) / 2]
        // Flying pixels at an outline lie one side of the surface and pull a median their way: the readings more
        // than 3 sigma of noise from the first median are dropped (unless that would drop half), and the median
        // is taken again.
        let limit = 3 * options.noise(atDepth: first)
        let kept = moved.filter { abs($0 - first) <= limit }
        let used = 2 * kept.count > moved.count ? kept : moved
        let d = used[(used.count - 1) / 2]
        guard d > 0 else {
            throw FathomError(.noData, "\(name) (\(pixel.x), \(pixel.y)): its window's depths moved along their gradient put it behind the camera (\(d) m)")
        }
        // The median of n readings with Gaussian noise has sigma ~ noise * sqrt(pi / (2 n)).
        let averaging = Swift.min(1, (Double.pi / (2 * Double(used.count))).squareRoot())
        return (d, options.noise(atDepth: d) * averaging, gradient, used.count)
    }

    /// An optical-frame point in `frame`, in double precision.
    func convert(_ p: SIMD3<Double>, to frame: PointFrame) -> SIMD3<Double> {
        switch frame {
        case .optical: return p
        case .camera: return SIMD3(p.x, -p.y, -p.z)
        case .world:
            let pose = pose!
            let r = pose.rotation
            let q = SIMD3(p.x, -p.y, -p.z)
            return SIMD3<Double>(r.c0) * q.x + SIMD3<Double>(r.c1) * q.y + SIMD3<Double>(r.c2) * q.z + SIMD3<Double>(pose.translation)
        }
    }
}

@inline(__always) func square(_ x: Double) -> Double { x * x }

/// The median of `values` (the mean of the middle two for an even count), 0 for none.
private func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
