// Packets of camera rays (eight from one origin traced together) against the same rays traced one by one: equal bit
// for bit on closed meshes, on flat grids aimed at their vertices and edges (where several triangles meet a ray at
// once), and on stacked copies of triangles (equal t in different leaves), for every storage and range; on copies mixed
// into leaves of different boxes (equal t in leaves that a packet visits in another order than a ray alone); and which
// groups of rays make a packet.
import FathomCore
import Testing

/// Rays from `eye` through a width x height grid of points on z = 0 spanning [-half, half]^2 (rows y, then columns x:
/// scanline order), with direction target - eye.
func cameraRays(eye: SIMD3<Float>, width: Int, height: Int, half: Float) -> [Ray] {
    var rays = [Ray]()
    for row in 0..<height {
        for column in 0..<width {
            let x = -half + 2 * half * Float(column) / Float(width - 1), y = -half + 2 * half * Float(row) / Float(height - 1)
            rays.append(Ray(origin: eye, direction: SIMD3(x, y, 0) - eye))
        }
    }
    return rays
}

/// A flat grid of n x n unit squares at z = 0 from (-n/2, -n/2), each split into two triangles, `copies` times over
/// (identical triangles, numbered copy after copy).
func flatGrid(_ n: Int, copies: Int = 1) -> Soup {
    var soup = Soup()
    for _ in 0..<copies {
        for i in 0..<n {
            for j in 0..<n {
                let x = Float(i - n / 2), y = Float(j - n / 2)
                soup.add(SIMD3(x, y, 0), SIMD3(x + 1, y, 0), SIMD3(x + 1, y + 1, 0))
                soup.add(SIMD3(x, y, 0), SIMD3(x + 1, y + 1, 0), SIMD3(x, y + 1, 0))
            }
        }
    }
    return soup
}

/// Runs body with a mesh of the soup kept as `storage` (a borrowed one reading the soup's vertices in place).
func withMesh(_ soup: Soup, _ storage: Mesh.Storage, _ body: (Mesh) throws -> Void) throws {
    guard storage == .borrow else { return try body(try Mesh.make(from: soup.data, storage: storage)) }
    try withPoints(soup.vertices) { points in
        try soup.indices.withUnsafeBufferPointer { indices in
            try body(try Mesh(vertices: points, indices: indices, classes: nil, storage: .borrow))
        }
    }
}

@Suite("Ray packets")
struct RayPacketTests {
    @Test("camera rays traced eight at a time equal single rays bit for bit", arguments: [Mesh.Storage.copy, .borrow, .compact])
    func packetsEqualSingleRays(storage: Mesh.Storage) throws {
        // A closed sphere seen from outside and from inside; a grid aimed at through its vertices and edge midpoints
        // (33 columns over 16 units); 12 stacked copies of a grid (more equal triangles than a leaf holds, so equal hits
        // in different leaves). Each with its ranges: all, and two that part the hits (t in units of |direction|, which
        // is the distance to the plane z = 0).
        let sphere = Soup(try MeshData.icosphere(subdivisions: 4))
        let cases: [(Soup, [Ray], [(Float, Float)])] = [
            (sphere, cameraRays(eye: SIMD3(0.01, 0.02, 3), width: 64, height: 48, half: 0.2), [(0, .infinity), (0.5, 0.668), (0.668, 5)]),
            (sphere, cameraRays(eye: SIMD3(0.1, -0.2, 0.6), width: 64, height: 48, half: 0.1), [(0, .infinity), (1, 2.6), (2.6, 9)]),
            (flatGrid(16), cameraRays(eye: SIMD3(0.25, 0.5, 100), width: 33, height: 33, half: 8), [(0, .infinity), (0.5, 1), (1, 2)]),
            (flatGrid(4, copies: 12), cameraRays(eye: SIMD3(3, 3, 200), width: 17, height: 17, half: 2), [(0, .infinity), (0.5, 1), (1, 2)]),
        ]
        for (index, (soup, rays, ranges)) in cases.enumerated() {
            try withMesh(soup, storage) { mesh in
                var packets = 0
                for (tmin, tmax) in ranges {
                    let single = rays.map { mesh.intersect($0, tmin: tmin, tmax: tmax) }
                    #expect(single.contains { $0 != nil }, "case \(index) [\(tmin), \(tmax)]: something is hit")
                    for first in stride(from: 0, to: rays.count - 7, by: 8) {
                        let group = Array(rays[first..<first + 8])
                        guard let hits = group.withUnsafeBufferPointer({ mesh.intersectPacket($0.baseAddress!, tmin: tmin, tmax: tmax) }) else { continue }
                        packets += 1
                        let differing = (0..<8).filter { hitBits(hits[$0]) != hitBits(single[first + $0]) }
                        #expect(differing.isEmpty, "case \(index) [\(tmin), \(tmax)]: rays \(differing.map { first + $0 }) differ")
                    }
                    // The batch traces the same packets (these batches keep the caller's order) and the rest one by one.
                    let packed = packRays(rays)
                    try packed.withUnsafeBufferPointer { p in
                        let buffer = RayBuffer(base: p.baseAddress!, count: rays.count)
                        try Mesh.validate(buffer)
                        for threads in [1, 2] {
                            let batch = batchHits(mesh, buffer, tmin: tmin, tmax: tmax, threads: threads)
                            let differing = (0..<rays.count).filter { hitBits(batch[$0]) != hitBits(single[$0]) }
                            #expect(differing.isEmpty, "case \(index) [\(tmin), \(tmax)], threads \(threads): \(differing.count) rays differ")
                        }
                    }
                }
                // Most groups of a scanline make a packet (not those whose directions change sign on an axis).
                #expect(packets >= 3 * (rays.count / 8) / 2, "case \(index): \(packets) packets over three ranges")
            }
        }
    }

