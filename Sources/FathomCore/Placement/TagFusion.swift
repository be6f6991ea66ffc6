/// Combining several observations of one tag into one pose.
public enum TagFusion {
    /// The fused pose and its position covariance.
    public struct Result: Sendable {
        public var pose: Pose
        public var covariance: Matrix3
    }

    /// Fuses world poses of one tag. With covariances (symmetric positive definite 3x3 position
    /// covariances): information-weighted mean position, (sum S_i^-1)^-1 as its covariance, and the
    /// quaternion average (Markley: top eigenvector of sum w_i q_i q_i^T, LAPACK) with w_i = 1 / trace(S_i).
    /// Without: equal weights, and the sample covariance of the positions / count as the covariance.
    public static func fuse(_ poses: [Pose], covariances: [Matrix3]?) throws(FathomError) -> Result {
        guard !poses.isEmpty else { throw FathomError(.outOfRange, "count must be >= 1, got 0") }
        if let covariances, covariances.count != poses.count {
            throw FathomError(.outOfRange, "need one covariance per pose (\(poses.count)), got \(covariances.count)")
        }
        let n = poses.count
        var weights = [Double](repeating: 1, count: n)
        var position = SIMD3<Double>.zero
        var covariance = [Double](repeating: 0, count: 9)

        if let covariances {
            var information = [Double](repeating: 0, count: 9)
            var weighted = SIMD3<Double>.zero
            for (i, s) in covariances.enumerated() {
                let m = s.columnMajor.map(Double.init)
                guard m.allSatisfy({ $0.isFinite }) else { throw FathomError(.notFinite, "covariances[\(i)] must be finite") }
                for r in 0..<3 { for c in 0..<r where abs(m[c * 3 + r] - m[r * 3 + c]) > 1e-6 * (abs(m[c * 3 + r]) + abs(m[r * 3 + c]) + 1e-30) {
                    throw FathomError(.outOfRange, "covariances[\(i)] is not symmetric")
                } }
                let inverse: [Double]
                do { inverse = try LinearAlgebra.inverseSPD(m, n: 3) } catch {
                    throw FathomError(.outOfRange, "covariances[\(i)] is not positive definite")
                }
                let p = SIMD3<Double>(poses[i].translation)
                for k in 0..<9 { information[k] += inverse[k] }
                weighted += SIMD3(inverse[0] * p.x + inverse[3] * p.y + inverse[6] * p.z,
                                  inverse[1] * p.x + inverse[4] * p.y + inverse[7] * p.z,
                                  inverse[2] * p.x + inverse[5] * p.y + inverse[8] * p.z)
                weights[i] = 1 / (m[0] + m[4] + m[8])
            }
            covariance = try LinearAlgebra.inverseSPD(information, n: 3)
            position = SIMD3(covariance[0] * weighted.x + covariance[3] * weighted.y + covariance[6] * weighted.z,
                             covariance[1] * weighted.x + covariance[4] * weighted.y + covariance[7] * weighted.z,
                             covariance[2] * weighted.x + covariance[5] * weighted.y + covariance[8] * weighted.z)
        } else {
            for pose in poses { position += SIMD3<Double>(pose.translation) }
            position /= Double(n)
            if n > 1 {
                for pose in poses {
                    let d = SIMD3<Double>(pose.translation) - position
                    for c in 0..<3 { for r in 0..<3 { covariance[c * 3 + r] += d[r] * d[c] } }
                }
                // Unbiased sample covariance, divided by n: the covariance of the mean.
                covariance = covariance.map { $0 / Double(n - 1) / Double(n) }
            }
        }

        var m = [Double](repeating: 0, count: 16)
        for (pose, w) in zip(poses, weights) {
            let q = SIMD4<Double>(pose.quaternion.vector)
            for c in 0..<4 { for r in 0..<4 { m[c * 4 + r] += w * q[r] * q[c] } }
        }
        let (values, vectors) = try LinearAlgebra.symmetricEigen(m, n: 4)
        guard values[3] > 0, values[3] - values[2] > 1e-9 * values[3] else {
            throw FathomError(.degenerate, "the rotations cancel out: no unique average rotation")
        }
        let q = Quaternion(Float(vectors[12]), Float(vectors[13]), Float(vectors[14]), Float(vectors[15]))
        // Matrix weights can put the mean outside the observed positions, and the float range is the caller's.
        let translation = SIMD3<Float>(position)
        let floatCovariance = covariance.map(Float.init)
        guard translation.x.isFinite, translation.y.isFinite, translation.z.isFinite,
              floatCovariance.allSatisfy({ $0.isFinite }) else {
            throw FathomError(.outOfRange, "the fused position or its covariance is beyond the float range")
        }
        let pose = Pose(rotation: try q.normalized().matrix, translation: translation)
        let cov = try Matrix3(columnMajor: floatCovariance)
        return Result(pose: pose, covariance: cov)
    }
}
