import CLanes

/// Closest hits of eight rays from one origin traced together: the packet visits each node once for all eight, testing
/// a child's box against the eight rays in SIMD lanes, which pays for rays from a camera traced in a coherent order
/// (bench/README.md, "Packets of camera rays", has what it gains).
///
/// Each ray's box tests are those it gets when traced alone (`fathom_packet_node` runs the one-ray test's operations
/// per lane), a child is pushed with the rays that meet it, and at a leaf each of those rays runs its own watertight
/// test. A ray may test leaves it would have culled alone (the packet's order is not its own), but never misses one it
/// would have tested, and its closest hit does not depend on the order in which leaves are visited (`Mesh.replaces`):
/// results are those of tracing each ray alone, bit for bit.
extension Mesh {
    /// The largest spread of a packet's unit directions on any axis (about 3 degrees): wider packets visit many nodes
    /// that only some of their rays meet.
    static let packetSpread: Float = 0.05

    /// Whether rays a and b may be the first and last of a packet: one origin, and directions within about 6 degrees
    /// (cos(a, b) >= 1 - 2 spread^2). Any two of eight rays whose unit directions lie within `packetSpread` of each other
    /// on every axis are: |ua - ub|^2 <= 3 spread^2, so cos(a, b) >= 1 - 1.5 spread^2 (the margin is for rounding). A
    /// test of a few products, which spares most rays that make no packet (a camera's rays in a random order) the
    /// packet's own test.
    @inline(__always)
    public static func mayPack(_ a: Ray, _ b: Ray) -> Bool {
        guard a.origin == b.origin else { return false }
        let d = dot(a.direction, b.direction), c = 1 - 2 * packetSpread * packetSpread
        return d > 0 && d * d >= c * c * dot(a.direction, a.direction) * dot(b.direction, b.direction)
    }

    /// The packet of `rays[0..<8]` as the node test reads it, or nil when they do not make one: origins not all equal,
    /// direction components of mixed signs on an axis (the rays would need different near planes), or directions that
    /// spread by more than `Mesh.packetSpread`.
    @inline(__always)
    static func packet(_ rays: UnsafePointer<Ray>) -> PacketRays? {
        let origin = rays[0].origin, first = rays[0].direction
        var unitLo = SIMD3<Float>(repeating: .infinity), unitHi = -unitLo
        var ix = SIMD8<Float>(), iy = ix, iz = ix
        for lane in 0..<8 {
            let d = rays[lane].direction
            guard rays[lane].origin == origin, d.x.sign == first.x.sign, d.y.sign == first.y.sign, d.z.sign == first.z.sign else {
                return nil
            }
            let unit = d / (d * d).sum().squareRoot()
            unitLo = lanesMin(unitLo, unit); unitHi = lanesMax(unitHi, unit)
            let inverse = 1 / d
            ix[lane] = inverse.x; iy[lane] = inverse.y; iz[lane] = inverse.z
        }
        guard all(unitHi - unitLo .<= SIMD3(repeating: Mesh.packetSpread)) else { return nil }
        let ray = NodeRay(rays[0])
        return PacketRays(ox: ray.ox, oy: ray.oy, oz: ray.oz, ix: ix, iy: iy, iz: iz,
                          fx: ix * Mesh.farWidening, fy: iy * Mesh.farWidening, fz: iz * Mesh.farWidening,
                          nearX: ray.nearX, nearY: ray.nearY, nearZ: ray.nearZ, farX: ray.farX, farY: ray.farY, farZ: ray.farZ)
    }

    /// Eight rays as `fathom_packet_node` reads them (packet.h has the layout: stored fields are laid out in declaration
    /// order, which a test checks against MemoryLayout): origins, reciprocals of the directions and those widened for
    /// the far planes, lane i for ray i; and the byte offsets in a node of the near and far bound planes.
    @frozen
    public struct PacketRays {
        public let ox, oy, oz, ix, iy, iz, fx, fy, fz: SIMD8<Float>
        public let nearX, nearY, nearZ, farX, farY, farZ: Int
    }

