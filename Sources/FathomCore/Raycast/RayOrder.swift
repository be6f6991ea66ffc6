import CLanes

/// The order in which a batch traces its rays: rays headed for the same part of the mesh go one after
/// another, so the nodes and triangles they share are still in cache (bench/README.md, "Batch ray order", has
/// what it gains and costs). Results do not change (each ray's result depends only on the ray), only the order
/// of the work.
///
/// A sample of the rays (evenly spaced) is traced first, and each ray's destination predicted as the sample shows
/// best (`RayDestination`). Rays are sorted by the Morton code of the predicted point (7 bits per axis over the bounds
/// of the sample's points: fine enough for a camera's rays to form packets, and a 22-bit key sorts in two passes);
/// rays that meet no occupied cell go last.
extension Mesh {
    /// Batches smaller than this are traced in the caller's order.
    static let orderingMinimumRays = 4096
    /// Meshes smaller than this (`memoryBytes` without the grid) stay in cache: their batches are traced in the caller's
    /// order, and they have no occupancy grid.
    static let orderingMinimumBytes = 1 << 20
    /// Rays traced first, to choose the predictor and find the typical hit distance.
    static let orderingSampleSize = 1024
    /// Bits per axis of the sort key's Morton code (`fathom_order_keys`).
    static let orderingBits = Int(FATHOM_ORDER_BITS)

    /// The rays traced first, evenly spaced: from `orderingSampleSize` of them to twice as many, for a batch of at least
    /// as many.
    static func orderingSample(_ rays: RayBuffer) -> [Ray] {
        stride(from: 0, to: rays.count, by: Swift.max(1, rays.count / Mesh.orderingSampleSize)).map { rays[$0] }
    }

    /// How the destinations of `rays` are predicted, from a sample of them (evenly spaced) traced first; nil when the
    /// batch is traced in the caller's order (a small batch or mesh):
    /// - when the sample's hit distances agree (interquartile range below half the median: rays from a camera at a
    ///   surface), at the median hit distance along each ray;
    /// - when they spread (rays from all over, inside and around the mesh), by the march through the mesh's
    ///   occupancy grid, unless the point at the median distance lies nearer the sample's hits (the median over the
    ///   rays that hit of each prediction's distance to the hit). It does where triangles fill a volume (a soup,
    ///   foliage): there rays end about as far from where they start whichever way they go, past the first occupied
    ///   cell.
    public func rayDestination(_ rays: RayBuffer, tmin: Float, tmax: Float) -> RayDestination? {
        let n = rays.count
        guard n >= Mesh.orderingMinimumRays, let grid = occupancy, n <= Int(UInt32.max) else { return nil }
        let hits = Mesh.orderingSample(rays).compactMap { ray in nearest(ray, tmin: tmin, tmax: tmax).map { (ray: ray, t: $0.t) } }
        guard !hits.isEmpty else { return .firstOccupiedCell }
        let distances = hits.map(\.t).sorted(), middle = hits.count / 2
        let distance = distances[middle]
        if distances[3 * hits.count / 4] - distances[hits.count / 4] < distance / 2 { return .alongRay(distance) }
        let marched = grid.firstOccupied(hits.map(\.ray), tmin: tmin, tmax: tmax)
        var alongError = [Float](), gridError = [Float]()
        for ((ray, t), predicted) in zip(hits, marched) {
            let hit = ray.at(t)
            alongError.append(length(ray.at(distance) - hit))
            gridError.append(predicted.map { length($0 - hit) } ?? .infinity)
        }
        return alongError.sorted()[middle] < gridError.sorted()[middle] ? .alongRay(distance) : .firstOccupiedCell
    }

