/// A fitted plane: dot(normal, x - point) = 0.
public struct PlaneFit: Equatable, Sendable {
    /// The centroid of the points used.
    public var point: SIMD3<Double>
    /// Unit normal, its largest-magnitude component positive.
    public var normal: SIMD3<Double>
    /// RMS and largest distance of the points used from the plane.
    public var rms: Double, maxResidual: Double
    /// Points used.
    public var used: Int

    /// Signed distance of `p` from the plane.
    @inlinable
    public func distance(_ p: SIMD3<Double>) -> Double { ((p - point) * normal).sum() }
}

extension PlaneFit {
    /// The least-squares plane (orthogonal distances): the centroid and the direction of least spread.
    /// Throws `.degenerate` for fewer than 3 points, coincident points, or collinear points
    /// (second spread <= 1e-6 of the largest).
    public static func fit(_ points: FitPoints) throws(FathomError) -> PlaneFit {
        guard points.count >= 3 else { throw FathomError(.degenerate, "a plane needs at least 3 points, got \(points.count)") }
        let moments = Moments(points)
        let (values, vectors) = try moments.principalAxes(dimensions: 3)
        try moments.requireSpread(values[2])
        guard values[1].squareRoot() > 1e-6 * values[2].squareRoot() else {
            throw FathomError(.degenerate, "the \(points.count) points are collinear: no unique plane through them")
        }
        var plane = PlaneFit(point: moments.centroid, normal: canonicalSign(vectors[0]), rms: 0, maxResidual: 0, used: points.count)
        var sumSquares = 0.0
        for i in 0..<points.count {
            let r = abs(plane.distance(points[i]))
            sumSquares += r * r
            plane.maxResidual = Swift.max(plane.maxResidual, r)
        }
        plane.rms = (sumSquares / Double(points.count)).squareRoot()
        return plane
    }
}
