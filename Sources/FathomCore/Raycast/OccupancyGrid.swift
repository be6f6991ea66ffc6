import CLanes

/// A coarse picture of where a mesh's triangles lie: 32 x 32 x 32 cells over the mesh's bounds, of which those a
/// triangle passes are occupied (a cell is marked at the triangle's vertices, and for a triangle wider than a cell at
/// points of a lattice on it no farther apart than a cell). For each of the eight octants of directions, every cell
/// holds its distance in cells to the nearest occupied cell ahead of it in that octant (`distance`). The batch ray
/// order marches rays through it to predict where they end, for a fraction of a traversal's cost (bench/README.md,
/// "Batch ray order"): eight rays at a time, each jumping over the cube of empty cells ahead of it that its octant's
/// distance promises, a lane taking a new ray as soon as its own stops (`fathom_grid_march`,
/// Sources/CLanes/march.h). A prediction only: a cell a thin triangle crosses between lattice points may be left
/// empty, which changes the order of the work, never a result.
public struct OccupancyGrid: Sendable {
    public static let resolution = Int(FATHOM_GRID_CELLS)
    /// Cells of the grid.
    static let cells = resolution * resolution * resolution
    /// Bytes of the distances: one per cell and octant.
    public static let bytes = 8 * cells

    /// The grid's corner, then its cells per meter along each axis.
    private let frame: [Float]
    /// Octant o's distances at o x 32768 + x + 32 y + 1024 z, in the octant's mirrored coordinates (x is 31 - the
    /// cell's x where o's bit 0 is set, the direction running toward lower x; y by bit 1, z by bit 2), so that its rays
    /// run toward higher coordinates: the Chebyshev distance (the largest of the three axes' differences) to the nearest
    /// occupied cell at equal or higher coordinates on every axis, 0 for an occupied cell, 255 where there is none.
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
        var occupied = 0
        distances = [UInt8](unsafeUninitializedCapacity: OccupancyGrid.bytes + 3) { all, initialized in
            all.initialize(repeating: .max)
            initialized = all.count
            // Octant 0's table, whose coordinates are the cells' own, holds the marks first (0: occupied).
            let marks = UnsafeMutableBufferPointer(rebasing: all[0..<OccupancyGrid.cells])
            @inline(__always) func mark(_ p: SIMD3<Float>) {
                let q = OccupancyGrid.cell(p, lo, scale)
                marks[OccupancyGrid.index(q.x, q.y, q.z)] = 0  // < 32768: the cells are clamped to 0...31
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
            occupied = marks.lazy.filter { $0 == 0 }.count
            OccupancyGrid.distanceTransform(all)
        }
        mostlyOccupied = occupied > OccupancyGrid.cells / 8 * 7
    }

    /// Fills the eight octants' tables from the marks in octant 0's (0 occupied, 255 empty). In an octant's mirrored
    /// coordinates, the distance d of an empty cell c is 1 + the least d of its seven neighbours c + e (e in {0, 1}^3,
    /// not 0): the nearest occupied cell q ahead of c is ahead of the neighbour e with e_i = 1 where q_i > c_i, and
    /// one cell nearer to it. Cells past the grid count as empty. So each table is one sweep from its highest corner
    /// down.
    private static func distanceTransform(_ all: UnsafeMutableBufferPointer<UInt8>) {
        let n = resolution, side = n + 1, layer = side * side
        // Copied out: octant 0's sweep overwrites the marks.
        let occupied = [Bool](unsafeUninitializedCapacity: cells) { flags, initialized in
            for i in 0..<cells { flags[i] = all[i] == 0 }
            initialized = cells
        }
        // The sweep's distances with one more layer of cells past the grid's upper faces, empty (255) and never
        // written, so that every cell's neighbours ahead are inside it.
        var padded = [UInt8](repeating: .max, count: side * layer)
        padded.withUnsafeMutableBufferPointer { d in
            for octant in 0..<8 {
                let table = all.baseAddress.unsafelyUnwrapped + octant * cells
                // Mirrored coordinate m on an axis is the cell 31 - m where the octant's bit for it is set.
                @inline(__always) func cell(_ m: Int, _ bit: Int) -> Int { octant & bit != 0 ? n - 1 - m : m }
                for z in (0..<n).reversed() {
                    for y in (0..<n).reversed() {
                        let cy = cell(y, 2), cz = cell(z, 4)
                        for x in (0..<n).reversed() {
                            let i = x + side * y + layer * z
                            let ahead = Swift.min(Swift.min(d[i + 1], d[i + side], d[i + side + 1]),
                                                  Swift.min(d[i + layer], d[i + layer + 1], d[i + layer + side], d[i + layer + side + 1]))
                            let distance: UInt8 = occupied[cell(x, 1) | cy << 5 | cz << 10] ? 0 : ahead == .max ? .max : ahead &+ 1
                            d[i] = distance
                            table[x | y << 5 | z << 10] = distance
                        }
                    }
                }
            }
        }
    }

    /// The Chebyshev distance of cell (x, y, z) (each 0...31) to the nearest occupied cell ahead of it for rays of
    /// `octant` (0...7: bit 0 set for rays toward lower x, bit 1 lower y, bit 2 lower z), that is at equal or lower x
    /// where bit 0 is set and at equal or higher x where it is not, and likewise for y and z: 0 for an occupied cell,
    /// 255 when there is none.
    public func distance(_ x: Int, _ y: Int, _ z: Int, octant: Int) -> Int {
        let n = Int32(OccupancyGrid.resolution - 1)
        @inline(__always) func mirrored(_ c: Int, _ bit: Int) -> Int32 {
            let c = Int32(truncatingIfNeeded: c) & n
            return octant & bit != 0 ? n - c : c
        }
        return Int(distances[(octant & 7) * OccupancyGrid.cells + OccupancyGrid.index(mirrored(x, 1), mirrored(y, 2), mirrored(z, 4))])
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
