import CLanes

/// Batch queries: many rays, all cores. Results depend only on each ray, never on the thread count or
/// on the order in which the rays are traced (`tracingOrder`).
extension Mesh {
    /// Checks every ray before any work; throws naming the first bad one.
    public static func validate(_ rays: RayBuffer) throws(FathomError) {
        // Four rays (24 floats, three vectors) at a time up to the first four with a bad one, which the
        // check one by one below then names: every float finite (x - x is 0, not NaN), and in each direction
        // (floats 6k+3...6k+5) one component at least the minimum length and none above the maximum.
        let minimum = SIMD8<Float>(repeating: Ray.minimumDirectionLength)
        let maximum = SIMD8<Float>(repeating: Ray.maximumDirectionLength)
        var checked = 0
        while checked &+ 4 <= rays.count {
            let p = UnsafeRawPointer(rays.base + 6 &* checked)
            let v0 = p.loadUnaligned(as: SIMD8<Float>.self), v1 = p.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self),
                v2 = p.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self)
            let finite = laneBits((v0 - v0) .== .zero) & laneBits((v1 - v1) .== .zero) & laneBits((v2 - v2) .== .zero)
            let long = laneBits(lanesAbs(v0) .>= minimum) | laneBits(lanesAbs(v1) .>= minimum) << 8
                | laneBits(lanesAbs(v2) .>= minimum) << 16
            let tooLong = laneBits(lanesAbs(v0) .> maximum) | laneBits(lanesAbs(v1) .> maximum) << 8
                | laneBits(lanesAbs(v2) .> maximum) << 16
            // Bits 3-5, 9-11, 15-17 and 21-23 are the four directions.
            guard finite == 0xff, (long >> 3 | long >> 4 | long >> 5) & 0x41041 == 0x41041, tooLong & 0xe38e38 == 0 else { break }
            checked &+= 4
        }
        for i in checked..<rays.count {
            let r = rays[i]
            let longest = componentAbs(r.direction).max()
            if !(r.origin.isFinite && r.direction.isFinite) || !(longest >= Ray.minimumDirectionLength && longest <= Ray.maximumDirectionLength) {
                try r.validate("rays[\(i)]")
            }
        }
    }

    /// Closest hits: calls write(i, hit or nil) once per ray, from any thread. `window`: rays ordered and
    /// traced together (see `orderingWindow`). `output`: where write stores ray i's result, if it does (`stride` bytes
    /// at base + i x stride): the batch asks for those bytes to be brought into the caches a few rays ahead, as a
    /// batch in its own order writes its results out of order.
    public func intersect(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int = Mesh.orderingWindow,
                          output: (base: UnsafeMutableRawPointer, stride: Int)? = nil, _ write: @escaping (Int, Hit?) -> Void) {
        let mesh = self
        nonisolated(unsafe) let output = output
        traceNearest(rays, tmin: tmin, tmax: tmax, threads: threads, window: window,
                     ahead: { i in
                         guard let (base, stride) = output else { return }
                         fathom_lanes_prefetch_write(base, i &* stride)
                         fathom_lanes_prefetch_write(base, i &* stride &+ stride &- 1)
                     },
                     single: { ray, i in write(i, mesh.intersect(ray, tmin: tmin, tmax: tmax)) },
                     packed: { ray, i, nearest in write(i, nearest.map { mesh.makeHit(ray, leaf: $0.leaf, t: $0.t, u: $0.u, v: $0.v) }) })
    }

    /// Closest hits as distance and triangle only: t[i] (infinity on a miss) and primitive[i] (UInt32.max on
    /// a miss), either output nil when not wanted.
    public func intersectDistances(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int = Mesh.orderingWindow,
                                   t: UnsafeMutablePointer<Float>?, primitive: UnsafeMutablePointer<UInt32>?) {
        let mesh = self
        nonisolated(unsafe) let t = t, primitive = primitive
        traceNearest(rays, tmin: tmin, tmax: tmax, threads: threads, window: window,
                     ahead: { i in
                         if let t { fathom_lanes_prefetch_write(t, 4 &* i) }
                         if let primitive { fathom_lanes_prefetch_write(primitive, 4 &* i) }
                     },
                     single: { ray, i in
                         let hit = mesh.intersectDistance(ray, tmin: tmin, tmax: tmax)
                         t?[i] = hit?.t ?? .infinity
                         primitive?[i] = hit?.primitive ?? .max
                     },
                     packed: { _, i, nearest in
                         t?[i] = nearest?.t ?? .infinity
                         primitive?[i] = nearest.map { mesh.leafTriangle[$0.leaf] } ?? .max
                     })
    }

    /// out[i] = whether ray i hits anything.
    public func occluded(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int = Mesh.orderingWindow,
                         into out: UnsafeMutablePointer<UInt8>) {
        let mesh = self
        nonisolated(unsafe) let out = out
        trace(rays, tmin: tmin, tmax: tmax, threads: threads, window: window) { ray, i in out[i] = mesh.occluded(ray, tmin: tmin, tmax: tmax) ? 1 : 0 }
    }

    /// All crossings of every ray, per ray.
    public func intersectAll(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int = Mesh.orderingWindow) -> [[Hit]] {
        let mesh = self
        let results = UnsafeMutableBufferPointer<[Hit]>.allocate(capacity: rays.count)
        results.initialize(repeating: [])
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        trace(rays, tmin: tmin, tmax: tmax, threads: threads, window: window, chunk: 64) { ray, i in
            shared[i] = mesh.intersectAll(ray, tmin: tmin, tmax: tmax)
        }
        let array = Array(results)
        results.deinitialize()
        return array
    }

    /// Rays per window of a batch: each window is ordered (`tracingOrder`) and traced on its own, which
    /// bounds the transient memory of the ordering at 16 bytes x 2^22 rays (64 MiB).
    public static let orderingWindow = 1 << 22

    /// The order in which the batch calls trace `rays`: out[j] is the index of the ray traced j-th (window by
    /// window; the caller's order for batches and meshes too small to order).
    public func tracingIndices(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int = Mesh.orderingWindow,
                               into out: UnsafeMutablePointer<UInt32>) {
        forEachWindow(rays, tmin: tmin, tmax: tmax, threads: threads, window: window) { order, offset in
            for j in 0..<order.rays.count { out[offset + j] = UInt32(truncatingIfNeeded: offset + order.index(j)) }
        }
    }

    /// Calls body(ray, its index) once per ray, from `threads` threads, window by window in tracing order.
    private func trace(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int, chunk: Int = 256,
                       _ body: @escaping (Ray, Int) -> Void) {
        forEachWindow(rays, tmin: tmin, tmax: tmax, threads: threads, window: window) { order, offset in
            ParallelFor.run(count: order.rays.count, threads: threads, chunk: chunk) { range in
                for j in range {
                    order.prefetch(j &+ 8)
                    body(order.ray(j), offset + order.index(j))
                }
            }
        }
    }

    /// As `trace`, for closest hits: eight rays in a row of the tracing order that make a packet (`Mesh.packet`) are
    /// traced together, each passed to packed(ray, its index, its closest hit as `nearest` gives it); the others are
    /// passed to single(ray, its index) one at a time. ahead(i) is called for each ray i eight positions before it is
    /// traced (for its result's memory to be prefetched).
    private func traceNearest(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int,
                              ahead: @escaping (Int) -> Void,
                              single: @escaping (Ray, Int) -> Void,
                              packed: @escaping (Ray, Int, (t: Float, leaf: Int, u: Float, v: Float)?) -> Void) {
        forEachWindow(rays, tmin: tmin, tmax: tmax, threads: threads, window: window) { order, offset in
            ParallelFor.run(count: order.rays.count, threads: threads, chunk: 256) { range in
                withUnsafeTemporaryAllocation(of: Ray.self, capacity: 8) { group in
                    let group = group.baseAddress.unsafelyUnwrapped
                    /// Prefetches the ray traced at `position`, and its result's memory when results go out of order.
                    @inline(__always) func prefetch(_ position: Int) {
                        if let i = order.prefetch(position) { ahead(offset &+ i) }
                    }
                    var j = range.lowerBound
                    while j < range.upperBound {
                        let end = Swift.min(j &+ 8, range.upperBound)
                        // The first and last of the eight tell most rays that make no packet apart without copying them.
                        if end &- j == 8, Mesh.mayPack(order.ray(j), order.ray(j &+ 7)) {
                            for lane in 0..<8 {
                                (group + lane).initialize(to: order.ray(j &+ lane))
                                prefetch(j &+ lane &+ 8)
                            }
                            if let packet = Mesh.packet(group) {
                                let hits = self.nearest(packet, group, tmin: tmin, tmax: tmax)
                                for lane in 0..<8 {
                                    let leaf = hits.position(lane)
                                    packed(group[lane], offset + order.index(j &+ lane),
                                           leaf >= 0 ? (hits.t[lane], leaf, hits.u[lane], hits.v[lane]) : nil)
                                }
                                j = end
                                continue
                            }
                        }
                        for k in j..<end {
                            prefetch(k &+ 8)
                            single(order.ray(k), offset + order.index(k))
                        }
                        j = end
                    }
                }
            }
        }
    }

    /// Calls body(the window's tracing order, the window's first index) for each window of `window` rays.
    private func forEachWindow(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int,
                               _ body: (TracingOrder, Int) -> Void) {
        let size = Swift.max(1, window)
        var start = 0
        while start < rays.count {
            let part = RayBuffer(base: rays.base + 6 * start, count: Swift.min(size, rays.count - start))
            let order = tracingOrder(part, tmin: tmin, tmax: tmax, threads: threads)
            body(order, start)
            order.release()
            start += part.count
        }
    }
}
