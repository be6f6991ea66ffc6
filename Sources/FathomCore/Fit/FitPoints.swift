/// Caller-owned points for the fits, in double or single precision: point i's coordinates are `dimensions`
/// consecutive scalars at i * stride. Single-precision points (what back-projection returns) are read in place and
/// widened to Double one by one, so every fit computes in double precision either way. The layout is validated by
/// `init`; finiteness by the first pass over the points (`Moments`), which every fit makes.
public struct FitPoints: @unchecked Sendable {
    /// The scalar type of the caller's coordinates.
    public enum Scalar: Sendable { case float32, float64 }

    public let base: UnsafeRawPointer
    public let scalar: Scalar
    public let count: Int
    /// Stride in scalars.
    public let stride: Int
    /// 2 or 3.
    public let dimensions: Int

    /// Double points. Validates: count >= 1, byte stride a multiple of 8 and >= 8 * dimensions (0 = packed), 8-byte
    /// alignment, no size overflow.
    public init(base: UnsafePointer<Double>, count: Int, strideBytes: Int, dimensions: Int) throws(FathomError) {
        try self.init(raw: UnsafeRawPointer(base), scalar: .float64, count: count, strideBytes: strideBytes, dimensions: dimensions)
    }

    /// Float points: the same rules with 4-byte scalars (a stride a multiple of 4 and >= 4 * dimensions, 4-byte
    /// alignment).
    public init(floats base: UnsafePointer<Float>, count: Int, strideBytes: Int, dimensions: Int) throws(FathomError) {
        try self.init(raw: UnsafeRawPointer(base), scalar: .float32, count: count, strideBytes: strideBytes, dimensions: dimensions)
    }

    private init(raw base: UnsafeRawPointer, scalar: Scalar, count: Int, strideBytes: Int, dimensions: Int) throws(FathomError) {
        precondition(dimensions == 2 || dimensions == 3)
        let size = scalar == .float64 ? 8 : 4
        guard count >= 1 else { throw FathomError(.outOfRange, "count must be >= 1, got \(count)") }
        let bytes = strideBytes == 0 ? size * dimensions : strideBytes
        guard bytes >= size * dimensions, bytes % size == 0 else {
            throw FathomError(.outOfRange, "stride must be a multiple of \(size) and >= \(size * dimensions) bytes, got \(strideBytes)")
        }
        guard Int(bitPattern: base) % size == 0 else { throw FathomError(.outOfRange, "points must be \(size)-byte aligned") }
        guard !count.multipliedReportingOverflow(by: bytes).overflow else {
            throw FathomError(.overflow, "count * stride overflows (count \(count), stride \(bytes))")
        }
        self.base = base
        self.scalar = scalar
        self.count = count
        self.stride = bytes / size
        self.dimensions = dimensions
    }

    /// Point i, with z = 0 for 2D points (no bounds check).
    @inlinable
    public subscript(i: Int) -> SIMD3<Double> {
        switch scalar {
        case .float64:
            let p = base.assumingMemoryBound(to: Double.self) + i &* stride
            return SIMD3(p[0], p[1], dimensions == 3 ? p[2] : 0)
        case .float32:
            let p = base.assumingMemoryBound(to: Float.self) + i &* stride
            return SIMD3(Double(p[0]), Double(p[1]), dimensions == 3 ? Double(p[2]) : 0)
        }
    }

