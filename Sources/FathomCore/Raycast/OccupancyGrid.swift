import CLanes

/// A coarse picture of where a mesh's triangles lie: 32 x 32 x 32 cells over the mesh's bounds, one bit per cell,
/// set where a triangle passes (its vertices, and for a triangle wider than a cell, points of a lattice on it no
/// farther apart than a cell). The batch ray order marches a ray through it cell by cell (Amanatides and Woo 1987)
/// to predict where the ray ends, for a fraction of a traversal's cost (bench/README.md, "Batch ray order"). A
/// prediction only: a cell a thin triangle crosses between lattice points may be left empty, which changes the
/// order of the work, never a result.
struct OccupancyGrid: Sendable {
    static let resolution = 32
    /// One bit per cell.
    static let bytes = resolution * resolution * resolution / 8

    let lo: SIMD3<Float>
    /// Cells per meter along each axis, and its inverse.
    let scale: SIMD3<Float>, cellSize: SIMD3<Float>
    /// Cell (x, y, z) at bit x + 32 y + 1024 z.
    private let bits: [UInt64]

    /// Lattice steps per triangle edge at most: 32 (33 x 34 / 2 points for a triangle across the whole grid), fewer
    /// for many triangles (4096 / sqrt(count)), which bounds the work at about 10^7 points for any mesh.
    static func maxLatticeSteps(triangles count: Int) -> Int {
        Swift.max(1, Swift.min(resolution, Int(4096 / Float(Swift.max(count, 1)).squareRoot())))
    }

    /// The grid over [lo, hi] of `count` triangles, triangle t with corners `triangle(t)`.
    init(lo: SIMD3<Float>, hi: SIMD3<Float>, count: Int, triangle: (Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) {
        let n = Float(OccupancyGrid.resolution)
        // A flat mesh has no extent on some axis: give that axis one cell of the widest's size (or 1 m).
        let widest = (hi - lo).max()
        let extent = lanesMax(hi - lo, SIMD3(repeating: widest > 0 ? widest / n : 1))
        let scale = SIMD3(repeating: n) / extent, cellSize = extent / n
        self.lo = lo
        self.scale = scale
        self.cellSize = cellSize
        let smallest = cellSize.min(), most = OccupancyGrid.maxLatticeSteps(triangles: count)
        // Marked through a buffer pointer: the array's own subscript checked its index and its uniqueness per mark.
        bits = [UInt64](unsafeUninitializedCapacity: OccupancyGrid.bytes / 8) { words, initialized in
            words.initialize(repeating: 0)
            initialized = words.count
            @inline(__always) func mark(_ p: SIMD3<Float>) {
                let q = OccupancyGrid.cell(p, lo, scale)
                let k = OccupancyGrid.index(q.x, q.y, q.z)  // < 32768: the cells are clamped to 0...31
                words[k >> 6] |= 1 << UInt64(k & 63)
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
        }
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
    /// in, if occupied), where a hit in that cell lies on average; nil when it meets none. Adds the cells visited
    /// to `work`.
    func firstOccupied(_ ray: Ray, tmin: Float, tmax: Float, work: inout Int) -> SIMD3<Float>? {
        let n = Float(OccupancyGrid.resolution)
        let o = ray.origin, d = ray.direction
        let inverse = 1 / d
        let gridHi = lo + cellSize * n
        // The range of t inside the grid (a zero direction component: inside its slab or not at all; a NaN bound,
        // from a subnormal one, clips nothing).
        let toLo = (lo - o) * inverse, toHi = (gridHi - o) * inverse
        let near = lanesMin(toLo, toHi), far = lanesMax(toLo, toHi)
        var t = tmin, end = tmax
        for axis in 0..<3 {
            if d[axis] == 0 {
                guard o[axis] >= lo[axis] && o[axis] <= gridHi[axis] else { return nil }
            } else {
                t = Swift.max(t, near[axis]); end = Swift.min(end, far[axis])
            }
        }
        guard t <= end else { return nil }
        let start = OccupancyGrid.cell(ray.at(t), lo, scale)
        var x = start.x, y = start.y, z = start.z
        // Per axis: the step, the t between cell boundaries, and where the ray crosses the next one (infinity on
        // an axis it runs along, or when that is NaN: from a subnormal component).
        @inline(__always) func walk(_ axis: Int, _ c: Int32) -> (step: Int32, delta: Float, next: Float) {
            guard d[axis] != 0 else { return (0, .infinity, .infinity) }
            let up = d[axis] > 0
            let next = (lo[axis] + Float(c + (up ? 1 : 0)) * cellSize[axis] - o[axis]) * inverse[axis]
            return (up ? 1 : -1, cellSize[axis] * abs(inverse[axis]), next.isNaN ? .infinity : Swift.max(t, next))
        }
        var (sx, dx, nx) = walk(0, x)
        var (sy, dy, ny) = walk(1, y)
        var (sz, dz, nz) = walk(2, z)
        let last = Int32(OccupancyGrid.resolution - 1)
        var visited = 0
        defer { work &+= visited }
        return bits.withUnsafeBufferPointer { words -> SIMD3<Float>? in
            while true {
                visited &+= 1
                let k = OccupancyGrid.index(x, y, z)
                if words[k >> 6] >> UInt64(k & 63) & 1 != 0 {
                    let exit = Swift.min(end, Swift.min(nx, Swift.min(ny, nz)))
                    return ray.at(exit.isFinite ? 0.5 * (t + exit) : t)
                }
                // A cell coordinate moves one way per axis: at most 3 x 32 steps before it leaves the grid.
                if nx <= ny && nx <= nz {
                    guard sx != 0, nx <= end else { return nil }
                    t = nx; x &+= sx; nx += dx
                    guard x >= 0 && x <= last else { return nil }
                } else if ny <= nz {
                    guard sy != 0, ny <= end else { return nil }
                    t = ny; y &+= sy; ny += dy
                    guard y >= 0 && y <= last else { return nil }
                } else {
                    guard sz != 0, nz <= end else { return nil }
                    t = nz; z &+= sz; nz += dz
                    guard z >= 0 && z <= last else { return nil }
                }
            }
        }
    }
}
