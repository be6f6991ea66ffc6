import CLanes

/// Builds an 8-wide BVH with the surface-area heuristic over binned centroids (16 bins, all three axes
/// binned in one pass; ranges of 2^16 or more binned from every 4th primitive).
///
/// Each node starts with its whole primitive range as one child and splits the child of largest area
/// (of most triangles among equal areas) among those with more than `leafSize` triangles until it has
/// eight; then children with at most `maxLeafSize` become leaves (free slots make leaves of at most 4,
/// which leaves test at once; a child of 5 to 8 takes no node of its own). Ranges whose centroids
/// coincide are halved by count instead. From depth `sahDepthLimit` on, every split halves by count the
/// child of most triangles, so each level divides the count by 8: for up to 2^28 triangles the tree is
/// at most sahDepthLimit + 10 levels deep (traversal stacks are sized for that).
struct BVHBuilder {
    static let leafSize = 4
    static let maxLeafSize = 8
    static let binCount = 16
    static let sahDepthLimit = 16
    /// Ranges of this many primitives or more are binned from a sample (`bestSAHSplit`).
    static let sampledBinning = 1 << 16
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

    /// Builds over `count` primitives, primitive i with the bounds `bounds(i)`.
    init(count: Int, bounds: (Int) -> (lo: SIMD3<Float>, hi: SIMD3<Float>)) {
        prims = .allocate(capacity: count)
        for i in 0..<count {
            let b = bounds(i)
            prims[i] = PrimRef(lo: SIMD4(b.lo, Float(bitPattern: UInt32(i))), hi: SIMD4(b.hi, 0))
        }
        defer { prims.deallocate() }
        guard count > 0 else { return }
        nodes.reserveCapacity(count / 2 + 1)
        order.reserveCapacity(count + count / 16)
        let root = span(0..<count)
        if count <= BVHBuilder.maxLeafSize {
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

    /// The SAH's intersection cost of n triangles: leaves test them 4 at a time, so a count is charged
    /// by blocks of 4, which steers splits toward full leaves.
    @inline(__always)
    static func leafBlocks(_ n: Int) -> Float { Float((n + 3) >> 2) }

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

    /// Builds the node for a span of more than maxLeafSize primitives; returns its index.
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
            let code = c.range.count <= BVHBuilder.maxLeafSize ? leaf(c.range) : BVHNode.code(ofNode: buildNode(c, depth: depth + 1))
            BVHBuilder.set(&node, slot: slot, span: c, child: code)
        }
        nodes[index] = node
        return index
    }

    /// Splits a span into two non-empty spans, partitioning `prims` in place.
    private func split(_ s: Span, depth: Int) -> (Span, Span) {
        if depth < BVHBuilder.sahDepthLimit, let (axis, position, scale) = bestSAHSplit(s) {
            // Partition, accumulating both sides' bounds on the way (no second pass over the range).
            let lo = s.cLo[axis]
            var left = Span(range: s.range, lo: .init(repeating: .infinity), hi: .init(repeating: -.infinity),
                            cLo: .init(repeating: .infinity), cHi: .init(repeating: -.infinity))
            var right = left
            var i = s.range.lowerBound, j = s.range.upperBound - 1
            while i <= j {
                let p = prims[i]
                let c = p.centroid2
                if BVHBuilder.bin(c[axis], lo, scale) < position {
                    left.lo = lanesMin(left.lo, p.lo); left.hi = lanesMax(left.hi, p.hi)
                    left.cLo = lanesMin(left.cLo, c); left.cHi = lanesMax(left.cHi, c)
                    i += 1
                } else {
                    right.lo = lanesMin(right.lo, p.lo); right.hi = lanesMax(right.hi, p.hi)
                    right.cLo = lanesMin(right.cLo, c); right.cHi = lanesMax(right.cHi, c)
                    prims.swapAt(i, j)
                    j -= 1
                }
            }
            if i > s.range.lowerBound && i < s.range.upperBound {
                left.range = s.range.lowerBound..<i
                right.range = i..<s.range.upperBound
                return (left, right)
            }
        }
        // Coincident centroids (or too deep): halve by count along the widest centroid axis.
        let e = s.cHi - s.cLo
        let axis = e.x >= e.y ? (e.x >= e.z ? 0 : 2) : (e.y >= e.z ? 1 : 2)
        let mid = s.range.lowerBound + s.range.count / 2
        var slice = UnsafeMutableBufferPointer(rebasing: prims[s.range])
        slice.sort { $0.centroid2[axis] < $1.centroid2[axis] }
        return (span(s.range.lowerBound..<mid), span(mid..<s.range.upperBound))
    }

