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
        let moments = try Moments(points)
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
            return measure(points, through: moments.centroid, along: direction) { qx, qy, _, _ in
                let r = qy - slope * qx
                return r * r
            }
        }
    }

    /// A 3D line by total least squares: the centroid and the principal direction.
    public static func fit3D(_ points: FitPoints) throws(FathomError) -> LineFit {
        guard points.count >= 2 else { throw FathomError(.degenerate, "a line needs at least 2 points, got \(points.count)") }
        return try total(points, try Moments(points), dimensions: 3)
    }

    /// Total least squares in `dimensions`: the eigenvector of the covariance's largest eigenvalue.
    static func total(_ points: FitPoints, _ moments: Moments, dimensions: Int) throws(FathomError) -> LineFit {
        let (values, vectors) = try moments.principalAxes(dimensions: dimensions)
        try moments.requireSpread(values[dimensions - 1])
        let direction = canonicalSign(vectors[dimensions - 1])
        // |q - t e| directly: sqrt(|q|^2 - t^2) cancels, leaving ~1e-8 |q| of rounding on points on the line.
        return measure(points, through: moments.centroid, along: direction) { qx, qy, qz, t in
            let rx = qx - t * direction.x, ry = qy - t * direction.y, rz = qz - t * direction.z
            return rx * rx + ry * ry + rz * rz
        }
    }

    /// The fit's residuals and extent: `squaredResidual(qx, qy, qz, t)` of four points' offsets from `point` and
    /// projections t.
    @inline(__always)
    static func measure(_ points: FitPoints, through point: SIMD3<Double>, along direction: SIMD3<Double>,
                        squaredResidual: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>) -> SIMD4<Double>) -> LineFit {
        let cx = SIMD4(repeating: point.x), cy = SIMD4(repeating: point.y), cz = SIMD4(repeating: point.z)
        var tMin = SIMD4(repeating: Double.infinity), tMax = -tMin, sumSquares = SIMD4<Double>.zero, largest = sumSquares
        points.forEachQuad { x, y, z, lanes in
            let qx = x - cx, qy = y - cy, qz = z - cz
            let t = qx * direction.x + qy * direction.y + qz * direction.z
            var r2 = squaredResidual(qx, qy, qz, t)
            // Padding repeats point 0: harmless for the extremes, excluded from the sum.
            tMin = lanesMin(tMin, t)
            tMax = lanesMax(tMax, t)
            largest = lanesMax(largest, r2)
            if lanes < 4 { for lane in lanes..<4 { r2[lane] = 0 } }
            sumSquares += r2
        }
        return LineFit(point: point, direction: direction, rms: (sumSquares.sum() / Double(points.count)).squareRoot(),
                       maxResidual: largest.max().squareRoot(), tMin: tMin.min(), tMax: tMax.max(), used: points.count)
    }
}