    /// The closest hits within [tmin, tmax] of the eight rays `rays[0..<8]` traced together as a packet, equal bit for
    /// bit to `intersect` on each ray; nil when they do not make a packet (`packet`: one origin, one sign per axis,
    /// directions within `packetSpread`). The rays must be valid. The batch queries trace packets where they form.
    public func intersectPacket(_ rays: UnsafePointer<Ray>, tmin: Float, tmax: Float) -> [Hit?]? {
        guard let packet = Mesh.packet(rays) else { return nil }
        let hits = nearest(packet, rays, tmin: tmin, tmax: tmax)
        return (0..<8).map { lane in
            hits.position(lane) < 0 ? nil : makeHit(rays[lane], leaf: hits.position(lane), t: hits.t[lane], u: hits.u[lane], v: hits.v[lane])
        }
    }

    /// The closest hits of a packet's eight rays, per lane: leaf position -1 for a miss.
    struct PacketHits {
        var t: SIMD8<Float>, u = SIMD8<Float>(), v = SIMD8<Float>()
        var leaf = SIMD8<Int32>(repeating: -1)

        /// Lane `lane`'s leaf position (-1 for a miss), widened.
        @inline(__always)
        func position(_ lane: Int) -> Int { Int(truncatingIfNeeded: leaf[lane]) }
    }

    /// The closest hits of the packet of `rays[0..<8]` within [tmin, tmax], each as `nearest` gives it.
    @inline(__always)
    func nearest(_ packet: PacketRays, _ rays: UnsafePointer<Ray>, tmin: Float, tmax: Float) -> PacketHits {
        var hits = PacketHits(t: SIMD8(repeating: tmax))
        guard nodes.count > 0 else { return hits }
        let nodes = self.nodes.baseAddress.unsafelyUnwrapped
        return PacketStack.with { empty in
            var stack = empty, packet = packet
            let sheared = stack.sheared
            for lane in 0..<8 { (sheared + lane).initialize(to: ShearedRay(rays[lane])) }
            let limit = stack.limit
            for lane in 0..<8 { limit[lane] = tmax * Mesh.farWidening }
            var code: Int32 = 0, active: UInt32 = 0xff
            while true {
                if code >= 0 {
                    let node = BVHNode.node(code, from: nodes)
                    let met = fathom_packet_node(&packet, node, active, tmin, stack.limit, stack.childEntries, stack.childMasks)
                    stack.push(childrenOf: node, met)
                    prefetchChildren(of: node, met)
                } else {
                    let range = BVHNode.leafRange(code)
                    var bits = active
                    while bits != 0 {
                        let lane = bits.trailingZeroBitCount
                        bits &= bits &- 1
                        if let (t, u, v, k) = nearestHit(in: range, sheared[lane], tmin: tmin, tmax: hits.t[lane], scratch: stack.leafScratch),
                           Mesh.replaces(t, k, best: hits.t[lane], bestLeaf: hits.position(lane)) {
                            hits.t[lane] = t; hits.leaf[lane] = Int32(truncatingIfNeeded: k); hits.u[lane] = u; hits.v[lane] = v
                            limit[lane] = t * Mesh.farWidening
                        }
                    }
                }
                guard let (next, met) = stack.pop() else { break }
                code = next; active = met
            }
            return hits
        }
    }
}

extension Mesh {
    /// Asks for the children of `node` in `met` to be brought into the caches: nodes, and a copied mesh's leaf blocks. A
    /// packet visits most of the children its rays meet, one after another, so their loads overlap.
    @inline(__always)
    func prefetchChildren(of node: UnsafePointer<BVHNode>, _ met: UInt32) {
        var bits = met
        while bits != 0 {
            let code = BVHNode.child(bits.trailingZeroBitCount, of: node)
            bits &= bits &- 1
            if code >= 0 {
                prefetch(code)
            } else if let blocks {
                let range = BVHNode.leafRange(code)
                let first = UnsafeRawPointer(blocks.baseAddress.unsafelyUnwrapped + (range.lowerBound >> 2))
                let bytes = ((range.count &+ 3) >> 2) &* MemoryLayout<TriangleLanes>.stride
                for offset in stride(from: 0, to: bytes, by: 64) { fathom_lanes_prefetch(first, offset) }
            }
        }
    }
}