    @inline(__always)
    private static func bin(_ c: Float, _ lo: Float, _ scale: Float) -> Int {
        gridCell((c - lo) * scale, count: binCount)  // vertices near Float's limits overflow the centroids
    }

    /// The SAH-best (axis, bin position, scale), or nil when the centroids coincide on every axis.
    private func bestSAHSplit(_ s: Span) -> (axis: Int, position: Int, scale: Float)? {
        // As many bins as primitives, up to binCount: a small range needs no more, and the sweep over
        // the bins costs the same for every split, however few primitives it has.
        let n = Swift.min(BVHBuilder.binCount, s.range.count)
        let extent = s.cHi - s.cLo
        let scale = SIMD4<Float>(repeating: Float(n) * (1 - 1e-6)) / extent
        return withUnsafeTemporaryAllocation(of: SIMD4<Float>.self, capacity: 6 * n) { bounds in
            withUnsafeTemporaryAllocation(of: SIMD4<Int32>.self, capacity: n) { counts in
                // bounds[(axis * n + k) * 2] = lo, [.. + 1] = hi
                for k in 0..<(3 * n) { bounds[2 * k] = SIMD4(repeating: .infinity); bounds[2 * k + 1] = SIMD4(repeating: -.infinity) }
                for k in 0..<n { counts[k] = .zero }
                // A range of 2^16 or more is binned from every 4th primitive (counts scaled to match): the
                // top levels' SAH hardly changes, their binning passes take a quarter of the time.
                let step = s.range.count >= BVHBuilder.sampledBinning ? 4 : 1
                let lo = s.cLo
                for i in stride(from: s.range.lowerBound, to: s.range.upperBound, by: step) {
                    let p = prims[i]
                    let b = (p.centroid2 - lo) * scale
                    for axis in 0..<3 {
                        let k = Swift.min(n - 1, Swift.max(0, Int(b[axis].isFinite ? b[axis] : 0)))
                        counts[k][axis] &+= 1
                        let slot = 2 * (axis * n + k)
                        bounds[slot] = lanesMin(bounds[slot], p.lo)
                        bounds[slot + 1] = lanesMax(bounds[slot + 1], p.hi)
                    }
                }
                var best: (cost: Float, axis: Int, position: Int)?
                // The sweeps grow boxes with one vminps / vmaxps each (`fathom_lanes_min4`, as Swift.min per lane):
                // Swift's per-lane min stayed scalar there. The binning loop above keeps Swift.min, which was faster
                // there (bench/README.md, "What limits Fathom's ray casting today").
                withUnsafeTemporaryAllocation(of: Float.self, capacity: n) { rightArea in
                    for axis in 0..<3 where extent[axis] > 0 && extent[axis].isFinite {
                        var rLo = SIMD4<Float>(repeating: .infinity), rHi = SIMD4<Float>(repeating: -.infinity)
                        for k in stride(from: n - 1, to: 0, by: -1) {
                            rLo = fathom_lanes_min4(bounds[2 * (axis * n + k)], rLo); rHi = fathom_lanes_max4(bounds[2 * (axis * n + k) + 1], rHi)
                            rightArea[k] = BVHBuilder.area(rLo, rHi)
                        }
                        var lLo = SIMD4<Float>(repeating: .infinity), lHi = SIMD4<Float>(repeating: -.infinity)
                        var leftCount = 0
                        for k in 0..<(n - 1) {
                            lLo = fathom_lanes_min4(bounds[2 * (axis * n + k)], lLo); lHi = fathom_lanes_max4(bounds[2 * (axis * n + k) + 1], lHi)
                            leftCount += Int(counts[k][axis]) * step
                            let rightCount = s.range.count - leftCount
                            guard leftCount > 0, rightCount > 0 else { continue }
                            let cost = BVHBuilder.area(lLo, lHi) * BVHBuilder.leafBlocks(leftCount) + rightArea[k + 1] * BVHBuilder.leafBlocks(rightCount)
                            if cost < (best?.cost ?? .infinity) { best = (cost, axis, k + 1) }
                        }
                    }
                }
                return best.map { ($0.axis, $0.position, scale[$0.axis]) }
            }
        }
    }
}
