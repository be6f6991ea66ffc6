import FathomCore
import Testing

/// The batch ray order's occupancy grid, against references computed here in Double: which cells small triangles
/// occupy, every cell's Chebyshev distance to the nearest occupied cell ahead of it in each octant of directions by brute
/// force, and each ray's first occupied cell by a cell-by-cell walk.
@Suite("Occupancy grid")
struct OccupancyGridTests {
    static let cells = 32

    /// Triangles smaller than a cell (a grid over [-1, 1]^3 has cells of 1/16), so exactly their corners' cells are
    /// occupied: clusters, so that most of the grid is empty and the distances vary.
    static func clusteredTriangles(_ rng: inout SplitMix64, count: Int) -> [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)] {
        let centres = (0..<6).map { _ in SIMD3<Float>(rng.float(-0.9...0.9), rng.float(-0.9...0.9), rng.float(-0.9...0.9)) }
        var triangles = [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)]()
        // The bounds' corners, so that the grid spans [-1, 1]^3 exactly.
        triangles.append((SIMD3(-1, -1, -1), SIMD3(-1, -1, -0.99), SIMD3(-1, -0.99, -1)))
        triangles.append((SIMD3(1, 1, 1), SIMD3(1, 1, 0.99), SIMD3(1, 0.99, 1)))
        for k in 0..<count {
            let c = centres[k % centres.count]
            let a = c + SIMD3(rng.float(-0.15...0.15), rng.float(-0.15...0.15), rng.float(-0.15...0.15))
            triangles.append((a, a + SIMD3(rng.float(0...0.02), 0, 0), a + SIMD3(0, rng.float(0...0.02), rng.float(0...0.02))))
        }
        return triangles
    }

    /// The cell of a point of [-1, 1]^3 (cells of 1/16), clamped to the grid.
    static func cell(_ p: SIMD3<Float>) -> SIMD3<Int> {
        SIMD3((0..<3).map { axis in Swift.min(cells - 1, Swift.max(0, Int(((Double(p[axis]) + 1) * 16).rounded(.down)))) })
    }

    /// Whether a point lies in a cell or on its boundary (up to rounding): a ray that only touches an occupied cell (at
    /// a corner of the grid, say) has its point there.
    static func closedCell(_ c: SIMD3<Int>, holds p: SIMD3<Float>) -> Bool {
        (0..<3).allSatisfy { axis in
            let x = (Double(p[axis]) + 1) * 16
            return x >= Double(c[axis]) - 1e-4 && x <= Double(c[axis] + 1) + 1e-4
        }
    }

    /// 400 clustered triangles from `rng`, their grid, and the cells they occupy.
    static func fixture(_ rng: inout SplitMix64) -> (triangles: [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)], grid: OccupancyGrid,
                                                   occupied: Set<SIMD3<Int>>) {
        let triangles = clusteredTriangles(&rng, count: 400)
        let grid = OccupancyGrid(lo: SIMD3(repeating: -1), hi: SIMD3(repeating: 1), count: triangles.count) { triangles[$0] }
        var occupied = Set<SIMD3<Int>>()
        for (a, b, c) in triangles { for p in [a, b, c] { occupied.insert(cell(p)) } }
        return (triangles, grid, occupied)
    }

    /// 60,000 small triangles all over [-1, 1]^3 from `rng`, their grid, and the cells they occupy: nearly every cell, so
    /// that most rays stop in their first cell.
    static func denseFixture(_ rng: inout SplitMix64) -> (triangles: [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)],
                                                        grid: OccupancyGrid, occupied: Set<SIMD3<Int>>) {
        var triangles: [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)] = [(SIMD3(-1, -1, -1), SIMD3(-1, -1, -0.99), SIMD3(-1, -0.99, -1)),
                                                                        (SIMD3(1, 1, 1), SIMD3(1, 1, 0.99), SIMD3(1, 0.99, 1))]
        for _ in 0..<60000 {
            let a = SIMD3<Float>(rng.float(-0.97...0.97), rng.float(-0.97...0.97), rng.float(-0.97...0.97))
            triangles.append((a, a + SIMD3(rng.float(0...0.03), 0, 0), a + SIMD3(0, rng.float(0...0.03), rng.float(0...0.03))))
        }
        let grid = OccupancyGrid(lo: SIMD3(repeating: -1), hi: SIMD3(repeating: 1), count: triangles.count) { triangles[$0] }
        var occupied = Set<SIMD3<Int>>()
        for (a, b, c) in triangles { for p in [a, b, c] { occupied.insert(cell(p)) } }
        return (triangles, grid, occupied)
    }

    @Test("distances are, for each octant of directions, each cell's Chebyshev distance to the nearest occupied cell ahead")
    func distances() {
        var rng = SplitMix64(seed: 71)
        let (triangles, grid, occupied) = OccupancyGridTests.fixture(&rng)
        #expect(occupied.count > 50 && occupied.count < 3000)
        let cells = occupied.map { SIMD3<Int32>(Int32($0.x), Int32($0.y), Int32($0.z)) }
        var largest = 0, differ = 0
        for octant in 0..<8 {
            // +1 along an axis the octant's rays run up, -1 where they run down.
            let sign = SIMD3<Int32>(octant & 1 != 0 ? -1 : 1, octant & 2 != 0 ? -1 : 1, octant & 4 != 0 ? -1 : 1)
            for z in 0..<32 {
                for y in 0..<32 {
                    for x in 0..<32 {
                        let c = SIMD3<Int32>(Int32(x), Int32(y), Int32(z))
                        var expected: Int32 = 255
                        for o in cells {
                            let ahead = (o &- c) &* sign
                            if ahead.min() >= 0 { expected = Swift.min(expected, ahead.max()) }
                        }
                        if expected < 255 { largest = Swift.max(largest, Int(expected)) }
                        if grid.distance(x, y, z, octant: octant) != Int(expected) {
                            differ += 1
                            if differ <= 5 { Issue.record("octant \(octant), cell \(x), \(y), \(z): \(grid.distance(x, y, z, octant: octant)), expected \(expected)") }
                        }
                    }
                }
            }
        }
        #expect(differ == 0)
        #expect(largest >= 16)  // the jumps are tested over long empty stretches
        let empty = OccupancyGrid(lo: SIMD3(repeating: -1), hi: SIMD3(repeating: 1), count: 0) { triangles[$0] }
        #expect((0..<8).allSatisfy { empty.distance(0, 0, 0, octant: $0) == 255 && empty.distance(31, 17, 5, octant: $0) == 255 })
    }

    /// The first occupied cell along a ray within [tmin, tmax], walking cell by cell in Double; nil when none.
    static func firstOccupiedCell(_ ray: Ray, tmin: Double, tmax: Double, _ occupied: Set<SIMD3<Int>>) -> SIMD3<Int>? {
        let o = SIMD3<Double>(ray.origin), d = SIMD3<Double>(ray.direction)
        // In cell units over [0, 32]^3.
        let g = (o + 1) * 16, v = d * 16
        var t = tmin, end = tmax
        for axis in 0..<3 {
            if v[axis] == 0 {
                if g[axis] < 0 || g[axis] > 32 { return nil }
            } else {
                let a = (0 - g[axis]) / v[axis], b = (32 - g[axis]) / v[axis]
                t = Swift.max(t, Swift.min(a, b)); end = Swift.min(end, Swift.max(a, b))
            }
        }
        guard t <= end else { return nil }
        // The cell the ray is in just after t: on a face, the one it moves into.
        var c = SIMD3<Int>((0..<3).map { a in
            let x = g[a] + t * v[a]
            return Swift.min(31, Swift.max(0, v[a] < 0 ? Int(x.rounded(.up)) - 1 : Int(x.rounded(.down))))
        })
        while true {
            if occupied.contains(c) { return c }
            var next = Double.infinity, axis = -1
            for a in 0..<3 where v[a] != 0 {
                let face = Double(v[a] > 0 ? c[a] + 1 : c[a])
                let ta = (face - g[a]) / v[a]
                if ta < next { next = ta; axis = a }
            }
            guard axis >= 0, next <= end else { return nil }
            c[axis] += v[axis] > 0 ? 1 : -1
            guard (0..<32).contains(c[axis]) else { return nil }
        }
    }

    @Test("the march finds the first occupied cell of a cell-by-cell walk, and a point of the ray in it")
    func firstOccupied() {
        var rng = SplitMix64(seed: 72)
        let sparse = OccupancyGridTests.fixture(&rng), dense = OccupancyGridTests.denseFixture(&rng)
        #expect(!sparse.grid.mostlyOccupied && dense.grid.mostlyOccupied)  // both marches
        for (triangles, grid, occupied) in [sparse, dense] {
            var rays = [(Ray, Float, Float)]()
            for k in 0..<20000 {
                var origin = SIMD3<Float>(rng.float(-1.5...1.5), rng.float(-1.5...1.5), rng.float(-1.5...1.5))
                var direction = SIMD3<Float>(rng.float(-1...1), rng.float(-1...1), rng.float(-1...1))
                switch k % 10 {
                case 0: direction[k / 10 % 3] = 0  // along a plane of the grid's axes
                case 1: direction = .zero; direction[k / 10 % 3] = k % 20 < 10 ? 1 : -1  // along an axis, both ways
                case 2: origin = origin.rounded(.down)  // starting on cell corners (integer coordinates, 16 cells apart)
                case 3: direction = SIMD3(-0.0, 1, 0.5)  // a negative zero: runs along x all the same
                case 4, 5, 6: break
                default: direction = triangles[Int(rng.next() % UInt64(triangles.count))].0 - origin  // at a triangle
                }
                if direction == .zero { direction = SIMD3(0, 0, 1) }
                let tmin: Float = k % 7 == 0 ? rng.float(0...1) : 0, tmax: Float = k % 5 == 0 ? rng.float(0.5...2) : .infinity
                rays.append((Ray(origin: origin, direction: direction), tmin, tmax))
            }
            var found = 0, agree = 0
            for (ray, tmin, tmax) in rays {
                let expected = OccupancyGridTests.firstOccupiedCell(ray, tmin: Double(tmin), tmax: Double(tmax), occupied)
                let point = grid.firstOccupied(ray, tmin: tmin, tmax: tmax)
                if let point {
                    // On the ray, within [tmin, tmax].
                    let t = dot(point - ray.origin, ray.direction) / dot(ray.direction, ray.direction)
                    let offRay = point - (ray.origin + t * ray.direction)
                    #expect(dot(offRay, offRay) < 1e-8 && t >= tmin - 1e-4 && t <= tmax + 1e-4)
                    found += 1
                }
                if let point, let expected, OccupancyGridTests.closedCell(expected, holds: point) { agree += 1 }
                if point == nil && expected == nil { agree += 1 }
            }
            // Rounding may differ from the walk's where a ray grazes a cell's edge or corner: a few rays in 20,000.
            #expect(agree >= rays.count - 20, "\(rays.count - agree) of \(rays.count) rays differ")
            #expect(found > rays.count / 4 && found < rays.count * 19 / 20, "\(found) of \(rays.count) rays found a cell")
        }
    }

    @Test("rays marched together give each ray's own point, on a sparse grid (lanes take new rays as theirs stop) and a dense one")
    func marchedTogether() {
        var rng = SplitMix64(seed: 74)
        let sparse = OccupancyGridTests.fixture(&rng), dense = OccupancyGridTests.denseFixture(&rng)
        #expect(!sparse.grid.mostlyOccupied && dense.grid.mostlyOccupied)  // both marches
        for (name, grid, triangles) in [("sparse", sparse.grid, sparse.triangles), ("dense", dense.grid, dense.triangles)] {
            // Counts around a group (8), a stage of rays started at once (256) and several stages.
            for count in [1, 7, 8, 9, 255, 256, 257, 1000] {
                let rays = (0..<count).map { k -> Ray in
                    let origin = SIMD3<Float>(rng.float(-1.5...1.5), rng.float(-1.5...1.5), rng.float(-1.5...1.5))
                    var direction = SIMD3<Float>(rng.float(-1...1), rng.float(-1...1), rng.float(-1...1))
                    if k % 3 == 0 { direction = triangles[Int(rng.next() % UInt64(triangles.count))].0 - origin }  // at a triangle
                    if k % 9 == 1 { direction[k % 3] = 0 }
                    if direction == .zero { direction = SIMD3(0, 0, 1) }
                    return Ray(origin: origin, direction: direction)
                }
                for (tmin, tmax): (Float, Float) in [(0, .infinity), (0.3, 1.2)] {
                    let together = grid.firstOccupied(rays, tmin: tmin, tmax: tmax)
                    var differ = 0, found = 0
                    for (ray, point) in zip(rays, together) {
                        let alone = grid.firstOccupied(ray, tmin: tmin, tmax: tmax)
                        if alone != point { differ += 1 }
                        if point != nil { found += 1 }
                    }
                    #expect(differ == 0, "\(name), \(count) rays, [\(tmin), \(tmax)]: \(differ) differ")
                    if count >= 255 { #expect(found > count / 5 && found < count, "\(name), \(count) rays, [\(tmin), \(tmax)]: \(found) found") }
                }
            }
        }
    }

    @Test("extreme rays (far origins, tiny and huge direction components, rays in the grid's faces) march to an answer")
    func extremeRays() {
        var rng = SplitMix64(seed: 73)
        let grid = OccupancyGridTests.fixture(&rng).grid
        let origins: [SIMD3<Float>] = [SIMD3(1e30, 0, 0), SIMD3(-3e38, 3e38, 0), SIMD3(-1, -1, -1), SIMD3(1, 1, 1), SIMD3(0, -1, 0.3),
                                       SIMD3(-1, 0.5, -1), SIMD3(.leastNonzeroMagnitude, 0, -0.0)]
        let directions: [SIMD3<Float>] = [SIMD3(-1, 0, 0), SIMD3(1e-30, 1, 0), SIMD3(1, 1e-38, -1e-38), SIMD3(0, 0, 1e18),
                                          SIMD3(-1e18, 1e18, 1e-20), SIMD3(0, 1, 0), SIMD3(-0.0, -0.0, 1), SIMD3(1e-6, 0, 0)]
        for origin in origins {
            for direction in directions {
                for (tmin, tmax): (Float, Float) in [(0, .infinity), (0, 0), (5, 1), (0, .greatestFiniteMagnitude)] {
                    let ray = Ray(origin: origin, direction: direction)
                    guard let point = grid.firstOccupied(ray, tmin: tmin, tmax: tmax) else { continue }
                    // A prediction lies in the grid's bounds (up to rounding) whenever the ray reaches them.
                    #expect(point.x >= -1.01 && point.x <= 1.01 && point.y >= -1.01 && point.y <= 1.01 && point.z >= -1.01 && point.z <= 1.01,
                            "\(origin) \(direction) [\(tmin), \(tmax)]: \(point)")
                    #expect(tmin <= tmax)
                }
            }
        }
    }
}