    /// The order in which to trace `rays`: sorted by predicted destination (`rayDestination`), or the caller's order
    /// for a small batch or mesh. The caller releases it.
    public func tracingOrder(_ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int) -> TracingOrder {
        guard let destination = rayDestination(rays, tmin: tmin, tmax: tmax), let grid = occupancy else {
            return TracingOrder(rays: rays, indices: nil)
        }
        let n = rays.count
        var distance: Float = 0, alongRays = false
        if case .alongRay(let d) = destination { distance = d; alongRays = true }
        // The Morton grid spans the sample's destinations; the others' clamp to its faces.
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        let sample = Mesh.orderingSample(rays)
        let destinations = alongRays ? sample.map { $0.at(distance) } : grid.firstOccupied(sample, tmin: tmin, tmax: tmax)
        for case let p? in destinations {
            lo = lanesMin(lo, p); hi = lanesMax(hi, p)
        }
        let cells = Float(1 << Mesh.orderingBits)
        var scale = SIMD3<Float>(repeating: cells * (1 - 0x1p-20)) / (hi - lo)
        scale.replace(with: 0, where: .!(scale .< .infinity))
        // The Morton grid as `fathom_order_keys` reads it: a constant (a variable captured by the closure below would be
        // checked for exclusive access at every read).
        let keyFrame = [lo.x, lo.y, lo.z, scale.x, scale.y, scale.z]
        let values = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
        nonisolated(unsafe) let keys = values
        ParallelFor.run(count: n, threads: threads, chunk: 16384) { range in
            // A block of rays at a time: their predicted points on the machine stack (x, y and z each in a row), then
            // their keys.
            let block = 256
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * block) { points in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: block) { found in
                    let x = points.baseAddress.unsafelyUnwrapped, y = x + block, z = y + block
                    let f = found.baseAddress.unsafelyUnwrapped
                    for first in stride(from: range.lowerBound, to: range.upperBound, by: block) {
                        let count = Swift.min(block, range.upperBound - first)
                        if alongRays {
                            for j in 0..<count {
                                let q = rays[first &+ j].at(distance)
                                x[j] = q.x; y[j] = q.y; z[j] = q.z
                                f[j] = 1
                            }
                        } else {
                            grid.firstOccupied(RayBuffer(base: rays.base + 6 &* first, count: count), tmin: tmin, tmax: tmax,
                                               x: x, y: y, z: z, found: f)
                        }
                        keyFrame.withUnsafeBufferPointer { frame in
                            fathom_order_keys(x, y, z, f, Int32(truncatingIfNeeded: count), frame.baseAddress.unsafelyUnwrapped,
                                              UInt32(truncatingIfNeeded: first), keys.baseAddress.unsafelyUnwrapped + first)
                        }
                    }
                }
            }
        }
        let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
        RadixSort.sort(values, keyBits: 3 * Mesh.orderingBits + 1, scratch: scratch, threads: threads)
        scratch.deallocate()
        return TracingOrder(rays: rays, indices: values)
    }
}

/// Where a batch's rays are predicted to end (`Mesh.rayDestination`).
public enum RayDestination: Equatable, Sendable {
    /// The point at this distance along each ray (the sample's median hit distance, in units of the ray's direction).
    case alongRay(Float)
    /// The middle of the ray's way through the first cell of the mesh's occupancy grid that holds a triangle.
    case firstOccupiedCell
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
    /// out of order, one cache miss each, which a prefetch a few rays ahead hides behind the traversal. Returns the
    /// ray's index when it did (`reorderedIndex`).
    @inline(__always) @discardableResult
    func prefetch(_ j: Int) -> Int? {
        guard let i = reorderedIndex(j) else { return nil }
        fathom_lanes_prefetch(rays.base, 24 &* i)
        return i
    }

    /// The caller's index of the ray traced at position j, when the rays are reordered and j is in range (nil for the
    /// caller's order, whose results go out in order).
    @inline(__always)
    func reorderedIndex(_ j: Int) -> Int? {
        guard let indices, j < indices.count else { return nil }
        return Int(UInt32(truncatingIfNeeded: indices[j]))
    }

    public func release() { indices?.deallocate() }
}
