import CLanes

/// Queries against the BVH: closest hit, any hit, all hits.
///
/// Node tests are 8-wide slab tests with the near and far planes picked once per ray from the direction's
/// signs (the sign bit, so -0 counts as negative). A zero direction component has an infinite reciprocal:
/// the slab is then everything or nothing, except for a ray lying exactly in the slab's bounding plane,
/// where 0 * inf = NaN. That ray touches the box and may cross a triangle's edge lying in the plane, so a
/// NaN plane distance must count as no bound: each max (min) folds one axis into a running bound that is
/// never NaN, as its second operand, which vmaxps (vminps) returns when either is NaN. The far distance is
/// widened by 2 gamma(3) (Ize 2013) so rounding in the box test can never cull a triangle the watertight
/// test would hit: through reciprocals multiplied by 1 + 2 gamma(3) once per ray, which rounds as many
/// times (subtraction, reciprocal, widening, product) as widening each far distance did.
extension Mesh {
    @usableFromInline
    struct NodeRay {
        let ox: SIMD8<Float>, oy: SIMD8<Float>, oz: SIMD8<Float>
        let ix: SIMD8<Float>, iy: SIMD8<Float>, iz: SIMD8<Float>
        /// The reciprocals widened for the far planes: `farWidening` applied once per ray, not per node.
        let fx: SIMD8<Float>, fy: SIMD8<Float>, fz: SIMD8<Float>
        /// Byte offsets in a BVHNode of the near bound planes (min for a positive direction component,
        /// max for a negative one) and of the far ones (the others).
        let nearX: Int, nearY: Int, nearZ: Int
        let farX: Int, farY: Int, farZ: Int

        @inline(__always)
        init(_ ray: Ray) {
            ox = SIMD8(repeating: ray.origin.x); oy = SIMD8(repeating: ray.origin.y); oz = SIMD8(repeating: ray.origin.z)
            let inverse = 1 / ray.direction
            ix = SIMD8(repeating: inverse.x); iy = SIMD8(repeating: inverse.y); iz = SIMD8(repeating: inverse.z)
            fx = ix * Mesh.farWidening; fy = iy * Mesh.farWidening; fz = iz * Mesh.farWidening
            let negX = ray.direction.x.sign == .minus, negY = ray.direction.y.sign == .minus, negZ = ray.direction.z.sign == .minus
            nearX = negX ? BVHNode.maxXOffset : BVHNode.minXOffset; farX = negX ? BVHNode.minXOffset : BVHNode.maxXOffset
            nearY = negY ? BVHNode.maxYOffset : BVHNode.minYOffset; farY = negY ? BVHNode.minYOffset : BVHNode.maxYOffset
            nearZ = negZ ? BVHNode.maxZOffset : BVHNode.minZOffset; farZ = negZ ? BVHNode.minZOffset : BVHNode.maxZOffset
        }

        /// Entry distances of the eight children, clipped below at tmin, and which of them the ray meets
        /// within [tmin, tmax] (entry <= widened exit).
        @inline(__always)
        func test(_ node: UnsafePointer<BVHNode>, tmin: Float, tmax: Float) -> (near: SIMD8<Float>, met: SIMDMask<SIMD8<Int32>>) {
            let n = UnsafeRawPointer(node)
            @inline(__always) func plane(_ offset: Int) -> SIMD8<Float> { n.load(fromByteOffset: offset, as: SIMD8<Float>.self) }
            let nearX = (plane(nearX) - ox) * ix, farX = (plane(farX) - ox) * fx
            let nearY = (plane(nearY) - oy) * iy, farY = (plane(farY) - oy) * fy
            let nearZ = (plane(nearZ) - oz) * iz, farZ = (plane(farZ) - oz) * fz
            let near = lanesMax(nearZ, lanesMax(nearY, lanesMax(nearX, SIMD8(repeating: tmin))))
            let far = lanesMin(farZ, lanesMin(farY, lanesMin(farX, SIMD8(repeating: tmax * Mesh.farWidening))))
            return (near, near .<= far)
        }
    }

    /// The lane of `lanes`' only bit, or nil when none or several are set: the traversal goes straight
    /// into an only child met, without the stack.
    @inline(__always)
    static func onlyLane(_ lanes: Int) -> Int? {
        lanes != 0 && lanes & (lanes &- 1) == 0 ? lanes.trailingZeroBitCount : nil
    }

