/// Double-precision dense linear algebra through LAPACK (`Lapack`: LAPACKE over OpenBLAS, or Accelerate). Matrices
/// are column-major arrays of Double.
public enum LinearAlgebra {
    /// Throws `.outOfRange` unless `matrix` holds n x n entries, 1 <= n <= `Lapack.maxOrder` (checked first: n * n
    /// stays far from overflow).
    private static func checkSquare(_ matrix: [Double], n: Int) throws(FathomError) {
        guard n <= Lapack.maxOrder else {
            throw FathomError(.outOfRange, "matrix must be at most \(Lapack.maxOrder)x\(Lapack.maxOrder), got n = \(n)")
        }
        guard n > 0, matrix.count == n * n else { throw FathomError(.outOfRange, "matrix must be \(n)x\(n)") }
    }

    /// Eigen-decomposition of a symmetric n x n matrix (dsyevd): eigenvalues ascending, and the
    /// eigenvectors as the columns of a column-major n x n array in the same order.
    public static func symmetricEigen(_ matrix: [Double], n: Int) throws(FathomError) -> (values: [Double], vectors: [Double]) {
        try checkSquare(matrix, n: n)
        guard matrix.allSatisfy({ $0.isFinite }) else { throw FathomError(.notFinite, "matrix must be finite") }
        var a = matrix
        var w = [Double](repeating: 0, count: n)
        let info = Lapack.symmetricEigen(&a, &w, n: n)
        guard info == 0 else { throw FathomError(.lapack, "dsyevd failed with info = \(info)") }
        return (w, a)
    }

    /// The rotation nearest (in Frobenius norm) to a 3x3 matrix: U * diag(1, 1, det(U V^T)) * V^T from
    /// the SVD A = U S V^T (dgesvd).
    public static func nearestRotation(_ matrix: [Double]) throws(FathomError) -> [Double] {
        guard matrix.count == 9 else { throw FathomError(.outOfRange, "matrix must be 3x3") }
        var a = matrix
        var s = [Double](repeating: 0, count: 3)
        var u = [Double](repeating: 0, count: 9)
        var vt = [Double](repeating: 0, count: 9)
        let info = Lapack.svd3(&a, &s, &u, &vt)
        guard info == 0 else { throw FathomError(.lapack, "dgesvd failed with info = \(info)") }
        func product(_ u: [Double], _ vt: [Double]) -> [Double] {
            var r = [Double](repeating: 0, count: 9)
            for c in 0..<3 { for row in 0..<3 { for k in 0..<3 { r[c * 3 + row] += u[k * 3 + row] * vt[c * 3 + k] } } }
            return r
        }
        var r = product(u, vt)
        if determinant3(r) < 0 {
            for row in 0..<3 { u[2 * 3 + row] = -u[2 * 3 + row] }
            r = product(u, vt)
        }
        return r
    }

    /// Inverse of a symmetric positive definite n x n matrix by Cholesky (dpotrf + dpotri).
    /// Throws `.outOfRange` if the matrix is not positive definite.
    public static func inverseSPD(_ matrix: [Double], n: Int) throws(FathomError) -> [Double] {
        try checkSquare(matrix, n: n)
        var a = matrix
        let info = Lapack.inverseCholesky(&a, n: n)
        guard info.factor == 0 else { throw FathomError(.outOfRange, "matrix is not positive definite") }
        guard info.invert == 0 else { throw FathomError(.lapack, "dpotri failed with info = \(info.invert)") }
        for c in 0..<n { for r in (c + 1)..<max(c + 1, n) { a[c * n + r] = a[r * n + c] } }  // mirror upper to lower
        return a
    }

    /// Determinant of a column-major 3x3 matrix.
    public static func determinant3(_ m: [Double]) -> Double {
        m[0] * (m[4] * m[8] - m[7] * m[5]) - m[3] * (m[1] * m[8] - m[7] * m[2]) + m[6] * (m[1] * m[5] - m[4] * m[2])
    }
}
