import CLanes

/// Builds an 8-wide BVH with the surface-area heuristic over binned centroids (16 bins, all three axes
/// binned in one pass; ranges of 2^12 or more binned from every 4th primitive).
///
/// Each node starts with its whole primitive range as one child and splits the child of largest area
/// (of most triangles among equal areas) among those with more than `leafSize` triangles until it has
/// eight; then children with at most `leafSize` become leaves, which the leaf test runs at once (free
/// slots are not spent splitting them further). Ranges whose centroids coincide are halved by count
/// instead. From depth `sahDepthLimit` on, every split halves by count the
/// child of most triangles, so each level divides the count by 8: for up to 2^28 triangles the tree is
/// at most sahDepthLimit + 10 levels deep (traversal stacks are sized for that).
struct BVHBuilder {
    static let leafSize = 8
    static let binCount = Int(FATHOM_SAH_MAX_BINS)
    static let sahDepthLimit = 16
    /// Ranges of this many primitives or more are binned from a sample (`bestSAHSplit`).
    static let sampledBinning = 1 << 12
    /// The deepest tree this builder can make (see above).
    static let maxDepth = sahDepthLimit + 10

    /// A primitive's bounds; lo.w holds its triangle index (bit pattern).
    struct PrimRef {
        var lo: SIMD4<Float>
        var hi: SIMD4<Float>
        var id: Int { Int(lo.w.bitPattern) }
        var centroid2: SIMD4<Float> { lo + hi }  // twice the centroid: binning needs no halving
    }

    /// A range of primitives with its bounds and centroid bounds (both as 2x centroids).
    struct Span {
        var range: Range<Int>
        var lo: SIMD4<Float>, hi: SIMD4<Float>
        var cLo: SIMD4<Float>, cHi: SIMD4<Float>
        var area: Float { BVHBuilder.area(lo, hi) }
    }

    private(set) var nodes: [BVHNode] = []
    /// Leaf position -> triangle index, or -1 for padding: each leaf starts at a multiple of 4 (its block,
    /// `BVHNode.leafCode`), leaves in the order of their triangles in `prims`.
    private(set) var order: [Int] = []
    private(set) var depth = 0
    private let prims: UnsafeMutableBufferPointer<PrimRef>
    /// `prims` for the C passes (sah.h), which read a PrimRef as 8 floats.
    private let primBase: UnsafeMutableRawPointer

    /// Builds over `count` primitives, primitive i with the bounds `bounds(i)`.
    init(count: Int, bounds: (Int) -> (lo: SIMD3<Float>, hi: SIMD3<Float>)) {
        prims = .allocate(capacity: count)
        primBase = UnsafeMutableRawPointer(prims.baseAddress.unsafelyUnwrapped)
        for i in 0..<count {
            let b = bounds(i)
            prims[i] = PrimRef(lo: SIMD4(b.lo, Float(bitPattern: UInt32(i))), hi: SIMD4(b.hi, 0))
        }
        defer { prims.deallocate() }
        guard count > 0 else { return }
        nodes.reserveCapacity(count / 2 + 1)
        order.reserveCapacity(count + count / 16)
        let root = span(0..<count)
        if count <= BVHBuilder.leafSize {
            var node = BVHNode.empty
            BVHBuilder.set(&node, slot: 0, span: root, child: leaf(root.range))
            nodes.append(node)
            depth = 1
        } else {
            _ = buildNode(root, depth: 1)
        }
    }

    /// The code of a leaf over `prims[range]`, whose triangles it appends to `order` from the next block
    /// on. Called for leaves in the order of their ranges (the depth-first build in slot order), so `order`
    /// keeps the triangles in `prims`' order.
    private mutating func leaf(_ range: Range<Int>) -> Int32 {
        let block = order.count >> 2
        order.append(contentsOf: prims[range].lazy.map(\.id))
        while order.count & 3 != 0 { order.append(-1) }
        return BVHNode.leafCode(block: block, count: range.count)
    }

    static func area(_ lo: SIMD4<Float>, _ hi: SIMD4<Float>) -> Float {
        let d = fathom_lanes_max4(.zero, hi - lo)  // Swift.max(hi - lo, 0) per lane
        return d.x * d.y + d.y * d.z + d.z * d.x
    }

    private func span(_ range: Range<Int>) -> Span {
        var lo = SIMD4<Float>(repeating: .infinity), hi = SIMD4<Float>(repeating: -.infinity)
        var cLo = lo, cHi = hi
        for i in range {
            let p = prims[i]
            lo = lanesMin(lo, p.lo); hi = lanesMax(hi, p.hi)
            let c = p.centroid2
            cLo = lanesMin(cLo, c); cHi = lanesMax(cHi, c)
        }
        return Span(range: range, lo: lo, hi: hi, cLo: cLo, cHi: cHi)
    }

