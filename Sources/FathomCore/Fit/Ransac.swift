/// RANSAC settings. Results depend only on the points and these values.
public struct RansacOptions: Equatable, Sendable {
    /// Inlier distance, > 0.
    public var threshold: Double
    /// Random minimal samples tried, >= 1.
    public var iterations: Int
    public var seed: UInt64

    public init(threshold: Double, iterations: Int, seed: UInt64) throws(FathomError) {
        guard threshold.isFinite else { throw FathomError(.notFinite, "threshold must be finite, got \(threshold)") }
        guard threshold > 0 else { throw FathomError(.outOfRange, "threshold must be > 0, got \(threshold)") }
        guard iterations >= 1 else { throw FathomError(.outOfRange, "iterations must be >= 1, got \(iterations)") }
        self.threshold = threshold
        self.iterations = iterations
        self.seed = seed
    }

    /// 1 cm (for points in meters), 1000 samples, seed 0.
    public static let defaults = RansacOptions(uncheckedThreshold: 0.01, iterations: 1000, seed: 0)

    private init(uncheckedThreshold threshold: Double, iterations: Int, seed: UInt64) {
        self.threshold = threshold
        self.iterations = iterations
        self.seed = seed
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
    /// centroid, then a least-squares refit on the best triple's inliers (selected in double precision). When
    /// the fit succeeds, `inliers[i]` (count bytes) is 1 for the points the refit used, else 0.
    public static func ransac(_ points: FitPoints, _ options: RansacOptions,
                              inliers mask: UnsafeMutablePointer<UInt8>? = nil) throws(FathomError) -> PlaneFit {
        guard points.count >= 3 else { throw FathomError(.degenerate, "a plane needs at least 3 points, got \(points.count)") }
        let centred = try CentredPoints(points)
        var random = SplitMix64(state: options.seed)
        var best: (normal: SIMD3<Double>, anchor: SIMD3<Double>, inliers: Int)?
        for _ in 0..<options.iterations {
            let picked = random.distinct(3, below: points.count)
            let a = points[picked[0]], b = points[picked[1]], c = points[picked[2]]
            let normal = cross(b - a, c - a)
            let area = length(normal)
            guard area > 1e-12 * length(b - a) * length(c - a), area > 0 else { continue }
            let unit = normal / area
            let offset = Float((unit * (a - centred.centroid)).sum())
            let inliers = centred.countNearPlane(normal: SIMD3<Float>(unit), offset: offset, threshold: Float(options.threshold))
            if inliers > best?.inliers ?? -1 { best = (unit, a, inliers) }
        }
        guard let best else { throw FathomError(.degenerate, "no sampled triple of the \(points.count) points spans a plane") }
        func isInlier(_ p: SIMD3<Double>) -> Bool { abs(dot(p - best.anchor, best.normal)) <= options.threshold }
        let plane = try FitPoints.with(points.filter(isInlier), dimensions: 3) { inlierPoints throws(FathomError) in try fit(inlierPoints) }
        if let mask { for i in 0..<points.count { mask[i] = isInlier(points[i]) ? 1 : 0 } }
        return plane
    }
}

extension LineFit {
    /// RANSAC over point pairs (2D or 3D as the points are), then a total-least-squares refit on the best
    /// pair's inliers (selected in double precision). When the fit succeeds, `inliers[i]` (count bytes) is 1 for
    /// the points the refit used, else 0.
    public static func ransac(_ points: FitPoints, _ options: RansacOptions,
                              inliers mask: UnsafeMutablePointer<UInt8>? = nil) throws(FathomError) -> LineFit {
        guard points.count >= 2 else { throw FathomError(.degenerate, "a line needs at least 2 points, got \(points.count)") }
        let centred = try CentredPoints(points)
        var random = SplitMix64(state: options.seed)
        var best: (direction: SIMD3<Double>, anchor: SIMD3<Double>, inliers: Int)?
        for _ in 0..<options.iterations {
            let picked = random.distinct(2, below: points.count)
            let a = points[picked[0]], b = points[picked[1]]
            let span = length(b - a)
            guard span > 0 else { continue }
            let e = (b - a) / span
            let inliers = centred.countNearLine(through: SIMD3<Float>(a - centred.centroid), along: SIMD3<Float>(e),
                                                threshold: Float(options.threshold))
            if inliers > best?.inliers ?? -1 { best = (e, a, inliers) }
        }
        guard let best else { throw FathomError(.degenerate, "all sampled pairs of the \(points.count) points coincide") }
        func isInlier(_ p: SIMD3<Double>) -> Bool {
            let q = p - best.anchor, t = (q * best.direction).sum()
            return Swift.max((q * q).sum() - t * t, 0).squareRoot() <= options.threshold  // rounding can make it < 0
        }
        let line = try FitPoints.with(points.filter(isInlier), dimensions: points.dimensions) { inlierPoints throws(FathomError) in
            try inlierPoints.dimensions == 3 ? fit3D(inlierPoints) : fit2D(inlierPoints, method: .total)
        }
        if let mask { for i in 0..<points.count { mask[i] = isInlier(points[i]) ? 1 : 0 } }
        return line
    }
}
