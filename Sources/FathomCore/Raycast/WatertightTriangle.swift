import CLanes

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

    /// Precomputes the shear for a ray with a non-zero direction. kz is the axis of the largest |component|
    /// (the first of equal ones), kx and ky the next two in cyclic order, swapped when d[kz] < 0 to keep the
    /// winding. Chosen with lane masks, not branches (`fathom_lanes_shear_row`): for incoherent rays a branch
    /// on the axis mispredicts.
    @inlinable @inline(__always)
    public init(_ ray: Ray) {
        let d = SIMD4(ray.direction, 0)
        @inline(__always) func row(_ r: Int32) -> SIMD3<Float> {
            let v = fathom_lanes_shear_row(d, r)
            return SIMD3(v.x, v.y, v.z)
        }
        rx = row(0)
        ry = row(1)
        rz = row(2)
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
@inlinable @inline(__always)
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