    private static func set(_ node: inout BVHNode, slot: Int, span: Span, child: Int32) {
        node.minX[slot] = span.lo.x; node.minY[slot] = span.lo.y; node.minZ[slot] = span.lo.z
        node.maxX[slot] = span.hi.x; node.maxY[slot] = span.hi.y; node.maxZ[slot] = span.hi.z
        node.child[slot] = child
    }

    /// Builds the node for a span of more than leafSize primitives; returns its index.
    private mutating func buildNode(_ whole: Span, depth: Int) -> Int {
        self.depth = Swift.max(self.depth, depth)
        let index = nodes.count
        nodes.append(.empty)
        var children = [whole]
        let byCount = depth >= BVHBuilder.sahDepthLimit
        while children.count < BVHNode.width {
            var pick = -1
            var pickSize: (Float, Int) = (-1, 0)
            for (k, c) in children.enumerated() where c.range.count > BVHBuilder.leafSize {
                let size = byCount ? (0, c.range.count) : (c.area, c.range.count)
                if size > pickSize { pickSize = size; pick = k }
            }
            guard pick >= 0 else { break }
            let (left, right) = split(children[pick], depth: depth)
            children[pick] = left
            children.insert(right, at: pick + 1)
        }
        var node = BVHNode.empty
        for (slot, c) in children.enumerated() {
            let code = c.range.count <= BVHBuilder.leafSize ? leaf(c.range) : BVHNode.code(ofNode: buildNode(c, depth: depth + 1))
            BVHBuilder.set(&node, slot: slot, span: c, child: code)
        }
        nodes[index] = node
        return index
    }

    /// Splits a span into two non-empty spans, partitioning `prims` in place.
    private func split(_ s: Span, depth: Int) -> (Span, Span) {
        if depth < BVHBuilder.sahDepthLimit, let (axis, position, scale) = bestSAHSplit(s) {
            // Partition, accumulating both sides' bounds on the way (no second pass over the range).
            let (mid, left, right) = withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 4) { out in
                let mid = fathom_sah_partition(primBase, s.range.lowerBound, s.range.upperBound, Int32(axis), s.cLo[axis], scale,
                                               Float(position), UnsafeMutableRawPointer(out.baseAddress.unsafelyUnwrapped))
                return (mid, BVHBuilder.span(s.range.lowerBound..<mid, box: out[0], centroids: out[1]),
                        BVHBuilder.span(mid..<s.range.upperBound, box: out[2], centroids: out[3]))
            }
            if mid > s.range.lowerBound && mid < s.range.upperBound { return (left, right) }
        }
        // Coincident centroids (or too deep): halve by count along the widest centroid axis.
        let e = s.cHi - s.cLo
        let axis = e.x >= e.y ? (e.x >= e.z ? 0 : 2) : (e.y >= e.z ? 1 : 2)
        let mid = s.range.lowerBound + s.range.count / 2
        var slice = UnsafeMutableBufferPointer(rebasing: prims[s.range])
        slice.sort { $0.centroid2[axis] < $1.centroid2[axis] }
        return (span(s.range.lowerBound..<mid), span(mid..<s.range.upperBound))
    }

    /// A span from the boxes `fathom_sah_partition` writes, (lo, -hi).
    private static func span(_ range: Range<Int>, box: SIMD8<Float>, centroids: SIMD8<Float>) -> Span {
        Span(range: range, lo: box.lowHalf, hi: -box.highHalf, cLo: centroids.lowHalf, cHi: -centroids.highHalf)
    }

    /// The SAH-best (axis, bin position, scale), or nil when the centroids coincide on every axis.
    private func bestSAHSplit(_ s: Span) -> (axis: Int, position: Int, scale: Float)? {
        // As many bins as primitives, up to binCount: a small range needs no more, and the sweep over
        // the bins costs the same for every split, however few primitives it has.
        let n = Swift.min(BVHBuilder.binCount, s.range.count)
        let extent = s.cHi - s.cLo
        let scale = SIMD4<Float>(repeating: Float(n) * (1 - 1e-6)) / extent
        var axes: UInt32 = 0
        for axis in 0..<3 where extent[axis] > 0 && extent[axis].isFinite { axes |= 1 << UInt32(axis) }
        guard axes != 0 else { return nil }
        // A range of 2^12 or more is binned from every 4th primitive (counts scaled to match): the top levels'
        // SAH hardly changes, and their binning passes read a quarter of the primitives.
        let step = s.range.count >= BVHBuilder.sampledBinning ? 4 : 1
        let best = fathom_sah_best_split(primBase, s.range.lowerBound, s.range.upperBound, step, s.range.count, s.cLo, scale,
                                         Int32(n), axes)
        guard best.axis >= 0 else { return nil }
        let axis = Int(truncatingIfNeeded: best.axis)  // 0...2, and the position 1..<bins
        return (axis, Int(truncatingIfNeeded: best.position), scale[axis])
    }
}
