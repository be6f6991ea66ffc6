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
        let moments = try Moments(points)
        let (values, vectors) = try moments.principalAxes(dimensions: 3)
        try moments.requireSpread(values[2])
        guard values[1].squareRoot() > 1e-6 * values[2].squareRoot() else {
            throw FathomError(.degenerate, "the \(points.count) points are collinear: no unique plane through them")
        }
        let c = moments.centroid, normal = canonicalSign(vectors[0])
        var sumSquares = SIMD4<Double>.zero, largest = SIMD4<Double>.zero
        points.forEachQuad { x, y, z, lanes in
            let d = (x - c.x) * normal.x + (y - c.y) * normal.y + (z - c.z) * normal.z
            var d2 = d * d
            largest = lanesMax(largest, d2)  // padding repeats point 0: harmless here, excluded from the sum
            if lanes < 4 { for lane in lanes..<4 { d2[lane] = 0 } }
            sumSquares += d2
        }
        return PlaneFit(point: c, normal: normal, rms: (sumSquares.sum() / Double(points.count)).squareRoot(),
                        maxResidual: largest.max().squareRoot(), used: points.count)
    }
}
