import CLanes

/// Four triangles in SIMD lanes (structure of arrays): lane i holds triangle i's vertices v0, v1, v2. The lane-wise
/// test reads the vectors by byte offset: v0's x, y, z at 0, 16, 32, then v1's and v2's (a test checks the layout).
@frozen
public struct TriangleLanes: Sendable {
    public var ax, ay, az, bx, by, bz, cx, cy, cz: SIMD4<Float>

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
    /// `intersect` on eight triangles at once (`fathom_lanes_watertight8`): lanes 0-3 from the block at `tri`, lanes 4-7
    /// from the block `high` bytes after it (0 for the same block again). Per lane, t, and the lanes whose triangle is
    /// hit within [tmin, tmax] as bits 0-7 (0-3 when `high` is 0); u and v of every lane go to uv[0..<8] and
    /// uv[8..<16]. Every lane runs exactly the scalar test's operations in the same order (including the Double
    /// recomputation of an edge function that is 0), so t and the hit/miss decision are bit-identical to `intersect`'s.
    @inlinable @inline(__always)
    func intersect(_ tri: UnsafeRawPointer, high: Int, tmin: Float, tmax: Float, uv: UnsafeMutablePointer<Float>) -> (t: SIMD8<Float>, hits: Int) {
        var hits: UInt32 = 0
        let t = fathom_lanes_watertight8(tri, high, Int32(kx), Int32(ky), Int32(kz), SIMD4(ox, oy, oz, 0), SIMD4(sx, sy, sz, 0),
                                         tmin, tmax, uv, &hits)
        return (t, Int(hits))
    }
}