    /// 1 + 2 gamma(3), gamma(n) = n eps / (1 - n eps) with eps = 2^-24.
    @usableFromInline static let farWidening: Float = 1 + 2 * (3 * 0x1p-24 / (1 - 3 * 0x1p-24))

    /// Stack entries needed: 7 per level (a node's children met but the nearest, which the traversal
    /// pops at once) for the deepest tree the builder can make, and one more. That keeps each stack under
    /// 1 KiB, so Swift allocates it on the machine stack, not the heap.
    @usableFromInline static let stackSize = 7 * BVHBuilder.maxDepth + 1

    /// Asks for the node of `code` (if it is one, not a leaf) to be brought into the caches: the children pushed while
    /// the nearest is entered are then at hand when popped (bench/README.md, "What limits Fathom's ray casting today"
    /// and "One test per leaf", has what it gains and why leaf blocks are not prefetched).
    @inline(__always)
    func prefetch(_ code: Int32) {
        guard code >= 0 else { return }
        let node = BVHNode.node(code, from: nodes.baseAddress.unsafelyUnwrapped)
        for line in 0..<4 { fathom_lanes_prefetch(node, 64 &* line) }
    }

    /// A traversal's step at an inner node: the child to visit next at once (the only one met, or the nearer of
    /// two, the farther pushed), or nil after pushing all met (none, or three and more) nearest on top. Pushed nodes
    /// are prefetched.
    @inline(__always)
    func step(_ node: UnsafePointer<BVHNode>, _ ray: NodeRay, tmin: Float, tmax: Float, _ stack: inout TraversalStack) -> Int32? {
        let (near, met) = ray.test(node, tmin: tmin, tmax: tmax)
        let lanes = laneBits(met)
        if let only = Mesh.onlyLane(lanes) { return BVHNode.child(only, of: node) }
        if let nearer = stack.enterNearerOfTwo(childrenOf: node, near: near, lanes: lanes) {
            prefetch(stack.codes[stack.top &- 1])
            return nearer
        }
        stack.push(childrenOf: node, near: near, lanes: lanes)
        var bits = lanes
        while bits != 0 {
            prefetch(BVHNode.child(bits.trailingZeroBitCount, of: node))
            bits &= bits &- 1
        }
        return nil
    }

    /// The closest hit within [tmin, tmax], or nil. The ray must be valid (finite, non-zero direction).
    public func intersect(_ ray: Ray, tmin: Float, tmax: Float) -> Hit? {
        guard let (t, leaf, u, v) = nearest(ray, tmin: tmin, tmax: tmax) else { return nil }
        return makeHit(ray, leaf: leaf, t: t, u: u, v: v)
    }

    /// The closest hit within [tmin, tmax] as its distance and triangle, or nil: `intersect` without the hit
    /// record. The ray must be valid.
    public func intersectDistance(_ ray: Ray, tmin: Float, tmax: Float) -> (t: Float, primitive: UInt32)? {
        guard let (t, leaf, _, _) = nearest(ray, tmin: tmin, tmax: tmax) else { return nil }
        return (t, leafTriangle[leaf])
    }

    /// Whether a leaf's nearest hit (t <= best, at leaf position k) replaces the best so far: when nearer, or as near
    /// and at a later leaf position. The closest hit is then the nearest one at the latest position, whatever the order
    /// in which leaves are visited (one ray's traversal or a packet's).
    @inline(__always)
    static func replaces(_ t: Float, _ k: Int, best: Float, bestLeaf: Int) -> Bool { t < best || k > bestLeaf }

