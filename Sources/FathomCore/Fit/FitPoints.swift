/// Caller-owned double-precision points for the fits: point i's coordinates are `dimensions` consecutive
/// doubles at i * stride. Validated once (`init`); the fits then read without checks.
public struct FitPoints: @unchecked Sendable {
    public let base: UnsafePointer<Double>
    public let count: Int
    /// Stride in doubles.
    public let stride: Int
    /// 2 or 3.
    public let dimensions: Int

    /// Validates: count >= 1, byte stride a multiple of 8 and >= 8 * dimensions (0 = packed), 8-byte alignment,
    /// no size overflow, every coordinate finite.
    public init(base: UnsafePointer<Double>, count: Int, strideBytes: Int, dimensions: Int) throws(FathomError) {
        precondition(dimensions == 2 || dimensions == 3)
        guard count >= 1 else { throw FathomError(.outOfRange, "count must be >= 1, got \(count)") }
        let bytes = strideBytes == 0 ? 8 * dimensions : strideBytes
        guard bytes >= 8 * dimensions, bytes % 8 == 0 else {
            throw FathomError(.outOfRange, "stride must be a multiple of 8 and >= \(8 * dimensions) bytes, got \(strideBytes)")
        }
        guard Int(bitPattern: base) % 8 == 0 else { throw FathomError(.outOfRange, "points must be 8-byte aligned") }
        guard !count.multipliedReportingOverflow(by: bytes).overflow else {
            throw FathomError(.overflow, "count * stride overflows (count \(count), stride \(bytes))")
        }
        self.base = base
        self.count = count
        self.stride = bytes / 8
        self.dimensions = dimensions
        for i in 0..<count {
            let p = base + i &* self.stride
            for c in 0..<dimensions where !p[c].isFinite {
                throw FathomError(.notFinite, "points[\(i)] has a non-finite coordinate \(p[c])")
            }
        }
    }

    /// Point i, with z = 0 for 2D points (no bounds check).
    @inlinable
    public subscript(i: Int) -> SIMD3<Double> {
        let p = base + i &* stride
        return SIMD3(p[0], p[1], dimensions == 3 ? p[2] : 0)
    }

    /// Runs `body` on packed points built from `values` (3D, or 2D with z ignored when dimensions is 2).
    public static func with<R>(_ values: [SIMD3<Double>], dimensions: Int,
                               _ body: (FitPoints) throws(FathomError) -> R) throws(FathomError) -> R {
        var flat = [Double]()
        flat.reserveCapacity(values.count * dimensions)
        for v in values {
            flat.append(v.x); flat.append(v.y)
            if dimensions == 3 { flat.append(v.z) }
        }
        let result: Result<R, FathomError> = flat.withUnsafeBufferPointer { buffer in
            do throws(FathomError) {
                return .success(try body(FitPoints(base: buffer.baseAddress!, count: values.count, strideBytes: 0, dimensions: dimensions)))
            } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// Centroid and covariance of a point set, accumulated about the first point (numerically close to a
/// two-pass computation while reading the points once), and the largest coordinate magnitude.
struct Moments {
    var centroid: SIMD3<Double>
    /// Covariance (divided by n), rows xx xy xz / yy yz / zz.
    var xx: Double, xy: Double, xz: Double, yy: Double, yz: Double, zz: Double
    var largestCoordinate: Double
    var count: Int

    init(_ points: FitPoints) {
        let n = points.count
        let origin = points[0]
        var s = SIMD3<Double>.zero
        var sxx = 0.0, sxy = 0.0, sxz = 0.0, syy = 0.0, syz = 0.0, szz = 0.0
        var largest = SIMD3<Double>.zero
        for i in 0..<n {
            let p = points[i]
            let q = p - origin
            s += q
            sxx += q.x * q.x; sxy += q.x * q.y; sxz += q.x * q.z
            syy += q.y * q.y; syz += q.y * q.z; szz += q.z * q.z
            largest = pointwiseMax(largest, SIMD3(abs(p.x), abs(p.y), abs(p.z)))
        }
        let m = s / Double(n), inverse = 1 / Double(n)
        centroid = origin + m
        xx = sxx * inverse - m.x * m.x; xy = sxy * inverse - m.x * m.y; xz = sxz * inverse - m.x * m.z
        yy = syy * inverse - m.y * m.y; yz = syz * inverse - m.y * m.z; zz = szz * inverse - m.z * m.z
        largestCoordinate = largest.max()
        count = n
    }

    /// Eigenvalues ascending (clamped at 0) and unit eigenvectors of the covariance, by LAPACK dsyevd on the
    /// leading `dimensions` x `dimensions` block.
    func principalAxes(dimensions: Int) throws(FathomError) -> (values: [Double], vectors: [SIMD3<Double>]) {
        let matrix = dimensions == 3 ? [xx, xy, xz, xy, yy, yz, xz, yz, zz] : [xx, xy, xy, yy]
        let (values, columns) = try LinearAlgebra.symmetricEigen(matrix, n: dimensions)
        let vectors = (0..<dimensions).map { c in
            dimensions == 3 ? SIMD3(columns[c * 3], columns[c * 3 + 1], columns[c * 3 + 2]) : SIMD3(columns[c * 2], columns[c * 2 + 1], 0)
        }
        return (values.map { Swift.max($0, 0) }, vectors)
    }

    /// Throws `.degenerate` when the points are coincident: largest spread <= 1e-9 * largest coordinate.
    func requireSpread(_ largestEigenvalue: Double) throws(FathomError) {
        let spread = largestEigenvalue.squareRoot()
        guard spread > 1e-9 * largestCoordinate, spread > 0 else {
            throw FathomError(.degenerate, "all \(count) points coincide (spread \(spread))")
        }
    }
}

/// `v` with its sign chosen so that its largest-magnitude component is positive.
func canonicalSign(_ v: SIMD3<Double>) -> SIMD3<Double> {
    let a = SIMD3(abs(v.x), abs(v.y), abs(v.z))
    let largest = a.x >= a.y && a.x >= a.z ? v.x : (a.y >= a.z ? v.y : v.z)
    return largest < 0 ? -v : v
}
