#if canImport(Accelerate)
import Accelerate
#else
import CLapack
#endif

/// The LAPACK routines the engine calls, on column-major Double matrices, each returning LAPACK's `info` (0: done):
/// LAPACKE over OpenBLAS on Linux, Accelerate's LAPACK on Apple platforms.
enum Lapack {
    /// dsyevd: eigenvalues of the symmetric n x n matrix `a` (upper triangle read) into `w` ascending, eigenvectors
    /// over `a`.
    static func symmetricEigen(_ a: inout [Double], _ w: inout [Double], n: Int32) -> Int32 {
        #if canImport(Accelerate)
        var job = CChar(UInt8(ascii: "V")), uplo = CChar(UInt8(ascii: "U"))
        var n = n, lda = n, info: __CLPK_integer = 0
        // dsyevd's documented minimum workspaces for eigenvectors (the matrices here are at most 5 x 5).
        var lwork = 1 + 6 * n + 2 * n * n, liwork = 3 + 5 * n
        var work = [Double](repeating: 0, count: Int(lwork))
        var iwork = [__CLPK_integer](repeating: 0, count: Int(liwork))
        dsyevd_(&job, &uplo, &n, &a, &lda, &w, &work, &lwork, &iwork, &liwork, &info)
        return info
        #else
        return LAPACKE_dsyevd(LAPACK_COL_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "U")), n, &a, n, &w)
        #endif
    }

    /// dgesvd of the 3 x 3 matrix `a` (overwritten): singular values `s`, and all of U and V^T.
    static func svd3(_ a: inout [Double], _ s: inout [Double], _ u: inout [Double], _ vt: inout [Double]) -> Int32 {
        #if canImport(Accelerate)
        var job = CChar(UInt8(ascii: "A"))
        var three: __CLPK_integer = 3, lda: __CLPK_integer = 3, ldu: __CLPK_integer = 3, ldvt: __CLPK_integer = 3
        var lwork: __CLPK_integer = 64, info: __CLPK_integer = 0
        var work = [Double](repeating: 0, count: Int(lwork))  // >= max(3 * min + max, 5 * min) = 15 for 3 x 3
        dgesvd_(&job, &job, &three, &three, &a, &lda, &s, &u, &ldu, &vt, &ldvt, &work, &lwork, &info)
        return info
        #else
        var superb = [Double](repeating: 0, count: 2)
        let job = CChar(UInt8(ascii: "A"))
        return LAPACKE_dgesvd(LAPACK_COL_MAJOR, job, job, 3, 3, &a, 3, &s, &u, 3, &vt, 3, &superb)
        #endif
    }

    /// dpotrf then, if it succeeded, dpotri: the inverse of the positive definite n x n matrix `a` in its upper
    /// triangle. Returns (dpotrf's info, dpotri's info); dpotrf's > 0 means not positive definite.
    static func inverseCholesky(_ a: inout [Double], n: Int32) -> (factor: Int32, invert: Int32) {
        #if canImport(Accelerate)
        var uplo = CChar(UInt8(ascii: "U")), n = n, lda = n, info: __CLPK_integer = 0
        dpotrf_(&uplo, &n, &a, &lda, &info)
        guard info == 0 else { return (info, 0) }
        dpotri_(&uplo, &n, &a, &lda, &info)
        return (0, info)
        #else
        let upper = CChar(UInt8(ascii: "U"))
        let factor = LAPACKE_dpotrf(LAPACK_COL_MAJOR, upper, n, &a, n)
        guard factor == 0 else { return (factor, 0) }
        return (0, LAPACKE_dpotri(LAPACK_COL_MAJOR, upper, n, &a, n))
        #endif
    }
}