/// The stack of a packet's traversal, in memory on the machine stack: node or leaf codes, each with the least entry
/// into its box of the rays that meet it and those rays (bit i: ray i); the node test's output; the packet's sheared
/// rays; and the leaf test's scratch.
struct PacketStack {
    let codes: UnsafeMutablePointer<Int32>
    let entries: UnsafeMutablePointer<Float>
    let masks: UnsafeMutablePointer<UInt32>
    /// `fathom_packet_node`'s output: per child met, its least entry and its rays.
    let childEntries: UnsafeMutablePointer<Float>
    let childMasks: UnsafeMutablePointer<UInt32>
    let sheared: UnsafeMutablePointer<ShearedRay>
    /// Per ray, the farthest a box may be entered: its best so far, widened as the one-ray traversal widens it.
    let limit: UnsafeMutablePointer<Float>
    let leafScratch: LeafScratch
    var top = 0

    /// Entries: a node visit pushes the up to 8 children met and the traversal pops one at once, so the stack
    /// grows by at most 7 per level, and by 8 at the deepest.
    static let size = Mesh.stackSize + 1

    /// Runs `body` with an empty stack on the machine stack.
    @inline(__always)
    static func with<Result>(_ body: (PacketStack) -> Result) -> Result {
        let lanes = 2 * MemoryLayout<TriangleLanes>.stride, rays = 8 * MemoryLayout<ShearedRay>.stride
        let bytes = lanes + rays + 32 * 5 + 12 * size
        return withUnsafeTemporaryAllocation(byteCount: bytes, alignment: 64) { raw in
            let base = raw.baseAddress.unsafelyUnwrapped
            let gathered = base.bindMemory(to: TriangleLanes.self, capacity: 2)
            let sheared = (base + lanes).bindMemory(to: ShearedRay.self, capacity: 8)
            let uv = (base + lanes + rays).bindMemory(to: Float.self, capacity: 16)
            let childEntries = (base + lanes + rays + 64).bindMemory(to: Float.self, capacity: 8)
            let childMasks = (base + lanes + rays + 96).bindMemory(to: UInt32.self, capacity: 8)
            let limit = (base + lanes + rays + 128).bindMemory(to: Float.self, capacity: 8)
            let codes = (base + lanes + rays + 160).bindMemory(to: Int32.self, capacity: size)
            let entries = (base + lanes + rays + 160 + 4 * size).bindMemory(to: Float.self, capacity: size)
            let masks = (base + lanes + rays + 160 + 8 * size).bindMemory(to: UInt32.self, capacity: size)
            let result = body(PacketStack(codes: codes, entries: entries, masks: masks, childEntries: childEntries, childMasks: childMasks,
                                          sheared: sheared, limit: limit, leafScratch: LeafScratch(gathered: gathered, uv: uv)))
            return result
        }
    }

    /// Pushes the children of `node` in `met` (bit c: child c, with its entry and rays in childEntries[c] and
    /// childMasks[c]) from the farthest to the nearest, so the nearest is on top.
    @inline(__always)
    mutating func push(childrenOf node: UnsafePointer<BVHNode>, _ met: UInt32) {
        let bottom = top
        var bits = met
        while bits != 0 {
            let c = bits.trailingZeroBitCount
            bits &= bits &- 1
            let entry = childEntries[c], mask = childMasks[c], code = BVHNode.child(c, of: node)
            var k = top
            while k > bottom && entries[k &- 1] < entry {
                codes[k] = codes[k &- 1]; entries[k] = entries[k &- 1]; masks[k] = masks[k &- 1]
                k &-= 1
            }
            codes[k] = code; entries[k] = entry; masks[k] = mask
            top &+= 1
        }
    }

    /// Pops entries until one that some of its rays may still enter (entry <= limit[i] for ray i), and returns its
    /// code with those rays; nil when none is left.
    @inline(__always)
    mutating func pop() -> (code: Int32, rays: UInt32)? {
        let limits = UnsafeRawPointer(limit).loadUnaligned(as: SIMD8<Float>.self)
        while top > 0 {
            top &-= 1
            let rays = masks[top] & UInt32(truncatingIfNeeded: laneBits(limits .>= SIMD8(repeating: entries[top])))
            if rays != 0 { return (codes[top], rays) }
        }
        return nil
    }
}
