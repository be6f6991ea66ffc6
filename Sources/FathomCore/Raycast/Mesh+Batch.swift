/// Batch queries: many rays, all cores. Results depend only on each ray, never on the thread count or
/// on the order in which the rays are traced (`tracingOrder`).
extension Mesh {
    /// Checks every ray before any work; throws naming the first bad one.
    public static func validate(_ rays: RayBuffer) throws(FathomError) {
        for i in 0..<rays.count {
            let r = rays[i]
            if !(r.origin.isFinite && r.direction.isFinite) || !(componentAbs(r.direction).max() >= Ray.minimumDirectionLength) {
                try r.validate("rays[\(i)]")
            }
        }
    }

    /// Closest hits: calls write(i, hit or nil) once per ray, from any thread.
    public func intersect(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int,
                          _ write: @escaping (Int, Hit?) -> Void) {
        let mesh = self
        let order = tracingOrder(rays, tmin: tmin, tmax: tmax, threads: threads)
        defer { order.release() }
        ParallelFor.run(count: rays.count, threads: threads) { range in
            for j in range {
                write(order.index(j), mesh.intersect(order.rays[j], tmin: tmin, tmax: tmax))
            }
        }
    }

    /// out[i] = whether ray i hits anything.
    public func occluded(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int,
                         into out: UnsafeMutablePointer<UInt8>) {
        let mesh = self
        nonisolated(unsafe) let out = out
        let order = tracingOrder(rays, tmin: tmin, tmax: tmax, threads: threads)
        defer { order.release() }
        ParallelFor.run(count: rays.count, threads: threads) { range in
            for j in range {
                out[order.index(j)] = mesh.occluded(order.rays[j], tmin: tmin, tmax: tmax) ? 1 : 0
            }
        }
    }

    /// All crossings of every ray, per ray.
    public func intersectAll(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int) -> [[Hit]] {
        let mesh = self
        let results = UnsafeMutableBufferPointer<[Hit]>.allocate(capacity: rays.count)
        results.initialize(repeating: [])
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        let order = tracingOrder(rays, tmin: tmin, tmax: tmax, threads: threads)
        defer { order.release() }
        ParallelFor.run(count: rays.count, threads: threads, chunk: 64) { range in
            for j in range {
                shared[order.index(j)] = mesh.intersectAll(order.rays[j], tmin: tmin, tmax: tmax)
            }
        }
        let array = Array(results)
        results.deinitialize()
        return array
    }
}
