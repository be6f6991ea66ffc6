#if canImport(Accelerate)
import Accelerate
#else
import CLapack
#endif

/// The LAPACK routines the engine calls, on column-major Double matrices, each returning LAPACK's `info` (0: done):
/// LAPACKE over OpenBLAS on Linux, Accelerate's LAPACK on Apple platforms.
enum Lapack {
    /// The largest n of the n x n matrices passed here: n, and dsyevd's workspace of about 2 n^2 entries, stay far
    /// within LAPACK's 32-bit integers.
    static let maxOrder = 4096

    /// dsyevd: eigenvalues of the symmetric n x n matrix `a` (upper triangle read) into `w` ascending, eigenvectors
    /// over `a`. 1 <= n <= `maxOrder`.
    static func symmetricEigen(_ a: inout [Double], _ w: inout [Double], n: Int) -> Int32 {
        #if canImport(Accelerate)
        var job = CChar(UInt8(ascii: "V")), uplo = CChar(UInt8(ascii: "U"))
        // dsyevd's documented minimum workspaces for eigenvectors.
        let workSize = 1 + 6 * n + 2 * n * n, iworkSize = 3 + 5 * n
        var order = __CLPK_integer(truncatingIfNeeded: n), lda = order, info: __CLPK_integer = 0
        var lwork = __CLPK_integer(truncatingIfNeeded: workSize), liwork = __CLPK_integer(truncatingIfNeeded: iworkSize)
        var work = [Double](repeating: 0, count: workSize)
        var iwork = [__CLPK_integer](repeating: 0, count: iworkSize)
        dsyevd_(&job, &uplo, &order, &a, &lda, &w, &work, &lwork, &iwork, &liwork, &info)
        return info
        #else
        let order = Int32(truncatingIfNeeded: n)
        return LAPACKE_dsyevd(LAPACK_COL_MAJOR, CChar(UInt8(ascii: "V")), CChar(UInt8(ascii: "U")), order, &a, order, &w)
        #endif
    }

    /// dgesvd of the 3 x 3 matrix `a` (overwritten): singular values `s`, and all of U and V^T.
    static func svd3(_ a: inout [Double], _ s: inout [Double], _ u: inout [Double], _ vt: inout [Double]) -> Int32 {
        #if canImport(Accelerate)
        var job = CChar(UInt8(ascii: "A"))
        var three: __CLPK_integer = 3, lda: __CLPK_integer = 3, ldu: __CLPK_integer = 3, ldvt: __CLPK_integer = 3
        // A workspace of 64, at least dgesvd's max(3 min + max, 5 min) = 15 for 3 x 3.
        var lwork: __CLPK_integer = 64, info: __CLPK_integer = 0
        var work = [Double](repeating: 0, count: 64)
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
    /// 1 <= n <= `maxOrder`.
    static func inverseCholesky(_ a: inout [Double], n: Int) -> (factor: Int32, invert: Int32) {
        #if canImport(Accelerate)
        var uplo = CChar(UInt8(ascii: "U")), order = __CLPK_integer(truncatingIfNeeded: n), lda = order
        var info: __CLPK_integer = 0
        dpotrf_(&uplo, &order, &a, &lda, &info)
        guard info == 0 else { return (info, 0) }
        dpotri_(&uplo, &order, &a, &lda, &info)
        return (0, info)
        #else
        let upper = CChar(UInt8(ascii: "U")), order = Int32(truncatingIfNeeded: n)
        let factor = LAPACKE_dpotrf(LAPACK_COL_MAJOR, upper, order, &a, order)
        guard factor == 0 else { return (factor, 0) }
        return (0, LAPACKE_dpotri(LAPACK_COL_MAJOR, upper, order, &a, order))
        #endif
    }
}
