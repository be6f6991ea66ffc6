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
        return ObjectLength(length: distance, sigma: variance.squareRoot(),
                            head: convert(h.point, to: options.frame), tail: convert(t.point, to: options.frame),
                            headPixel: head, tailPixel: tail, rms: plane?.fit.rms ?? 0,
                            samples: plane?.fit.used ?? (h.samples + t.samples))
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
        let reading = try sample(u: pixel.x, v: pixel.y, options.keypointDepth == .nearest ? .nearest : .median,
                                 window: options.keypointDepth == .nearest ? 1 : options.window, name)
        let d = Double(reading.depth)
        // The median of n readings with Gaussian noise has sigma ~ noise * sqrt(pi / (2 n)).
        let averaging = min(1, (Double.pi / (2 * Double(reading.samples))).squareRoot())
        return KeypointEstimate(point: ray * d, du: SIMD3(d / fx, 0, 0), dv: SIMD3(0, d / fy, 0),
                                dDepth: ray, depthSigma: options.noise(atDepth: d) * averaging, dPlane: .zero,
                                samples: reading.samples)
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
