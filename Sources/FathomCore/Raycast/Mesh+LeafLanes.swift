/// Leaves tested four triangles at a time: a leaf's triangles (up to 8) are gathered through their vertex
/// indices into SIMD lanes, 4 at a time, and run through the lane-wise watertight test.
extension Mesh {
    /// The triangles of leaf positions `leaf` (1 to 4) in lanes; lanes past its end repeat its last one.
    @inlinable @inline(__always)
    func leafLanes(_ leaf: Range<Int>) -> TriangleLanes {
        let last = leaf.upperBound &- 1
        let k0 = leaf.lowerBound, k1 = Swift.min(k0 &+ 1, last), k2 = Swift.min(k0 &+ 2, last), k3 = last
        let indices = leafIndices.baseAddress.unsafelyUnwrapped, base = vertexBase, stride = vertexStride
        @inline(__always) func corner(_ k: Int, _ j: Int) -> UnsafePointer<Float> {
            base + Int(indices[3 &* k &+ j]) &* stride
        }
        let a0 = corner(k0, 0), a1 = corner(k1, 0), a2 = corner(k2, 0), a3 = corner(k3, 0)
        let b0 = corner(k0, 1), b1 = corner(k1, 1), b2 = corner(k2, 1), b3 = corner(k3, 1)
        let c0 = corner(k0, 2), c1 = corner(k1, 2), c2 = corner(k2, 2), c3 = corner(k3, 2)
        return TriangleLanes(
            ax: SIMD4(a0[0], a1[0], a2[0], a3[0]), ay: SIMD4(a0[1], a1[1], a2[1], a3[1]), az: SIMD4(a0[2], a1[2], a2[2], a3[2]),
            bx: SIMD4(b0[0], b1[0], b2[0], b3[0]), by: SIMD4(b0[1], b1[1], b2[1], b3[1]), bz: SIMD4(b0[2], b1[2], b2[2], b3[2]),
            cx: SIMD4(c0[0], c1[0], c2[0], c3[0]), cy: SIMD4(c0[1], c1[1], c2[1], c3[1]), cz: SIMD4(c0[2], c1[2], c2[2], c3[2]))
    }

    /// The nearest hit among a leaf's triangles within [tmin, tmax] as (t, u, v, leaf position), or nil.
    /// Of equally near hits the later triangle wins, as when they are tested one by one with tmax
    /// lowered to each hit.
    @_transparent
    func nearestHit(in leaf: Range<Int>, _ ray: ShearedRay, tmin: Float, tmax: Float) -> (t: Float, u: Float, v: Float, k: Int)? {
        var nearest: (t: Float, u: Float, v: Float, k: Int)?
        var first = leaf.lowerBound
        while first < leaf.upperBound {
            let lanes = first..<Swift.min(first &+ 4, leaf.upperBound)
            let (t, u, v, hit) = ray.intersect(leafLanes(lanes), tmin: tmin, tmax: nearest?.t ?? tmax)
            if laneBits(hit) != 0 {
                let candidates = t.replacing(with: .infinity, where: .!hit)
                let closest = Swift.min(Swift.min(candidates.x, candidates.y), Swift.min(candidates.z, candidates.w))
                let lane = 63 &- laneBits(hit .& (candidates .== closest)).leadingZeroBitCount
                nearest = (closest, u[lane], v[lane], Swift.min(first &+ lane, lanes.upperBound &- 1))
            }
            first &+= 4
        }
        return nearest
    }

    /// True when any of a leaf's triangles is hit within [tmin, tmax].
    @inlinable @inline(__always)
    func anyHit(in leaf: Range<Int>, _ ray: ShearedRay, tmin: Float, tmax: Float) -> Bool {
        var first = leaf.lowerBound
        while first < leaf.upperBound {
            let lanes = first..<Swift.min(first &+ 4, leaf.upperBound)
            if laneBits(ray.intersect(leafLanes(lanes), tmin: tmin, tmax: tmax).hit) != 0 { return true }
            first &+= 4
        }
        return false
    }
}
