import CLanes

/// A coarse picture of where a mesh's triangles lie: 32 x 32 x 32 cells over the mesh's bounds, each holding its
/// Chebyshev distance in cells to the nearest cell a triangle passes (0 for such a cell; a cell is marked at the
/// triangle's vertices, and for a triangle wider than a cell at points of a lattice on it no farther apart than a cell).
/// The batch ray order marches rays through it to predict where they end, for a fraction of a traversal's cost
/// (bench/README.md, "Batch ray order"): eight rays at a time, each jumping over the cube of empty cells the distance
/// promises, a lane taking a new ray as soon as its own stops (`fathom_grid_march`, Sources/CLanes/march.h). A
/// prediction only: a cell a thin triangle crosses between lattice points may be left empty, which changes the order of
/// the work, never a result.
public struct OccupancyGrid: Sendable {
    public static let resolution = Int(FATHOM_GRID_CELLS)
    /// One byte per cell.
    public static let bytes = resolution * resolution * resolution

    /// The grid's corner, then its cells per meter along each axis.
    private let frame: [Float]
    /// Cell (x, y, z) at x + 32 y + 1024 z: its distance in cells (the largest of the three axes' differences) to the
    /// nearest occupied cell; 255 in a grid with none.
    private let distances: [UInt8]
    /// Whether more than 7/8 of the cells hold a triangle (a soup of small triangles, say): rays then stop in their
    /// first cell, and the march steps groups of eight together (`fathom_grid_march_dense`) rather than giving each lane
    /// a new ray as its own stops (bench/README.md, "The march's idle lanes").
    public let mostlyOccupied: Bool

    /// Lattice steps per triangle edge at most: 32 (33 x 34 / 2 points for a triangle across the whole grid), fewer
    /// for many triangles (4096 / sqrt(count)), which bounds the work at about 10^7 points for any mesh.
    static func maxLatticeSteps(triangles count: Int) -> Int {
        Swift.max(1, Swift.min(resolution, Int(4096 / Float(Swift.max(count, 1)).squareRoot())))
    }

