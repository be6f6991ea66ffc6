/// Leaves tested all at once: a leaf's triangles (up to 8, from a multiple of 4 on, in one or two blocks of four) run
/// through the lane-wise watertight test in eight lanes.
extension Mesh {
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

    /// The triangles of a leaf at positions 4 block ..< 4 block + 8 (`two`) or + 4, as the 8-lane test reads them: the
    /// first block, and how far after it the second lies (0 when the leaf has one block: its lanes again). A copied
    /// mesh's stored blocks, or a borrowed mesh's gathered into `gathered[0...1]`.
    @inlinable @inline(__always)
    func leafLanes(block: Int, two: Bool, gathered: UnsafeMutablePointer<TriangleLanes>) -> (UnsafeRawPointer, high: Int) {
        let high = two ? MemoryLayout<TriangleLanes>.stride : 0
        if let blocks { return (UnsafeRawPointer(blocks.baseAddress.unsafelyUnwrapped + block), high) }
        gathered.pointee = gatheredLanes(block: block)
        if two { (gathered + 1).pointee = gatheredLanes(block: block &+ 1) }
        return (UnsafeRawPointer(gathered), high)
    }

    /// The nearest hit among a leaf's triangles within [tmin, tmax] as (t, u, v, leaf position), or nil.
    /// Of equally near hits the later triangle wins, as when they are tested one by one with tmax
    /// lowered to each hit. All of a leaf's triangles (up to 8) are tested at once: a leaf of one block
    /// tests it twice, its second four lanes ignored. Transparent: the traversal loop is past the
    /// optimizer's size limit, where @inline(__always) left this a call with its arguments in memory.
    @_transparent
    func nearestHit(in leaf: Range<Int>, _ ray: ShearedRay, tmin: Float, tmax: Float, scratch: LeafScratch) -> (t: Float, u: Float, v: Float, k: Int)? {
        let first = leaf.lowerBound, two = leaf.count > 4
        let (block, high) = leafLanes(block: first >> 2, two: two, gathered: scratch.gathered)
        let (t, lanes) = ray.intersect(block, high: high, tmin: tmin, tmax: tmax, uv: scratch.uv)
        var bits = lanes
        guard bits != 0 else { return nil }
        var closest = Float.infinity, lane = 0
        while bits != 0 {
            // The nearest of the lanes hit, the later of equally near ones.
            let k = bits.trailingZeroBitCount
            bits &= bits &- 1
            if t[k] <= closest { closest = t[k]; lane = k }
        }
        return (closest, scratch.uv[lane], scratch.uv[8 &+ lane], Swift.min(first &+ lane, leaf.upperBound &- 1))
    }

    /// True when any of a leaf's triangles is hit within [tmin, tmax].
    @inlinable @inline(__always)
    func anyHit(in leaf: Range<Int>, _ ray: ShearedRay, tmin: Float, tmax: Float, scratch: LeafScratch) -> Bool {
        let two = leaf.count > 4
        let (block, high) = leafLanes(block: leaf.lowerBound >> 2, two: two, gathered: scratch.gathered)
        return ray.intersect(block, high: high, tmin: tmin, tmax: tmax, uv: scratch.uv).hits != 0
    }
}
