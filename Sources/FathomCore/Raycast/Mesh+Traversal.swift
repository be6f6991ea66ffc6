/// Queries against the BVH: closest hit, any hit, all hits.
///
/// Node tests are 4-wide slab tests with the near and far planes picked once per ray from the direction's
/// signs. Reciprocals are exact for every normal float; a zero or subnormal component (below 2^-126) uses
/// the reciprocal of 2^-126 with its sign instead of infinity, so slabs are finite or +-inf and never
/// 0 * inf = NaN. Only a ray lying exactly in a box's flat bounding plane is then treated as outside it,
/// and the watertight test misses such a ray too (it lies in the triangles' plane). The far distance is widened by 2 gamma(3) (Ize 2013) so rounding in the box
/// test can never cull a triangle the watertight test would hit.
extension Mesh {
    @usableFromInline
    struct NodeRay {
        let ox: SIMD4<Float>, oy: SIMD4<Float>, oz: SIMD4<Float>
        let ix: SIMD4<Float>, iy: SIMD4<Float>, iz: SIMD4<Float>
        let negX: Bool, negY: Bool, negZ: Bool

        init(_ ray: Ray) {
            func safeInverse(_ d: Float) -> Float {
                let tiny = Float.leastNormalMagnitude
                return 1 / (abs(d) < tiny ? (d.sign == .minus ? -tiny : tiny) : d)
            }
            ox = SIMD4(repeating: ray.origin.x); oy = SIMD4(repeating: ray.origin.y); oz = SIMD4(repeating: ray.origin.z)
            ix = SIMD4(repeating: safeInverse(ray.direction.x))
            iy = SIMD4(repeating: safeInverse(ray.direction.y))
            iz = SIMD4(repeating: safeInverse(ray.direction.z))
            negX = ray.direction.x.sign == .minus; negY = ray.direction.y.sign == .minus; negZ = ray.direction.z.sign == .minus
        }

        /// Entry and (widened) exit distances of the four children, clipped to [tmin, tmax]: child k is
        /// met when near[k] <= far[k].
        @inline(__always)
        func test(_ n: BVHNode, tmin: Float, tmax: Float) -> (near: SIMD4<Float>, far: SIMD4<Float>) {
            let nearX = ((negX ? n.maxX : n.minX) - ox) * ix
            let farX = ((negX ? n.minX : n.maxX) - ox) * ix
            let nearY = ((negY ? n.maxY : n.minY) - oy) * iy
            let farY = ((negY ? n.minY : n.maxY) - oy) * iy
            let nearZ = ((negZ ? n.maxZ : n.minZ) - oz) * iz
            let farZ = ((negZ ? n.minZ : n.maxZ) - oz) * iz
            let near = lanesMax(lanesMax(nearX, nearY), lanesMax(nearZ, SIMD4(repeating: tmin)))
            let far = lanesMin(lanesMin(farX, farY), lanesMin(farZ, SIMD4(repeating: tmax))) * Mesh.farWidening
            return (near, far)
        }
    }

    /// 1 + 2 gamma(3), gamma(n) = n eps / (1 - n eps) with eps = 2^-24.
    @usableFromInline static let farWidening: Float = 1 + 2 * (3 * 0x1p-24 / (1 - 3 * 0x1p-24))

    /// Stack entries needed: 3 per level plus one, for the deepest tree the builder can make (139). That
    /// keeps each stack under 1 KiB, so Swift allocates it on the machine stack, not the heap.
    @usableFromInline static let stackSize = 3 * BVHBuilder.maxDepth + 1

