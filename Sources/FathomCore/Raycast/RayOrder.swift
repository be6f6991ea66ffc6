import CLanes

/// The order in which a batch traces its rays: rays headed for the same part of the mesh go one after
/// another, so the nodes and triangles they share are still in cache (bench/README.md, "Batch ray order", has
/// what it gains and costs). Results do not change (each ray's result depends only on the ray), only the order
/// of the work.
///
/// A sample of the rays (evenly spaced) is traced first. When their hit distances agree (interquartile
/// range below half the median: rays from a camera at a surface), each ray's destination is predicted
/// as the point at the median hit distance along it. When they spread (rays from all over, inside and around
/// the mesh), it is predicted by a shallow traversal, where the ray enters the nearest box no wider than 1/16 of
/// the mesh among the leaves and nodes (the top of the tree, which stays in cache), or, when that costs more than
/// three times as much on the sample (the top boxes overlap), by a march through the mesh's occupancy grid
/// (`OccupancyGrid`): the middle of the ray's way through the first cell that holds a triangle. Rays are sorted
/// by the Morton code of the predicted point (7 bits per axis over the bounds of the sample's points: finer
/// gained nothing, and a 22-bit key sorts in two passes); rays that meet no box or occupied cell go last.
extension Mesh {
    /// Batches smaller than this are traced in the caller's order.
    static let orderingMinimumRays = 4096
    /// Meshes smaller than this (`memoryBytes` without the grid) stay in cache: their batches are traced in the caller's
    /// order, and they have no occupancy grid.
    static let orderingMinimumBytes = 1 << 20
    /// Rays traced first, to choose the predictor and find the typical hit distance.
    static let orderingSampleSize = 1024
    /// Bits per axis of the sort key's Morton code.
    static let orderingBits = 7

    /// The order in which to trace `rays`: sorted by predicted destination, or the caller's order for a
    /// small batch or mesh. The caller releases it.
    public func tracingOrder(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int) -> TracingOrder {
        let n = rays.count
        guard n >= Mesh.orderingMinimumRays, let grid = occupancy, n <= Int(UInt32.max) else {
            return TracingOrder(rays: rays, indices: nil)
        }
        let sample = stride(from: 0, to: n, by: Swift.max(1, n / Mesh.orderingSampleSize))
        let distances = sample.compactMap { nearest(rays[$0], tmin: tmin, tmax: tmax)?.t }.sorted()
        let distance = distances.isEmpty ? 0 : distances[distances.count / 2]
        let agree = !distances.isEmpty && distances[3 * distances.count / 4] - distances[distances.count / 4] < distance / 2
        // Spread distances: the shallow traversal predicts better (its boxes are the tree's own), the grid's march
        // costs less where the top boxes overlap. The sample's work decides, counted in cell steps: a node test
        // costs about six (its node is often not in cache), a march about five more than its steps, and the
        // traversal is chosen while it costs at most three times as much (bench/README.md, "Batch ray order").
        // On a soup the two counts come out about equal and the boxes' order is no better than the grid's.
        let boxSize = (boundsMax - boundsMin).max() / 16
        var boxWork = 0, gridWork = 0
        if !agree {
            for i in sample {
                _ = firstBoxEntry(rays[i], tmin: tmin, tmax: tmax, boxSize: boxSize, work: &boxWork)
                _ = grid.firstOccupied(rays[i], tmin: tmin, tmax: tmax, work: &gridWork)
                gridWork += 5
            }
        }
        let byBoxes = !agree && 2 * boxWork <= gridWork
        /// The predicted point of a ray, or nil for one that meets no box or occupied cell.
        @inline(__always) func destination(_ ray: Ray) -> SIMD3<Float>? {
            if agree { return ray.at(distance) }
            var work = 0
            if byBoxes { return firstBoxEntry(ray, tmin: tmin, tmax: tmax, boxSize: boxSize, work: &work).map(ray.at) }
            return grid.firstOccupied(ray, tmin: tmin, tmax: tmax, work: &work)
        }
        // The Morton grid spans the sample's destinations; the others' clamp to its faces.
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        for i in sample {
            guard let p = destination(rays[i]) else { continue }
            lo = lanesMin(lo, p); hi = lanesMax(hi, p)
        }
        let cells = Float(1 << Mesh.orderingBits)
        var scale = SIMD3<Float>(repeating: cells * (1 - 0x1p-20)) / (hi - lo)
        scale.replace(with: 0, where: .!(scale .< .infinity))
        let values = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
        nonisolated(unsafe) let keys = values
        ParallelFor.run(count: n, threads: threads, chunk: 16384) { range in
            for i in range {
                var key = UInt64(1) << (3 * Mesh.orderingBits)  // after every cell
                if let p = destination(rays[i]) {
                    // Grid coordinates in 0..<cells; NaN (from overflowing points) counts as 0. Converted one
                    // component at a time: SIMD3's own conversion is a generic loop, not inlined here.
                    let f = lanesMin((p - lo) * scale, SIMD3(repeating: cells - 1))
                    @inline(__always) func cell(_ x: Float) -> UInt32 { x >= 0 ? UInt32(x) : 0 }
                    key = UInt64(Mesh.mortonCode(SIMD3(cell(f.x), cell(f.y), cell(f.z))))
                }
                keys[i] = key << 32 | UInt64(i)
            }
        }
        let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
        RadixSort.sort(values, keyBits: 3 * Mesh.orderingBits + 1, scratch: scratch, threads: threads)
        scratch.deallocate()
        return TracingOrder(rays: rays, indices: values)
    }

