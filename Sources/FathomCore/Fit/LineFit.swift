/// A fitted line with its residuals (2D fits have z = 0).
public struct LineFit: Equatable, Sendable {
    /// The centroid of the points used.
    public var point: SIMD3<Double>
    /// Unit direction, its largest-magnitude component positive.
    public var direction: SIMD3<Double>
    /// RMS and largest residual of the points used: perpendicular distance, or vertical for an ordinary fit.
    public var rms: Double, maxResidual: Double
    /// Extent of the used points' projections, from `point` along `direction`.
    public var tMin: Double, tMax: Double
    /// Points used.
    public var used: Int
}

/// Kinds of 2D line fit.
public enum LineMethod: UInt32, Sendable {
    /// y = a x + b, minimizing vertical residuals.
    case ordinary = 0
    /// Minimizing perpendicular distances.
    case total = 1
}

extension LineFit {
    /// A 2D line through (x, y) points by ordinary or total least squares.
    public static func fit2D(_ points: FitPoints, method: LineMethod) throws(FathomError) -> LineFit {
        guard points.count >= 2 else { throw FathomError(.degenerate, "a line needs at least 2 points, got \(points.count)") }
        let moments = Moments(points)
        switch method {
        case .total:
            return try total(points, moments, dimensions: 2)
        case .ordinary:
            let spreadX = moments.xx.squareRoot()
            guard spreadX > 1e-9 * moments.largestCoordinate, spreadX > 0 else {
                throw FathomError(.degenerate, "an ordinary fit needs two distinct x, but all \(points.count) points have x = \(moments.centroid.x)")
            }
            let slope = moments.xy / moments.xx
            let direction = SIMD3(1, slope, 0) / (1 + slope * slope).squareRoot()
            return measure(points, through: moments.centroid, along: direction) { q, _ in abs(q.y - slope * q.x) }
        }
    }

    /// A 3D line by total least squares: the centroid and the principal direction.
    public static func fit3D(_ points: FitPoints) throws(FathomError) -> LineFit {
        guard points.count >= 2 else { throw FathomError(.degenerate, "a line needs at least 2 points, got \(points.count)") }
        return try total(points, Moments(points), dimensions: 3)
    }

    /// Total least squares in `dimensions`: the eigenvector of the covariance's largest eigenvalue.
    static func total(_ points: FitPoints, _ moments: Moments, dimensions: Int) throws(FathomError) -> LineFit {
        let (values, vectors) = try moments.principalAxes(dimensions: dimensions)
        try moments.requireSpread(values[dimensions - 1])
        let direction = canonicalSign(vectors[dimensions - 1])
        // |q - t e| directly: sqrt(|q|^2 - t^2) cancels, leaving ~1e-8 |q| of rounding on points on the line.
        return measure(points, through: moments.centroid, along: direction) { q, t in length(q - t * direction) }
    }

    /// The fit's residuals and extent: `residual(q, t)` of each point's offset q from `point` and projection t.
    static func measure(_ points: FitPoints, through point: SIMD3<Double>, along direction: SIMD3<Double>,
                        residual: (SIMD3<Double>, Double) -> Double) -> LineFit {
        var tMin = Double.infinity, tMax = -Double.infinity, sumSquares = 0.0, largest = 0.0
        for i in 0..<points.count {
            let q = points[i] - point
            let t = (q * direction).sum()
            let r = residual(q, t)
            tMin = Swift.min(tMin, t)
            tMax = Swift.max(tMax, t)
            sumSquares += r * r
            largest = Swift.max(largest, r)
        }
        return LineFit(point: point, direction: direction, rms: (sumSquares / Double(points.count)).squareRoot(),
                       maxResidual: largest, tMin: tMin, tMax: tMax, used: points.count)
    }
}
