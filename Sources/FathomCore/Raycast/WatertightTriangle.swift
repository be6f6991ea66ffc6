/// The watertight ray-triangle test of Woop, Benthin and Wald (JCGT 2013).
///
/// The ray is turned into a shear frame where it runs along +z from the origin; each triangle edge then
/// gets a 2D edge function (U, V, W) computed from the same vertex values by every triangle sharing the
/// edge, so a ray through an edge or vertex is never lost between neighbours. An edge function that is
/// exactly 0 is recomputed in Double, as the paper prescribes, so its sign is exact.
@frozen
public struct ShearedRay: Sendable {
    public let origin: SIMD3<Float>
    /// Rows of the shear: (x', y', z') = (dot(rx, p), dot(ry, p), dot(rz, p)) for p relative to the origin,
    /// i.e. x' = p[kx] - sx p[kz], y' = p[ky] - sy p[kz], z' = sz p[kz]. Written as a matrix so no lane is
    /// picked at run time; the extra terms are exact (products with 0 and 1), and every vertex is
    /// transformed the same way whichever triangle it belongs to, which is what watertightness needs.
    @usableFromInline let rx: SIMD3<Float>, ry: SIMD3<Float>, rz: SIMD3<Float>

    /// Precomputes the shear for a ray with a non-zero direction.
    @inlinable
    public init(_ ray: Ray) {
        let d = ray.direction
        let a = componentAbs(d)
        let kz = a.x >= a.y ? (a.x >= a.z ? 0 : 2) : (a.y >= a.z ? 1 : 2)
        var kx = kz == 2 ? 0 : kz + 1
        var ky = kx == 2 ? 0 : kx + 1
        if d[kz] < 0 { swap(&kx, &ky) }  // keep the winding
        let sx = d[kx] / d[kz], sy = d[ky] / d[kz], sz = 1 / d[kz]
        var x = SIMD3<Float>.zero, y = SIMD3<Float>.zero, z = SIMD3<Float>.zero
        x[kx] = 1; x[kz] = -sx
        y[ky] = 1; y[kz] = -sy
        z[kz] = sz
        rx = x; ry = y; rz = z
        origin = ray.origin
    }

    /// The hit of the triangle (v0, v1, v2) within [tmin, tmax], as (t, u, v) with point =
    /// (1-u-v) v0 + u v1 + v v2, or nil. Both sides count.
    @inlinable @inline(__always)
    public func intersect(_ v0: SIMD3<Float>, _ v1: SIMD3<Float>, _ v2: SIMD3<Float>, tmin: Float, tmax: Float) -> (t: Float, u: Float, v: Float)? {
        let a = v0 - origin, b = v1 - origin, c = v2 - origin
        let ax = dot(rx, a), ay = dot(ry, a)
        let bx = dot(rx, b), by = dot(ry, b)
        let cx = dot(rx, c), cy = dot(ry, c)
        var e0 = cx * by - cy * bx
        var e1 = ax * cy - ay * cx
        var e2 = bx * ay - by * ax
        if e0 == 0 || e1 == 0 || e2 == 0 {
            e0 = Float(Double(cx) * Double(by) - Double(cy) * Double(bx))
            e1 = Float(Double(ax) * Double(cy) - Double(ay) * Double(cx))
            e2 = Float(Double(bx) * Double(ay) - Double(by) * Double(ax))
        }
        if (e0 < 0 || e1 < 0 || e2 < 0) && (e0 > 0 || e1 > 0 || e2 > 0) { return nil }
        let det = e0 + e1 + e2
        if det == 0 { return nil }
        let scaledT = e0 * dot(rz, a) + e1 * dot(rz, b) + e2 * dot(rz, c)
        let inverse = 1 / det
        let t = scaledT * inverse
        guard t >= tmin && t <= tmax else { return nil }
        return (t, e1 * inverse, e2 * inverse)
    }
}

/// Geometric unit normal of a triangle, (v1 - v0) x (v2 - v0) normalized; zero for a degenerate one.
@inlinable
public func triangleNormal(_ v0: SIMD3<Float>, _ v1: SIMD3<Float>, _ v2: SIMD3<Float>) -> SIMD3<Float> {
    let n = cross(v1 - v0, v2 - v0)
    let l = length(n)
    return l > 0 && l.isFinite ? n / l : .zero
}

/// True when the triangle has exactly zero area: (v1 - v0) x (v2 - v0) is zero, computed in Double (the
/// differences and products of floats are exact there but for extreme exponent ranges).
@inlinable
public func isZeroArea(_ v0: SIMD3<Float>, _ v1: SIMD3<Float>, _ v2: SIMD3<Float>) -> Bool {
    cross(SIMD3<Double>(v1) - SIMD3<Double>(v0), SIMD3<Double>(v2) - SIMD3<Double>(v0)) == .zero
}