    @Test("copies of a triangle in leaves of different boxes: a packet, which may visit them in another order, finds the same copy")
    func tiesAcrossLeavesInOtherOrders() throws {
        // 24 copies of one triangle among 40 others whose boxes have the same centre (the origin) but other shapes: the
        // builder cannot part equal centres by the SAH and halves the range by count, so leaves mix copies and others
        // and their boxes differ. A ray alone enters those leaves in the order of its own entries, a packet in the order
        // of its eight rays' least entries, which is not always the same. Every ray through the triangle's part that
        // no other triangle covers has 24 equal nearest hits in several leaves, and the copy reported must not depend
        // on that order.
        var rng = SplitMix64(seed: 3700)
        let a = SIMD3<Float>(-2, -2, -0.5), b = SIMD3<Float>(2, -2, 0.5), c = SIMD3<Float>(0, 2, 0)
        var packets = 0, tied = 0, rayCount = 0
        for _ in 0..<12 {
            var soup = Soup()
            for k in 0..<64 {
                if k % 8 < 3 {
                    soup.add(a, b, c)
                } else {
                    // Upright, in the plane x = 0 or y = 0 (rays from above seldom meet it), spanning a box [-s, s] x [0, 0] x
                    // [-h, h] or [0, 0] x [-s, s] x [-h, h].
                    let s = rng.float(0.5...3), h = rng.float(0.05...3), across = rng.float(-s...s), up = rng.float(-h...h)
                    if k % 2 == 0 {
                        soup.add(SIMD3(0, -s, -h), SIMD3(0, s, up), SIMD3(0, across, h))
                    } else {
                        soup.add(SIMD3(-s, 0, -h), SIMD3(s, 0, up), SIMD3(across, 0, h))
                    }
                }
            }
            let mesh = try soup.mesh()
            let eye = SIMD3<Float>(rng.float(-3...3), rng.float(-3...3), rng.float(3...6))
            let rays = cameraRays(eye: eye, width: 96, height: 96, half: 1.5)
            rayCount += rays.count
            let single = rays.map { mesh.intersect($0, tmin: 0, tmax: .infinity) }
            tied += single.filter { $0.map { $0.primitive % 8 < 3 } ?? false }.count
            for first in stride(from: 0, to: rays.count, by: 8) {
                let group = Array(rays[first..<first + 8])
                guard let hits = group.withUnsafeBufferPointer({ mesh.intersectPacket($0.baseAddress!, tmin: 0, tmax: .infinity) }) else { continue }
                packets += 1
                let differing = (0..<8).filter { hitBits(hits[$0]) != hitBits(single[first + $0]) }
                #expect(differing.isEmpty, "rays \(differing.map { first + $0 }) differ")
            }
        }
        // A fifth of the rays or more end on the copies, and most groups make a packet (30% and 90% with this seed).
        #expect(tied >= rayCount / 5 && packets >= 3 * rayCount / 32, "\(tied) of \(rayCount) rays on the copies, \(packets) packets")
    }

