/// Fitting an oriented box to points along their principal axes.
extension OrientedBox {
    /// The box along the principal axes of the points (eigenvectors of their covariance from LAPACK,
    /// largest variance as local x, right-handed) that encloses every point.
    ///
    /// Accumulates in Double around the first point, so far-from-origin clouds keep their precision.
    /// Throws `.notFinite` for a non-finite point and `.degenerate` for fewer than 4 points or points that
    /// all lie on a plane (no volume).
    public static func fitPCA(_ points: PointBuffer) throws(FathomError) -> OrientedBox {
        try points.requireFinite()
        guard points.count >= 4 else {
            throw FathomError(.degenerate, "a box fit needs >= 4 points, got \(points.count)")
        }
        let origin = SIMD3<Double>(points[0])
        var sum = SIMD3<Double>.zero
        var xx = 0.0, xy = 0.0, xz = 0.0, yy = 0.0, yz = 0.0, zz = 0.0
        for i in 0..<points.count {
            let d = SIMD3<Double>(points[i]) - origin
            sum += d
            xx += d.x * d.x; xy += d.x * d.y; xz += d.x * d.z
            yy += d.y * d.y; yz += d.y * d.z; zz += d.z * d.z
        }
        let n = Double(points.count)
        let m = sum / n
        let cov = [xx / n - m.x * m.x, xy / n - m.x * m.y, xz / n - m.x * m.z,
                   xy / n - m.x * m.y, yy / n - m.y * m.y, yz / n - m.y * m.z,
                   xz / n - m.x * m.z, yz / n - m.y * m.z, zz / n - m.z * m.z]
        let (_, vectors) = try LinearAlgebra.symmetricEigen(cov, n: 3)
        // dsyevd orders eigenvalues ascending: the last column has the largest variance.
        let ax = SIMD3(vectors[6], vectors[7], vectors[8])
        let ay = SIMD3(vectors[3], vectors[4], vectors[5])
        let az = cross(ax, ay)
        var lo = SIMD3<Double>(repeating: .infinity), hi = SIMD3<Double>(repeating: -.infinity)
        for i in 0..<points.count {
            let d = SIMD3<Double>(points[i]) - origin
            let l = SIMD3(dot(ax, d), dot(ay, d), dot(az, d))
            lo = pointwiseMin(lo, l)
            hi = pointwiseMax(hi, l)
        }
        let extent = hi - lo
        guard extent.min() > 1e-9 * Swift.max(extent.max(), 1e-30) else {
            throw FathomError(.degenerate, "the points lie on a plane or a line: the box would have no volume")
        }
        let mid = (lo + hi) / 2
        let center = origin + ax * mid.x + ay * mid.y + az * mid.z
        let r = Matrix3(SIMD3<Float>(ax), SIMD3<Float>(ay), SIMD3<Float>(az))
        // Float rounding of the extents must not leave a point a hair outside: widen by a few ulps.
        let scale = SIMD3<Float>(extent) * (1 + 4 * Float.ulpOfOne) + 4 * Float.ulpOfOne * SIMD3<Float>(componentAbs(center)).max()
        return try OrientedBox(center: SIMD3<Float>(center), scale: scale, rotation: Quaternion(rotation: r))
    }
}
