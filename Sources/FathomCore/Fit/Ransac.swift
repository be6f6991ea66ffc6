import Glibc

/// RANSAC settings. Results depend only on the points and these values.
public struct RansacOptions: Equatable, Sendable {
    /// Inlier distance, > 0.
    public var threshold: Double
    /// Random minimal samples tried at most, >= 1.
    public var iterations: Int
    public var seed: UInt64
    /// The probability, in (0, 1], of having drawn a sample of inliers only before stopping: the search stops
    /// once k samples are drawn with 1 - (1 - w^s)^k >= confidence, w being the best sample's inlier fraction so
    /// far and s the sample size (Fischler and Bolles 1981); 1 tries all `iterations`.
    public var confidence: Double

    public init(threshold: Double, iterations: Int, seed: UInt64, confidence: Double) throws(FathomError) {
        guard threshold.isFinite else { throw FathomError(.notFinite, "threshold must be finite, got \(threshold)") }
        guard threshold > 0 else { throw FathomError(.outOfRange, "threshold must be > 0, got \(threshold)") }
        guard iterations >= 1 else { throw FathomError(.outOfRange, "iterations must be >= 1, got \(iterations)") }
        guard confidence.isFinite else { throw FathomError(.notFinite, "confidence must be finite, got \(confidence)") }
        guard confidence > 0 && confidence <= 1 else {
            throw FathomError(.outOfRange, "confidence must be in (0, 1], got \(confidence)")
        }
        self.threshold = threshold
        self.iterations = iterations
        self.seed = seed
        self.confidence = confidence
    }

    /// 1 cm (for points in meters), at most 1000 samples, seed 0, confidence 0.99.
    public static let defaults = RansacOptions(uncheckedThreshold: 0.01, iterations: 1000, seed: 0, confidence: 0.99)

    private init(uncheckedThreshold threshold: Double, iterations: Int, seed: UInt64, confidence: Double) {
        self.threshold = threshold
        self.iterations = iterations
        self.seed = seed
        self.confidence = confidence
    }

    /// The samples of `size` points that suffice at the confidence when the best one so far has `inliers` of
    /// `count` points within the threshold (infinity for a confidence of 1).
    func samplesNeeded(size: Int, inliers: Int, of count: Int) -> Double {
        guard confidence < 1 else { return .infinity }
        let allInliers = pow(Double(inliers) / Double(count), Double(size))  // the chance a sample is all inliers
        guard allInliers < 1 else { return 0 }
        // 1 - (1 - q)^k >= p  <=>  k >= log(1 - p) / log(1 - q); log1p keeps a small q from rounding to 0.
        return log1p(-confidence) / log1p(-allInliers)
    }
}

/// The points about their centroid in single precision, one array per axis: the layout the inlier counts
/// stream through, eight points per step.
struct CentredPoints {
    let centroid: SIMD3<Double>
    var x: [Float], y: [Float], z: [Float]

    init(_ points: FitPoints) throws(FathomError) {
        centroid = try Moments(points).centroid
        let c = centroid
        x = (0..<points.count).map { Float(points[$0].x - c.x) }
        y = (0..<points.count).map { Float(points[$0].y - c.y) }
        z = (0..<points.count).map { Float(points[$0].z - c.z) }
    }

    /// How many points lie within `threshold` of the plane n . p = offset (centred coordinates).
    func countNearPlane(normal n: SIMD3<Float>, offset: Float, threshold: Float) -> Int {
        count { x, y, z in
            let distance: SIMD8<Float> = n.x * x + n.y * y + n.z * z - offset
            return (distance .<= threshold) .& (distance .>= -threshold)
        }
    }

    /// How many points lie within `threshold` of the line through `a` along unit `e` (centred coordinates).
    func countNearLine(through a: SIMD3<Float>, along e: SIMD3<Float>, threshold: Float) -> Int {
        let squared = threshold * threshold
        return count { x, y, z in
            let qx: SIMD8<Float> = x - a.x, qy: SIMD8<Float> = y - a.y, qz: SIMD8<Float> = z - a.z
            let t: SIMD8<Float> = qx * e.x + qy * e.y + qz * e.z
            let offAxis: SIMD8<Float> = qx * qx + qy * qy + qz * qz - t * t
            return offAxis .<= squared
        }
    }

    @inline(__always)
    private func count(_ test: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) -> SIMDMask<SIMD8<Int32>>) -> Int {
        let n = x.count
        var lanes = SIMD8<Int32>.zero
        var tail = 0
        x.withUnsafeBufferPointer { xs in y.withUnsafeBufferPointer { ys in z.withUnsafeBufferPointer { zs in
            let xr = UnsafeRawPointer(xs.baseAddress!), yr = UnsafeRawPointer(ys.baseAddress!), zr = UnsafeRawPointer(zs.baseAddress!)
            var i = 0
            while i &+ 8 <= n {
                let offset = i &* 4
                let inside = test(xr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self),
                                  yr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self),
                                  zr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self))
                lanes &-= unsafeBitCast(inside, to: SIMD8<Int32>.self)  // true lanes are -1
                i &+= 8
            }
            while i < n {
                if test(SIMD8(repeating: xs[i]), SIMD8(repeating: ys[i]), SIMD8(repeating: zs[i]))[0] { tail &+= 1 }
                i &+= 1
            }
        } } }
        return Int(lanes.wrappedSum()) + tail
    }
}

