/// Leaves tested four triangles at a time: a leaf's triangles (up to 8, from a multiple of 4 on) run through
/// the lane-wise watertight test one block of four at a time.
extension Mesh {
    /// The triangles of leaf positions 4 block ..< 4 block + 4 in lanes: a copied mesh's stored block, or a borrowed
    /// mesh's vertices gathered through their indices into `gathered` (scratch memory of the traversal).
    @inlinable @inline(__always)
    func leafLanes(block: Int, gathered: UnsafeMutablePointer<TriangleLanes>) -> UnsafePointer<TriangleLanes> {
        if let blocks { return UnsafePointer(blocks.baseAddress.unsafelyUnwrapped + block) }
        gathered.pointee = gatheredLanes(block: block)
        return UnsafePointer(gathered)
    }

    /// A borrowed mesh's triangles of leaf positions 4 block ..< 4 block + 4, gathered through their indices.
    @inlinable @inline(__always)
    func gatheredLanes(block: Int) -> TriangleLanes {
        let indices = leafIndices.baseAddress.unsafelyUnwrapped + 12 &* block, base = vertexBase, stride = vertexStride
        @inline(__always) func corner(_ lane: Int, _ j: Int) -> UnsafePointer<Float> {
            base + Int(indices[3 &* lane &+ j]) &* stride
        }
        let a0 = corner(0, 0), a1 = corner(1, 0), a2 = corner(2, 0), a3 = corner(3, 0)
        let b0 = corner(0, 1), b1 = corner(1, 1), b2 = corner(2, 1), b3 = corner(3, 1)
        let c0 = corner(0, 2), c1 = corner(1, 2), c2 = corner(2, 2), c3 = corner(3, 2)
        return TriangleLanes(
            ax: SIMD4(a0[0], a1[0], a2[0], a3[0]), ay: SIMD4(a0[1], a1[1], a2[1], a3[1]), az: SIMD4(a0[2], a1[2], a2[2], a3[2]),
            bx: SIMD4(b0[0], b1[0], b2[0], b3[0]), by: SIMD4(b0[1], b1[1], b2[1], b3[1]), bz: SIMD4(b0[2], b1[2], b2[2], b3[2]),
            cx: SIMD4(c0[0], c1[0], c2[0], c3[0]), cy: SIMD4(c0[1], c1[1], c2[1], c3[1]), cz: SIMD4(c0[2], c1[2], c2[2], c3[2]))
    }

    /// The nearest hit among a leaf's triangles within [tmin, tmax] as (t, u, v, leaf position), or nil.
    /// Of equally near hits the later triangle wins, as when they are tested one by one with tmax
    /// lowered to each hit. Transparent: the traversal loop is past the optimizer's size limit, where
    /// @inline(__always) left this a call with its arguments in memory.
    @_transparent
    func nearestHit(in leaf: Range<Int>, _ ray: ShearedRay, tmin: Float, tmax: Float, scratch: LeafScratch) -> (t: Float, u: Float, v: Float, k: Int)? {
        var nearest: (t: Float, u: Float, v: Float, k: Int)?
        var first = leaf.lowerBound
        while first < leaf.upperBound {
            let block = leafLanes(block: first >> 2, gathered: scratch.gathered)
            let (t, hits) = ray.intersect(block, tmin: tmin, tmax: nearest?.t ?? tmax, uv: scratch.uv)
            if hits != 0 {
                var closest = Float.infinity, lane = 0, bits = hits
                while bits != 0 {
                    // The nearest of the lanes hit, the later of equally near ones.
                    let k = bits.trailingZeroBitCount
                    bits &= bits &- 1
                    if t[k] <= closest { closest = t[k]; lane = k }
                }
                nearest = (closest, scratch.uv[lane], scratch.uv[4 &+ lane], Swift.min(first &+ lane, leaf.upperBound &- 1))
            }
            first &+= 4
        }
        return nearest
    }

    /// True when any of a leaf's triangles is hit within [tmin, tmax].
    @inlinable @inline(__always)
    func anyHit(in leaf: Range<Int>, _ ray: ShearedRay, tmin: Float, tmax: Float, scratch: LeafScratch) -> Bool {
        var first = leaf.lowerBound
        while first < leaf.upperBound {
            let block = leafLanes(block: first >> 2, gathered: scratch.gathered)
            if ray.intersect(block, tmin: tmin, tmax: tmax, uv: scratch.uv).hits != 0 { return true }
            first &+= 4
        }
        return false
    }
}