    /// The grid over [lo, hi] of `count` triangles, triangle t with corners `triangle(t)`.
    public init(lo: SIMD3<Float>, hi: SIMD3<Float>, count: Int, triangle: (Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) {
        let n = Float(OccupancyGrid.resolution)
        // A flat mesh has no extent on some axis: give that axis one cell of the widest's size (or 1 m).
        let widest = (hi - lo).max()
        let extent = lanesMax(hi - lo, SIMD3(repeating: widest > 0 ? widest / n : 1))
        let scale = SIMD3(repeating: n) / extent, cellSize = extent / n
        frame = [lo.x, lo.y, lo.z, scale.x, scale.y, scale.z]
        let smallest = cellSize.min(), most = OccupancyGrid.maxLatticeSteps(triangles: count)
        // Marked through a buffer pointer: the array's own subscript checked its index and its uniqueness per mark.
        // 3 bytes more, which the march's gather reads past the last cell.
        distances = [UInt8](unsafeUninitializedCapacity: OccupancyGrid.bytes + 3) { all, initialized in
            all.initialize(repeating: .max)
            initialized = all.count
            let cells = UnsafeMutableBufferPointer(rebasing: all[0..<OccupancyGrid.bytes])
            @inline(__always) func mark(_ p: SIMD3<Float>) {
                let q = OccupancyGrid.cell(p, lo, scale)
                cells[OccupancyGrid.index(q.x, q.y, q.z)] = 0  // < 32768: the cells are clamped to 0...31
            }
            for t in 0..<count {
                let (a, b, c) = triangle(t)
                let longestSquared = Swift.max(dot(b - a, b - a), Swift.max(dot(c - b, c - b), dot(a - c, a - c)))
                if longestSquared <= smallest * smallest {
                    // No wider than a cell (most triangles of a large mesh): its corners' cells.
                    mark(a); mark(b); mark(c)
                    continue
                }
                let ratio = longestSquared.squareRoot() / smallest
                let steps = ratio < Float(most) ? Swift.max(1, Int(ratio.rounded(.up))) : most  // NaN: the most
                let inverse = 1 / Float(steps)
                for i in 0...steps {
                    for j in 0...(steps - i) { mark(a + Float(i) * inverse * (b - a) + Float(j) * inverse * (c - a)) }
                }
            }
            OccupancyGrid.distanceTransform(cells)
        }
        mostlyOccupied = distances[0..<OccupancyGrid.bytes].lazy.filter { $0 == 0 }.count > OccupancyGrid.bytes / 8 * 7
    }

    /// Replaces 0 (occupied) and 255 (empty) cells by each cell's Chebyshev distance to the nearest occupied cell, one
    /// axis at a time: along each line of cells, d(i) = min over j of max(|i - j|, d(j)), which after the three axes is
    /// the smallest largest axis difference to an occupied cell (the distance is separable). Lines of 32: the direct
    /// minimum is 32 x 32 steps per line, a few milliseconds for the grid.
    private static func distanceTransform(_ cells: UnsafeMutableBufferPointer<UInt8>) {
        let n = resolution
        var line = [Int](repeating: 0, count: n)
        for stride in [1, n, n * n] {
            for first in 0..<(n * n * n) where (first / stride) % n == 0 {
                for i in 0..<n { line[i] = Int(cells[first + i * stride]) }
                for i in 0..<n {
                    var nearest = line[i]
                    for j in 0..<n { nearest = Swift.min(nearest, Swift.max(abs(i - j), line[j])) }
                    cells[first + i * stride] = UInt8(nearest)
                }
            }
        }
    }

    /// The Chebyshev distance of cell (x, y, z) (each 0...31) to the nearest occupied cell: 0 for an occupied one, 255
    /// when the grid has none.
    public func distance(_ x: Int, _ y: Int, _ z: Int) -> Int {
        Int(distances[OccupancyGrid.index(Int32(truncatingIfNeeded: x), Int32(truncatingIfNeeded: y), Int32(truncatingIfNeeded: z))])
    }

    /// The cell of a point: clamped to the grid, NaN counting as 0 (`gridCell`).
    @inline(__always)
    private static func cell(_ p: SIMD3<Float>, _ lo: SIMD3<Float>, _ scale: SIMD3<Float>) -> SIMD3<Int32> {
        let q = fathom_lanes_cells4(SIMD4((p - lo) * scale, 0), Float(resolution - 1))
        return SIMD3(q.x, q.y, q.z)
    }

    @inline(__always)
    private static func index(_ x: Int32, _ y: Int32, _ z: Int32) -> Int { Int(x) | Int(y) << 5 | Int(z) << 10 }

    /// The middle of the ray's way through the first occupied cell it meets within [tmin, tmax] (the cell it starts
    /// in, if occupied), where a hit in that cell lies on average; nil when it meets none.
    public func firstOccupied(_ ray: Ray, tmin: Float, tmax: Float) -> SIMD3<Float>? {
        firstOccupied([ray], tmin: tmin, tmax: tmax)[0]
    }

    /// `firstOccupied` of each ray of `rays` (at most Int32.max), marched together as the batch ray order marches them:
    /// the same points as one ray at a time.
    public func firstOccupied(_ rays: [Ray], tmin: Float, tmax: Float) -> [SIMD3<Float>?] {
        let n = rays.count
        var packed = [Float]()
        packed.reserveCapacity(6 * n)
        for r in rays {
            packed.append(r.origin.x); packed.append(r.origin.y); packed.append(r.origin.z)
            packed.append(r.direction.x); packed.append(r.direction.y); packed.append(r.direction.z)
        }
        // The points' x, y and z one after another.
        var points = [Float](repeating: 0, count: 3 * n)
        var found = [UInt8](repeating: 0, count: n)
        packed.withUnsafeBufferPointer { r in
            points.withUnsafeMutableBufferPointer { p in
                found.withUnsafeMutableBufferPointer { f in
                    guard let base = r.baseAddress, let x = p.baseAddress, let found = f.baseAddress else { return }
                    firstOccupied(RayBuffer(base: base, count: n), tmin: tmin, tmax: tmax, x: x, y: x + n, z: x + 2 * n, found: found)
                }
            }
        }
        return (0..<n).map { found[$0] != 0 ? SIMD3(points[$0], points[n + $0], points[2 * n + $0]) : nil }
    }

    /// `firstOccupied` of every ray of `rays` (at most Int32.max): found[i] = 1 with the point (x[i], y[i], z[i]) when
    /// ray i has one, else found[i] = 0 (the point then written but meaningless).
    @inline(__always)
    func firstOccupied(_ rays: RayBuffer, tmin: Float, tmax: Float, x: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>,
                       z: UnsafeMutablePointer<Float>, found: UnsafeMutablePointer<UInt8>) {
        distances.withUnsafeBufferPointer { d in
            frame.withUnsafeBufferPointer { f in
                let march = mostlyOccupied ? fathom_grid_march_dense : fathom_grid_march
                march(d.baseAddress.unsafelyUnwrapped, f.baseAddress.unsafelyUnwrapped, rays.base,
                      Int32(truncatingIfNeeded: rays.count), tmin, tmax, x, y, z, found)
            }
        }
    }
}
