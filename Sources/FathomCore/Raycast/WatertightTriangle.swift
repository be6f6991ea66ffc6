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
    /// The shear frame's axes (0, 1, 2 for x, y, z): kz is the axis of the largest |direction component| (the
    /// first of equal ones), kx and ky the next two in cyclic order, swapped when d[kz] < 0 to keep the winding.
    @usableFromInline let kx: Int, ky: Int, kz: Int
    /// sx = d[kx] / d[kz], sy = d[ky] / d[kz], sz = 1 / d[kz]: a point p relative to the origin goes to
    /// (x', y', z') = (p[kx] - sx p[kz], p[ky] - sy p[kz], sz p[kz]). Every vertex is transformed the same way
    /// whichever triangle it belongs to, which is what watertightness needs.
    @usableFromInline let sx: Float, sy: Float, sz: Float
    /// origin[kx], origin[ky], origin[kz].
    @usableFromInline let ox: Float, oy: Float, oz: Float

    /// Precomputes the shear for a ray with a non-zero direction. The axes are picked with lane masks, not
    /// branches (`fathom_lanes_shear_frame`): for incoherent rays a branch on the axis mispredicts.
    @inlinable @inline(__always)
    public init(_ ray: Ray) {
        let d = SIMD4(ray.direction, 0)
        let axes = fathom_lanes_shear_axes(d), s = fathom_lanes_shear_factors(d)
        kx = Int(axes.x); ky = Int(axes.y); kz = Int(axes.z)
        sx = s.x; sy = s.y; sz = s.z
        origin = ray.origin
        ox = ray.origin[kx]; oy = ray.origin[ky]; oz = ray.origin[kz]
    }

    /// The hit of the triangle (v0, v1, v2) within [tmin, tmax], as (t, u, v) with point =
    /// (1-u-v) v0 + u v1 + v v2, or nil. Both sides count.
    @inlinable @inline(__always)
    public func intersect(_ v0: SIMD3<Float>, _ v1: SIMD3<Float>, _ v2: SIMD3<Float>, tmin: Float, tmax: Float) -> (t: Float, u: Float, v: Float)? {
        @inline(__always) func shear(_ v: SIMD3<Float>) -> (x: Float, y: Float, z: Float) {
            let pz = v[kz] - oz
            return ((v[kx] - ox) - sx * pz, (v[ky] - oy) - sy * pz, sz * pz)
        }
        let (ax, ay, az) = shear(v0), (bx, by, bz) = shear(v1), (cx, cy, cz) = shear(v2)
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
        let scaledT = e0 * az + e1 * bz + e2 * cz
        let inverse = 1 / det
        let t = scaledT * inverse
        // A det so small that its reciprocal overflows (a ray in the triangle's plane) or a t beyond the floats
        // is no hit: tmax may be infinite, and an infinite t has no point.
        guard inverse.isFinite, t.isFinite, t >= tmin && t <= tmax else { return nil }
        return (t, e1 * inverse, e2 * inverse)
    }
}

/// Geometric unit normal of a triangle, (v1 - v0) x (v2 - v0) normalized; zero for a degenerate one. In Double,
/// where the cross product of any float triangle and its squared length neither overflow nor underflow (in
/// float they do for edges beyond about 1e10 or below 1e-10).
@inlinable @inline(__always)
public func triangleNormal(_ v0: SIMD3<Float>, _ v1: SIMD3<Float>, _ v2: SIMD3<Float>) -> SIMD3<Float> {
    unit(cross(SIMD3<Double>(v1) - SIMD3<Double>(v0), SIMD3<Double>(v2) - SIMD3<Double>(v0)))
}

/// True when the triangle has exactly zero area: (v1 - v0) x (v2 - v0) is zero, computed in Double (the
/// differences and products of floats are exact there but for extreme exponent ranges).
@inlinable
public func isZeroArea(_ v0: SIMD3<Float>, _ v1: SIMD3<Float>, _ v2: SIMD3<Float>) -> Bool {
    cross(SIMD3<Double>(v1) - SIMD3<Double>(v0), SIMD3<Double>(v2) - SIMD3<Double>(v0)) == .zero
}