    @Test("only rays from one origin, of one sign per axis and close in direction make a packet")
    func whichRaysMakeAPacket() throws {
        let mesh = try flatGrid(4).mesh()
        let eye = SIMD3<Float>(0, 0, 5)
        let close = (0..<8).map { k in Ray(origin: eye, direction: SIMD3(0.5 + 0.01 * Float(k), 0.5, -5)) }
        func packet(_ rays: [Ray]) -> Bool { rays.withUnsafeBufferPointer { mesh.intersectPacket($0.baseAddress!, tmin: 0, tmax: .infinity) != nil } }
        #expect(packet(close))
        var moved = close
        moved[5].origin.x += 0x1p-20
        #expect(!packet(moved), "origins differ")
        var flipped = close
        flipped[3].direction.y = -0.0
        #expect(!packet(flipped), "a sign differs (-0 counts as negative)")
        var wide = close
        wide[7].direction.x = 1.5   // about 11 degrees from the others
        #expect(!packet(wide), "directions spread too far")
        var axis = close
        for k in 0..<8 { axis[k].direction.y = 0 }
        #expect(packet(axis), "a zero component of one sign on every ray")
        let hits = axis.withUnsafeBufferPointer { mesh.intersectPacket($0.baseAddress!, tmin: 0, tmax: .infinity) } ?? []
        #expect(hits.count == 8 && (0..<8).allSatisfy { hitBits(hits[$0]) == hitBits(mesh.intersect(axis[$0], tmin: 0, tmax: .infinity)) })
    }

    @Test("the batch's quick test of a group's first and last ray passes every packet and few random camera groups")
    func quickPacketTest() throws {
        let mesh = try flatGrid(4).mesh()
        var rng = SplitMix64(seed: 91)
        var packets = 0, passed = 0
        for k in 0..<20000 {
            // Eight directions along a segment across a random one, the first and last at its ends (the pair the quick
            // test reads), about the packet's spread apart on every axis (some just inside, some just outside), scaled
            // by lengths from 1e-3 to 1e3; origins shared.
            let eye = SIMD3<Float>(rng.float(-2...2), rng.float(-2...2), rng.float(-2...2))
            var base = SIMD3<Float>(rng.float(-1...1), rng.float(-1...1), rng.float(-1...1))
            if k % 4 == 0 { base[k / 4 % 3] = 0.001 }  // a component near 0
            base /= (base * base).sum().squareRoot()
            let across = SIMD3<Float>(rng.next() % 2 == 0 ? 1 : -1, rng.next() % 2 == 0 ? 1 : -1, rng.next() % 2 == 0 ? 1 : -1)
            let half = rng.float(0.015...0.035)
            let rays = (0..<8).map { i -> Ray in
                let u = base + across * half * (Float(i) / 3.5 - 1)
                return Ray(origin: eye, direction: u * [1e-3, 0.1, 1, 10, 1e3][Int(rng.next() % 5)])
            }
            let isPacket = rays.withUnsafeBufferPointer { mesh.intersectPacket($0.baseAddress!, tmin: 0, tmax: .infinity) != nil }
            if isPacket {
                packets += 1
                #expect(Mesh.mayPack(rays[0], rays[7]), "case \(k): a packet the quick test would skip")
            }
        }
        #expect(packets > 2000)
        // A camera's rays in a random order (taps anywhere on the screen): about 5% of pairs lie within 6 degrees.
        let camera = cameraRays(eye: SIMD3(0, 0, 3), width: 64, height: 64, half: 1.2).shuffled(using: &rng)
        for k in stride(from: 0, to: camera.count - 7, by: 8) where Mesh.mayPack(camera[k], camera[k + 7]) { passed += 1 }
        #expect(passed < camera.count / 8 / 10, "\(passed) of \(camera.count / 8) pass")
        var moved = camera[0]
        moved.origin.z += 0x1p-20
        #expect(Mesh.mayPack(camera[0], camera[0]) && !Mesh.mayPack(camera[0], moved))
    }

    @Test("a packet's rays are laid out as packet.h reads them")
    func packetLayout() {
        typealias P = Mesh.PacketRays
        let vectors: [PartialKeyPath<P>] = [\P.ox, \P.oy, \P.oz, \P.ix, \P.iy, \P.iz, \P.fx, \P.fy, \P.fz]
        #expect(vectors.map { MemoryLayout<P>.offset(of: $0) } == (0..<9).map { 32 * $0 })
        let offsets: [PartialKeyPath<P>] = [\P.nearX, \P.nearY, \P.nearZ, \P.farX, \P.farY, \P.farZ]
        // FATHOM_PACKET_VECTORS (9) vectors of 32 bytes, then six 8-byte intptr_t.
        #expect(offsets.map { MemoryLayout<P>.offset(of: $0) } == (0..<6).map { 288 + 8 * $0 })
        #expect(MemoryLayout<P>.size == 288 + 48)
    }
}