    /// The closest hit within [tmin, tmax], or nil. The ray must be valid (finite, non-zero direction).
    public func intersect(_ ray: Ray, tmin: Float, tmax: Float) -> Hit? {
        guard nodes.count > 0 else { return nil }
        let sheared = ShearedRay(ray)
        let nodeRay = NodeRay(ray)
        let nodes = self.nodes
        // The traversal state lives inside the closures (not captured from outside), so it stays in
        // registers; the closures return it.
        let (best, bestLeaf, bestU, bestV) = withUnsafeTemporaryAllocation(of: Int32.self, capacity: Mesh.stackSize) { codes in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: Mesh.stackSize) { entries -> (Float, Int, Float, Float) in
                var best = tmax, bestLeaf = -1
                var bestU: Float = 0, bestV: Float = 0
                codes[0] = 0
                entries[0] = tmin
                var top = 1
                while top > 0 {
                    top &-= 1
                    let code = codes[top]
                    if entries[top] > best { continue }
                    if code >= 0 {
                        let node = nodes[Int(code)]
                        let (near, far) = nodeRay.test(node, tmin: tmin, tmax: best)
                        // Push the children met, then order just those (1 to 4) so the nearest is on top.
                        let first = top
                        if near.x <= far.x { codes[top] = node.child.x; entries[top] = near.x; top &+= 1 }
                        if near.y <= far.y { codes[top] = node.child.y; entries[top] = near.y; top &+= 1 }
                        if near.z <= far.z { codes[top] = node.child.z; entries[top] = near.z; top &+= 1 }
                        if near.w <= far.w { codes[top] = node.child.w; entries[top] = near.w; top &+= 1 }
                        var i = first &+ 1
                        while i < top {
                            let d = entries[i], c = codes[i]
                            var j = i
                            while j > first && entries[j &- 1] < d {
                                entries[j] = entries[j &- 1]; codes[j] = codes[j &- 1]; j &-= 1
                            }
                            entries[j] = d; codes[j] = c
                            i &+= 1
                        }
                    } else {
                        for k in BVHNode.leafRange(code) {
                            let (a, b, c) = leafTriangleVertices(k)
                            if let (t, u, v) = sheared.intersect(a, b, c, tmin: tmin, tmax: best) {
                                best = t; bestLeaf = k; bestU = u; bestV = v
                            }
                        }
                    }
                }
                return (best, bestLeaf, bestU, bestV)
            }
        }
        guard bestLeaf >= 0 else { return nil }
        return makeHit(ray, leaf: bestLeaf, t: best, u: bestU, v: bestV)
    }

    /// Visits, in no particular order, every leaf whose box the ray meets within [tmin, tmax]; `visit`
    /// gets the leaf's triangle positions and returns true to stop. Returns whether a visit stopped it.
    @inline(__always)
    private func forEachLeaf(_ ray: Ray, tmin: Float, tmax: Float, _ visit: (Range<Int>) -> Bool) -> Bool {
        guard nodes.count > 0 else { return false }
        let nodeRay = NodeRay(ray)
        let nodes = self.nodes
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: Mesh.stackSize) { stack in
            stack[0] = 0
            var top = 1
            while top > 0 {
                top &-= 1
                let code = stack[top]
                if code >= 0 {
                    let node = nodes[Int(code)]
                    let (near, far) = nodeRay.test(node, tmin: tmin, tmax: tmax)
                    if near.x <= far.x { stack[top] = node.child.x; top &+= 1 }
                    if near.y <= far.y { stack[top] = node.child.y; top &+= 1 }
                    if near.z <= far.z { stack[top] = node.child.z; top &+= 1 }
                    if near.w <= far.w { stack[top] = node.child.w; top &+= 1 }
                } else if visit(BVHNode.leafRange(code)) {
                    return true
                }
            }
            return false
        }
    }

    /// True when any triangle is hit within [tmin, tmax].
    public func occluded(_ ray: Ray, tmin: Float, tmax: Float) -> Bool {
        let sheared = ShearedRay(ray)
        return forEachLeaf(ray, tmin: tmin, tmax: tmax) { leaf in
            for k in leaf {
                let (a, b, c) = leafTriangleVertices(k)
                if sheared.intersect(a, b, c, tmin: tmin, tmax: tmax) != nil { return true }
            }
            return false
        }
    }

    /// Every surface crossing within [tmin, tmax], sorted by t. Triangles sharing the edge or vertex a
    /// ray passes through all report it: hits at the same t (within 4 ulps) on the same side are merged.
    public func intersectAll(_ ray: Ray, tmin: Float, tmax: Float) -> [Hit] {
        let sheared = ShearedRay(ray)
        var found = [(t: Float, leaf: Int, u: Float, v: Float)]()
        _ = forEachLeaf(ray, tmin: tmin, tmax: tmax) { leaf in
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
