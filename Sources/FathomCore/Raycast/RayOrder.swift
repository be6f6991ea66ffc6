/// The order in which a batch traces its rays: rays headed for the same part of the mesh go one after
/// another, so the nodes and triangles they share are still in cache (bench/README.md, "Batch ray order", has
/// what it gains and costs). Results do not change (each ray's result depends only on the ray), only the order
/// of the work.
///
/// A sample of the rays (evenly spaced) is traced first. When their hit distances agree (interquartile
/// range below half the median: rays from a camera at a surface), each ray's destination is predicted
/// as the point at the median hit distance along it; rays from one origin are then ordered by direction,
/// parallel rays by origin. When they spread (rays from all over, inside and around the mesh), it is
/// predicted by a shallow traversal instead: where the ray enters the nearest box it meets among the
/// leaves and nodes no wider than 1/16 of the mesh (the top of the tree, which stays in cache).
/// Rays are sorted by the Morton code of the predicted point (10 bits per axis over the bounds of the
/// sample's points; rays that meet no box go last).
extension Mesh {
    /// Batches smaller than this are traced in the caller's order.
    static let orderingMinimumRays = 4096
    /// Meshes smaller than this (bytes) stay in cache: their batches are traced in the caller's order.
    static let orderingMinimumBytes = 1 << 20
    /// Rays traced first, to choose the predictor and find the typical hit distance.
    static let orderingSampleSize = 1024

    /// The order in which to trace `rays`: sorted by predicted destination, or the caller's order for a
    /// small batch or mesh. The caller releases it.
    public func tracingOrder(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int) -> TracingOrder {
        let n = rays.count
        guard n >= Mesh.orderingMinimumRays, memoryBytes >= Mesh.orderingMinimumBytes, n <= Int(UInt32.max) else {
            return TracingOrder(rays: rays, indices: nil)
        }
        let sample = stride(from: 0, to: n, by: Swift.max(1, n / Mesh.orderingSampleSize))
        let distances = sample.compactMap { intersect(rays[$0], tmin: tmin, tmax: tmax)?.t }.sorted()
        let distance = distances.isEmpty ? 0 : distances[distances.count / 2]
        let agree = !distances.isEmpty && distances[3 * distances.count / 4] - distances[distances.count / 4] < distance / 2
        let boxSize = (boundsMax - boundsMin).max() / 16
        /// The predicted point of a ray, or nil for one that meets no box (shallow traversal only).
        @inline(__always) func destination(_ ray: Ray) -> SIMD3<Float>? {
            if agree { return ray.at(distance) }
            return firstBoxEntry(ray, tmin: tmin, tmax: tmax, boxSize: boxSize).map(ray.at)
        }
        // The grid spans the sample's destinations; the others' clamp to its faces.
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        for i in sample {
            guard let p = destination(rays[i]) else { continue }
            lo = lanesMin(lo, p); hi = lanesMax(hi, p)
        }
        var scale = SIMD3<Float>(repeating: 1023.999) / (hi - lo)
        scale.replace(with: 0, where: .!(scale .< .infinity))
        let values = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
        nonisolated(unsafe) let keys = values
        ParallelFor.run(count: n, threads: threads, chunk: 16384) { range in
            for i in range {
                var key: UInt64 = 1 << 30
                if let p = destination(rays[i]) {
                    // Grid coordinates in 0...1023; NaN (from overflowing points) counts as 0. Converted one
                    // component at a time: SIMD3's own conversion is a generic loop, not inlined here.
                    let f = lanesMin((p - lo) * scale, SIMD3(repeating: 1023))
                    @inline(__always) func cell(_ x: Float) -> UInt32 { x >= 0 ? UInt32(x) : 0 }
                    key = UInt64(Mesh.mortonCode(SIMD3(cell(f.x), cell(f.y), cell(f.z))))
                }
                keys[i] = key << 32 | UInt64(i)
            }
        }
        let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
        RadixSort.sort(values, keyBits: 31, scratch: scratch, threads: threads)
        scratch.deallocate()
        // The rays in tracing order, gathered here where the loads overlap, not one per traced ray.
        nonisolated(unsafe) let sorted = UnsafeMutablePointer<Float>.allocate(capacity: 6 * n)
        ParallelFor.run(count: n, threads: threads, chunk: 16384) { range in
            for j in range {
                (sorted + 6 * j).update(from: rays.base + 6 * Int(UInt32(truncatingIfNeeded: keys[j])), count: 6)
            }
        }
        return TracingOrder(rays: RayBuffer(base: sorted, count: n), indices: values)
    }

    /// The distance at which the ray enters the nearest box it meets within [tmin, tmax] among the
    /// leaves and the nodes no wider than `boxSize` on every axis (whose subtrees it does not enter);
    /// nil when it meets none.
    func firstBoxEntry(_ ray: Ray, tmin: Float, tmax: Float, boxSize: Float) -> Float? {
        guard nodes.count > 0 else { return nil }
        let nodeRay = NodeRay(ray)
        let nodes = self.nodes.baseAddress.unsafelyUnwrapped
        let size = SIMD8<Float>(repeating: boxSize)
        let entry = TraversalStack.with { empty -> Float in
            var stack = empty
            var nearest = Float.infinity
            var code: Int32 = 0
            while true {
                let node = BVHNode.node(code, from: nodes)
                let (near, met) = nodeRay.test(node, tmin: tmin, tmax: Swift.min(tmax, nearest))
                let n = node.pointee
                let small = laneBits((n.maxX - n.minX .<= size) .& (n.maxY - n.minY .<= size) .& (n.maxZ - n.minZ .<= size))
                    | signBits(unsafeBitCast(n.child, to: SIMD8<UInt32>.self))
                let lanes = laneBits(met)
                var reached = lanes & small
                while reached != 0 {
                    nearest = Swift.min(nearest, near[reached.trailingZeroBitCount])
                    reached &= reached &- 1
                }
                stack.push(childrenOf: node, near: near, lanes: lanes & ~small)
                guard let next = stack.popNearer(than: nearest) else { break }
                code = next
            }
            return nearest
        }
        return entry.isFinite ? entry : nil
    }

    /// Interleaves the low 10 bits of x, y, z: bit k of x goes to bit 3k, of y to 3k + 1, of z to 3k + 2.
    @inline(__always)
    static func mortonCode(_ q: SIMD3<UInt32>) -> UInt32 {
        @inline(__always) func spread(_ x: UInt32) -> UInt32 {
            var x = x & 0x3ff
            x = (x | x << 16) & 0x0300_00ff
            x = (x | x << 8) & 0x0300_f00f
            x = (x | x << 4) & 0x030c_30c3
            x = (x | x << 2) & 0x0924_9249
            return x
        }
        return spread(q.x) | spread(q.y) << 1 | spread(q.z) << 2
    }
}

/// The rays of a batch in tracing order: position j traces `rays[j]`, the caller's ray `index(j)`. Holds
/// the sorted (key, index) values of `Mesh.tracingOrder` (the index in the low 32 bits) and the rays
/// copied in that order, or the caller's rays and nothing else.
public struct TracingOrder: @unchecked Sendable {
    public let rays: RayBuffer
    public let indices: UnsafeMutableBufferPointer<UInt64>?

    @inline(__always)
    public func index(_ j: Int) -> Int {
        guard let indices else { return j }
        return Int(UInt32(truncatingIfNeeded: indices[j]))
    }

    public func release() {
        guard let indices else { return }
        indices.deallocate()
        UnsafeMutablePointer(mutating: rays.base).deallocate()
    }
}