extension PlaneFit {
    /// RANSAC over point triples (collinear triples skipped), inliers counted in single precision about the
    /// centroid, until `options.iterations` triples or, sooner, the confidence is reached. Then a least-squares
    /// refit on the best triple's inliers (selected in double precision), and once more on the refit plane's
    /// inliers when they are at least as many (a triple through noisy points tilts the first inlier band).
    /// When the fit succeeds, `inliers[i]` (count bytes) is 1 for the points the final fit used, else 0.
    public static func ransac(_ points: FitPoints, _ options: RansacOptions,
                              inliers mask: UnsafeMutablePointer<UInt8>? = nil) throws(FathomError) -> PlaneFit {
        guard points.count >= 3 else { throw FathomError(.degenerate, "a plane needs at least 3 points, got \(points.count)") }
        let centred = try CentredPoints(points)
        var random = SplitMix64(state: options.seed)
        var best: (normal: SIMD3<Double>, anchor: SIMD3<Double>, inliers: Int)?
        var drawn = 0, needed = Double.infinity
        while drawn < options.iterations && Double(drawn) < needed {
            drawn += 1
            let picked = random.distinct(3, below: points.count)
            let a = points[picked[0]], b = points[picked[1]], c = points[picked[2]]
            let normal = cross(b - a, c - a)
            let area = length(normal)
            guard area > 1e-12 * length(b - a) * length(c - a), area > 0 else { continue }
            let unit = normal / area
            let offset = Float((unit * (a - centred.centroid)).sum())
            let inliers = centred.countNearPlane(normal: SIMD3<Float>(unit), offset: offset, threshold: Float(options.threshold))
            guard inliers > best?.inliers ?? -1 else { continue }
            best = (unit, a, inliers)
            needed = options.samplesNeeded(size: 3, inliers: inliers, of: points.count)
        }
        guard let best else { throw FathomError(.degenerate, "no sampled triple of the \(points.count) points spans a plane") }
        return try refit(points, mask: mask) { p in abs(dot(p - best.anchor, best.normal)) <= options.threshold } then: { plane in
            { p in abs(plane.distance(p)) <= options.threshold }
        } fit: { inlierPoints throws(FathomError) in try fit(inlierPoints) }
    }
}

extension LineFit {
    /// RANSAC over point pairs (2D or 3D as the points are), until `options.iterations` pairs or, sooner, the
    /// confidence is reached; then a total-least-squares refit on the best pair's inliers (selected in double
    /// precision), and once more on the refit line's inliers when they are at least as many. When the fit
    /// succeeds, `inliers[i]` (count bytes) is 1 for the points the final fit used, else 0.
    public static func ransac(_ points: FitPoints, _ options: RansacOptions,
                              inliers mask: UnsafeMutablePointer<UInt8>? = nil) throws(FathomError) -> LineFit {
        guard points.count >= 2 else { throw FathomError(.degenerate, "a line needs at least 2 points, got \(points.count)") }
        let centred = try CentredPoints(points)
        var random = SplitMix64(state: options.seed)
        var best: (direction: SIMD3<Double>, anchor: SIMD3<Double>, inliers: Int)?
        var drawn = 0, needed = Double.infinity
        while drawn < options.iterations && Double(drawn) < needed {
            drawn += 1
            let picked = random.distinct(2, below: points.count)
            let a = points[picked[0]], b = points[picked[1]]
            let span = length(b - a)
            guard span > 0 else { continue }
            let e = (b - a) / span
            let inliers = centred.countNearLine(through: SIMD3<Float>(a - centred.centroid), along: SIMD3<Float>(e),
                                                threshold: Float(options.threshold))
            guard inliers > best?.inliers ?? -1 else { continue }
            best = (e, a, inliers)
            needed = options.samplesNeeded(size: 2, inliers: inliers, of: points.count)
        }
        guard let best else { throw FathomError(.degenerate, "all sampled pairs of the \(points.count) points coincide") }
        @inline(__always) func near(_ p: SIMD3<Double>, _ anchor: SIMD3<Double>, _ direction: SIMD3<Double>) -> Bool {
            let q = p - anchor, t = (q * direction).sum()
            return Swift.max((q * q).sum() - t * t, 0).squareRoot() <= options.threshold  // rounding can make it < 0
        }
        return try refit(points, mask: mask) { p in near(p, best.anchor, best.direction) } then: { line in
            { p in near(p, line.point, line.direction) }
        } fit: { inlierPoints throws(FathomError) in
            try inlierPoints.dimensions == 3 ? fit3D(inlierPoints) : fit2D(inlierPoints, method: .total)
        }
    }
}

/// RANSAC's refits: `fit` on the points `first` keeps, then on those the result's own test (`then`) keeps when
/// they are at least as many and that fit succeeds; the mask marks the points of the fit returned.
private func refit<Fit>(_ points: FitPoints, mask: UnsafeMutablePointer<UInt8>?, _ first: (SIMD3<Double>) -> Bool,
                        then: (Fit) -> (SIMD3<Double>) -> Bool,
                        fit: (FitPoints) throws(FathomError) -> Fit) throws(FathomError) -> Fit {
    let firstPoints = points.filter(first)
    var result = try FitPoints.with(firstPoints, dimensions: points.dimensions, fit)
    let second = then(result)
    let secondPoints = points.filter(second)
    var refitted = false
    if secondPoints.count >= firstPoints.count,
       let again = try? FitPoints.with(secondPoints, dimensions: points.dimensions, fit) {
        result = again
        refitted = true
    }
    if let mask { for i in 0..<points.count { mask[i] = (refitted ? second(points[i]) : first(points[i])) ? 1 : 0 } }
    return result
}