    /// The points (z = 0 in 2D) that `keep` accepts, in order.
    func filter(_ keep: (SIMD3<Double>) -> Bool) -> [SIMD3<Double>] {
        (0..<count).map { self[$0] }.filter(keep)
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

extension FitPoints {
    /// Calls `body(x, y, z, lanes)` with the points four at a time, one coordinate per vector (z = 0 in 2D); the last
    /// group is padded with copies of point 0 and `lanes` says how many are real. Packed double 2D and 3D points are read
    /// with three (or two) vector loads per group.
    @inline(__always)
    func forEachQuad(_ body: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, Int) -> Void) {
        let whole = count & ~3
        let raw = base
        var i = 0
        if scalar == .float64, dimensions == 3, stride == 3 {
            while i < whole {
                let offset = i &* 24
                let a = raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)        // x0 y0 z0 x1
                let b = raw.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD4<Double>.self)  // y1 z1 x2 y2
                let c = raw.loadUnaligned(fromByteOffset: offset &+ 64, as: SIMD4<Double>.self)  // z2 x3 y3 z3
                body(SIMD4(a[0], a[3], b[2], c[1]), SIMD4(a[1], b[0], b[3], c[2]), SIMD4(a[2], b[1], c[0], c[3]), 4)
                i &+= 4
            }
        } else if scalar == .float64, dimensions == 2, stride == 2 {
            while i < whole {
                let offset = i &* 16
                let a = raw.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)        // x0 y0 x1 y1
                let b = raw.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD4<Double>.self)  // x2 y2 x3 y3
                body(SIMD4(a[0], a[2], b[0], b[2]), SIMD4(a[1], a[3], b[1], b[3]), .zero, 4)
                i &+= 4
            }
        } else {
            while i < whole {
                let p0 = self[i], p1 = self[i &+ 1], p2 = self[i &+ 2], p3 = self[i &+ 3]
                body(SIMD4(p0.x, p1.x, p2.x, p3.x), SIMD4(p0.y, p1.y, p2.y, p3.y), SIMD4(p0.z, p1.z, p2.z, p3.z), 4)
                i &+= 4
            }
        }
        guard i < count else { return }
        let pad = self[0]
        var x = SIMD4(repeating: pad.x), y = SIMD4(repeating: pad.y), z = SIMD4(repeating: pad.z)
        for lane in 0..<(count &- i) {
            let p = self[i &+ lane]
            x[lane] = p.x; y[lane] = p.y; z[lane] = p.z
        }
        body(x, y, z, count &- i)
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
    /// The largest coordinate magnitude the fits take: squares and their sums over any count stay finite.
    static let largestSupported = 1e100

    /// One pass over the points; throws `.notFinite` naming the first point with a NaN or infinite coordinate,
    /// `.outOfRange` for a coordinate beyond `largestSupported`.
    init(_ points: FitPoints) throws(FathomError) {
        let n = points.count
        let origin = points[0]
        let ox = SIMD4(repeating: origin.x), oy = SIMD4(repeating: origin.y), oz = SIMD4(repeating: origin.z)
        var sx = SIMD4<Double>.zero, sy = sx, sz = sx, sxx = sx, syy = sx, szz = sx, sxy = sx, syz = sx, szx = sx
        var largest = SIMD4<Double>.zero
        points.forEachQuad { x, y, z, _ in
            // Padding copies point 0: q = 0 adds nothing.
            let qx = x - ox, qy = y - oy, qz = z - oz
            sx += qx; sy += qy; sz += qz
            sxx += qx * qx; syy += qy * qy; szz += qz * qz
            sxy += qx * qy; syz += qy * qz; szx += qz * qx
            largest = lanesMax(largest, lanesMax(lanesMax(magnitude(x), magnitude(y)), magnitude(z)))
        }
        let s = SIMD3(sx.sum(), sy.sum(), sz.sum())
        let squares = SIMD3(sxx.sum(), syy.sum(), szz.sum()), products = SIMD3(sxy.sum(), syz.sum(), szx.sum())
        guard (s + squares + products).sum().isFinite else {
            if let bad = (0..<n).first(where: { !(points[$0] * 0).sum().isZero }) {
                throw FathomError(.notFinite, "points[\(bad)] has a non-finite coordinate: (\(points[bad].x), \(points[bad].y), \(points[bad].z))")
            }
            throw FathomError(.outOfRange, "coordinates up to \(Self.largestSupported) are supported; the points' squares overflow")
        }
        guard largest.max() <= Self.largestSupported else {
            throw FathomError(.outOfRange, "coordinates up to \(Self.largestSupported) are supported, got one of \(largest.max())")
        }
        let inverse = 1 / Double(n), m = s * inverse
        centroid = origin + m
        xx = squares.x * inverse - m.x * m.x; yy = squares.y * inverse - m.y * m.y; zz = squares.z * inverse - m.z * m.z
        xy = products.x * inverse - m.x * m.y; yz = products.y * inverse - m.y * m.z; xz = products.z * inverse - m.z * m.x
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

/// |v| per lane.
@inline(__always)
func magnitude(_ v: SIMD4<Double>) -> SIMD4<Double> { lanesMax(v, -v) }

@inline(__always)
func lanesMax(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
    SIMD4(Swift.max(a.x, b.x), Swift.max(a.y, b.y), Swift.max(a.z, b.z), Swift.max(a.w, b.w))
}

@inline(__always)
func lanesMin(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
    SIMD4(Swift.min(a.x, b.x), Swift.min(a.y, b.y), Swift.min(a.z, b.z), Swift.min(a.w, b.w))
}
