import CLanes

/// Four triangles in SIMD lanes (structure of arrays): lane i holds triangle i's vertices v0, v1, v2.
@frozen @usableFromInline
struct TriangleLanes {
    @usableFromInline var ax, ay, az, bx, by, bz, cx, cy, cz: SIMD4<Float>

    @inlinable @inline(__always)
    init(ax: SIMD4<Float>, ay: SIMD4<Float>, az: SIMD4<Float>, bx: SIMD4<Float>, by: SIMD4<Float>, bz: SIMD4<Float>,
         cx: SIMD4<Float>, cy: SIMD4<Float>, cz: SIMD4<Float>) {
        self.ax = ax; self.ay = ay; self.az = az
        self.bx = bx; self.by = by; self.bz = bz
        self.cx = cx; self.cy = cy; self.cz = cz
    }
}

extension TriangleLanes {
    /// Lane `lane`'s triangle (0...3).
    @inlinable @inline(__always)
    func triangle(lane: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        (SIMD3(ax[lane], ay[lane], az[lane]), SIMD3(bx[lane], by[lane], bz[lane]), SIMD3(cx[lane], cy[lane], cz[lane]))
    }

    /// Sets lane `lane` (0...3) to the triangle (a, b, c).
    mutating func set(lane: Int, _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) {
        ax[lane] = a.x; ay[lane] = a.y; az[lane] = a.z
        bx[lane] = b.x; by[lane] = b.y; bz[lane] = b.z
        cx[lane] = c.x; cy[lane] = c.y; cz[lane] = c.z
    }
}

extension ShearedRay {
    /// `intersect` on four triangles at once: per lane, the hit (t, u, v) and whether the lane's triangle
    /// is hit within [tmin, tmax]. Every lane runs exactly the scalar test's operations in the same order
    /// (including the Double recomputation of an edge function that is 0), so t and the hit/miss decision
    /// are bit-identical to `intersect`'s.
    @inlinable @inline(__always)
    func intersect(_ tri: TriangleLanes, tmin: Float, tmax: Float) -> (t: SIMD4<Float>, u: SIMD4<Float>, v: SIMD4<Float>, hit: SIMDMask<SIMD4<Int32>>) {
        let ox = SIMD4(repeating: origin.x), oy = SIMD4(repeating: origin.y), oz = SIMD4(repeating: origin.z)
        // dot(r, p) is ((r.x p.x + r.y p.y) + r.z p.z), as SIMD3's sum().
        @inline(__always) func shear(_ r: SIMD3<Float>, _ x: SIMD4<Float>, _ y: SIMD4<Float>, _ z: SIMD4<Float>) -> SIMD4<Float> {
            (SIMD4(repeating: r.x) * x + SIMD4(repeating: r.y) * y) + SIMD4(repeating: r.z) * z
        }
        let pax = tri.ax - ox, pay = tri.ay - oy, paz = tri.az - oz
        let pbx = tri.bx - ox, pby = tri.by - oy, pbz = tri.bz - oz
        let pcx = tri.cx - ox, pcy = tri.cy - oy, pcz = tri.cz - oz
        let ax = shear(rx, pax, pay, paz), ay = shear(ry, pax, pay, paz)
        let bx = shear(rx, pbx, pby, pbz), by = shear(ry, pbx, pby, pbz)
        let cx = shear(rx, pcx, pcy, pcz), cy = shear(ry, pcx, pcy, pcz)
        var e0 = cx * by - cy * bx
        var e1 = ax * cy - ay * cx
        var e2 = bx * ay - by * ax
        let zero = (e0 .== 0) .| (e1 .== 0) .| (e2 .== 0)
        if laneBits(zero) != 0 {
            // In Double (exact products, one rounding), as the scalar test does; only in the lanes with a 0.
            let mask = unsafeBitCast(zero, to: SIMD4<Int32>.self)
            e0 = fathom_lanes_select4(mask, fathom_lanes_difference_of_products4(cx, by, cy, bx), e0)
            e1 = fathom_lanes_select4(mask, fathom_lanes_difference_of_products4(ax, cy, ay, cx), e1)
            e2 = fathom_lanes_select4(mask, fathom_lanes_difference_of_products4(bx, ay, by, ax), e2)
        }
        let det = e0 + e1 + e2
        let az = shear(rz, pax, pay, paz), bz = shear(rz, pbx, pby, pbz), cz = shear(rz, pcx, pcy, pcz)
        let scaledT = e0 * az + e1 * bz + e2 * cz
        let inverse = 1 / det
        let t = scaledT * inverse
        let hit = fathom_lanes_triangle_hits4(e0, e1, e2, det, t, tmin, tmax)
        return (t, e1 * inverse, e2 * inverse, unsafeBitCast(hit, to: SIMDMask<SIMD4<Int32>>.self))
    }
}