    /// The distance at which the ray enters the nearest box it meets within [tmin, tmax] among the
    /// leaves and the nodes no wider than `boxSize` on every axis (whose subtrees it does not enter);
    /// nil when it meets none. Adds the nodes tested to `work`.
    func firstBoxEntry(_ ray: Ray, tmin: Float, tmax: Float, boxSize: Float, work: inout Int) -> Float? {
        guard nodes.count > 0 else { return nil }
        let nodeRay = NodeRay(ray)
        let nodes = self.nodes.baseAddress.unsafelyUnwrapped
        let size = SIMD8<Float>(repeating: boxSize)
        let (entry, tested) = TraversalStack.with { empty -> (Float, Int) in
            var stack = empty
            var nearest = Float.infinity, tested = 0
            var code: Int32 = 0
            while true {
                let node = BVHNode.node(code, from: nodes)
                let (near, met) = nodeRay.test(node, tmin: tmin, tmax: Swift.min(tmax, nearest))
                tested &+= 1
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
            return (nearest, tested)
        }
        work &+= tested
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

/// The rays of a batch in tracing order: position j traces the caller's ray `index(j)`. Holds the sorted
/// (key, index) values of `Mesh.tracingOrder` (the index in the low 32 bits), or nothing for the caller's order.
public struct TracingOrder: @unchecked Sendable {
    public let rays: RayBuffer
    public let indices: UnsafeMutableBufferPointer<UInt64>?

    @inline(__always)
    public func index(_ j: Int) -> Int {
        guard let indices else { return j }
        return Int(UInt32(truncatingIfNeeded: indices[j]))
    }

    /// The ray traced at position j.
    @inline(__always)
    public func ray(_ j: Int) -> Ray { rays[index(j)] }

    /// Asks for the ray traced at position j to be brought into the caches (j may be past the end): rays are read
    /// out of order, one cache miss each, which a prefetch a few rays ahead hides behind the traversal.
    @inline(__always)
    func prefetch(_ j: Int) {
        guard let indices, j < indices.count else { return }
        fathom_lanes_prefetch(rays.base, 24 &* Int(UInt32(truncatingIfNeeded: indices[j])))
    }

    public func release() { indices?.deallocate() }
}