    /// The closest hit within [tmin, tmax] as (t, leaf position, u, v), or nil: of equally near hits, the one at the
    /// latest leaf position.
    @inline(__always)
    func nearest(_ ray: Ray, tmin: Float, tmax: Float) -> (t: Float, leaf: Int, u: Float, v: Float)? {
        guard nodes.count > 0 else { return nil }
        let sheared = ShearedRay(ray)
        let nodeRay = NodeRay(ray)
        let nodes = self.nodes.baseAddress.unsafelyUnwrapped
        let (best, bestLeaf, bestU, bestV) = TraversalStack.with { empty -> (Float, Int, Float, Float) in
            var stack = empty
            var best = tmax, bestLeaf = -1
            var bestU: Float = 0, bestV: Float = 0
            var code: Int32 = 0
            while true {
                if code >= 0 {
                    if let next = step(BVHNode.node(code, from: nodes), nodeRay, tmin: tmin, tmax: best, &stack) { code = next; continue }
                } else if let (t, u, v, k) = nearestHit(in: BVHNode.leafRange(code), sheared, tmin: tmin, tmax: best, scratch: stack.leafScratch),
                          Mesh.replaces(t, k, best: best, bestLeaf: bestLeaf) {
                    best = t; bestLeaf = k; bestU = u; bestV = v
                }
                // Widened as `step` widens the boxes' exits: an entry computed a few ulps above `best` may
                // hold a triangle a few ulps below it.
                guard let next = stack.popNearer(than: best * Mesh.farWidening) else { break }
                code = next
            }
            return (best, bestLeaf, bestU, bestV)
        }
        return bestLeaf >= 0 ? (best, bestLeaf, bestU, bestV) : nil
    }

    /// Visits, in no particular order, every leaf whose box the ray meets within [tmin, tmax]; `visit` gets the
    /// leaf's triangle positions (and the leaf test's scratch) and returns true to stop. Returns whether a visit
    /// stopped it.
    @inline(__always)
    private func forEachLeaf(_ ray: Ray, tmin: Float, tmax: Float, _ visit: (Range<Int>, LeafScratch) -> Bool) -> Bool {
        guard nodes.count > 0 else { return false }
        let nodeRay = NodeRay(ray)
        let nodes = self.nodes.baseAddress.unsafelyUnwrapped
        return TraversalStack.with { empty -> Bool in
            var stack = empty
            var code: Int32 = 0
            while true {
                if code >= 0 {
                    if let next = step(BVHNode.node(code, from: nodes), nodeRay, tmin: tmin, tmax: tmax, &stack) { code = next; continue }
                } else if visit(BVHNode.leafRange(code), stack.leafScratch) {
                    return true
                }
                guard let next = stack.popNearer(than: .infinity) else { break }
                code = next
            }
            return false
        }
    }

    /// True when any triangle is hit within [tmin, tmax].
    public func occluded(_ ray: Ray, tmin: Float, tmax: Float) -> Bool {
        let sheared = ShearedRay(ray)
        return forEachLeaf(ray, tmin: tmin, tmax: tmax) { leaf, scratch in anyHit(in: leaf, sheared, tmin: tmin, tmax: tmax, scratch: scratch) }
    }

    /// Every surface crossing within [tmin, tmax], sorted by t. Triangles sharing the edge or vertex a
    /// ray passes through all report it: hits at the same t (within 4 ulps) on the same side are merged.
    public func intersectAll(_ ray: Ray, tmin: Float, tmax: Float) -> [Hit] {
        let sheared = ShearedRay(ray)
        var found = [(t: Float, leaf: Int, u: Float, v: Float)]()
        _ = forEachLeaf(ray, tmin: tmin, tmax: tmax) { leaf, _ in
            for k in leaf {
                let (a, b, c) = leafTriangleVertices(k)
                if let (t, u, v) = sheared.intersect(a, b, c, tmin: tmin, tmax: tmax) { found.append((t, k, u, v)) }
            }
            return false
        }
        let hits = found.map { makeHit(ray, leaf: $0.leaf, t: $0.t, u: $0.u, v: $0.v) }
            .sorted { $0.t < $1.t || ($0.t == $1.t && $0.primitive < $1.primitive) }
        var merged = [Hit]()
        for hit in hits {
            if let last = merged.last, last.frontFace == hit.frontFace,
               hit.t - last.t <= 4 * Swift.max(last.t.ulp, Float.leastNormalMagnitude) { continue }
            merged.append(hit)
        }
        return merged
    }

    @inline(__always)
    func makeHit(_ ray: Ray, leaf: Int, t: Float, u: Float, v: Float) -> Hit {
        let (a, b, c) = leafTriangleVertices(leaf)
        let normal = triangleNormal(a, b, c)
        let triangle = leafTriangle[leaf]
        return Hit(t: t, point: (1 - u - v) * a + u * b + v * c, normal: normal, u: u, v: v, primitive: triangle,
                   classification: classes?[Int(triangle)] ?? 0, frontFace: dot(ray.direction, normal) < 0)
    }

}
