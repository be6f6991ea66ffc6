// Watertightness (fathom.h: "a ray through a shared edge or vertex of a closed mesh hits once, never
// zero times"): a subdivided icosphere hit by 200k rays from inside with zero misses, rays exactly
// through every vertex and near every edge midpoint crossing once, rays from outside crossing an even
// number of times; the same at 1e-3 and 1e3 scale and 1 km from the origin; and a flat grid hit exactly
// on its shared vertices and edges.
import FathomCore
import Glibc
import Testing

/// An icosphere (subdivisions 5: 20480 triangles, 10242 vertices) of the given radius and centre.
struct Sphere {
    let radius: Float
    let center: SIMD3<Float>
    let soup: Soup
    let mesh: Mesh

    init(radius: Float, center: SIMD3<Float>) throws {
        self.radius = radius
        self.center = center
        soup = Soup(try MeshData.icosphere(subdivisions: 5, radius: radius, center: center))
        mesh = try soup.mesh()
    }

    /// Each edge once, as (smaller vertex index, larger).
    var edges: [(UInt32, UInt32)] {
        var seen = Set<UInt64>(), out = [(UInt32, UInt32)]()
        for k in 0..<soup.triangleCount {
            for (a, b) in [(soup.indices[3 * k], soup.indices[3 * k + 1]), (soup.indices[3 * k + 1], soup.indices[3 * k + 2]),
                           (soup.indices[3 * k + 2], soup.indices[3 * k])] {
                let key = UInt64(min(a, b)) << 32 | UInt64(max(a, b))
                if seen.insert(key).inserted { out.append((min(a, b), max(a, b))) }
            }
        }
        return out
    }

    /// A uniform random point of the ball of 0.99 radius (the polyhedron's faces are all farther out than
    /// 0.9998 radius).
    func interiorPoint(_ rng: inout SplitMix64) -> SIMD3<Float> {
        let r = 0.99 * Double(radius) * cbrt(rng.unit())
        return SIMD3<Float>(SIMD3<Double>(center) + r * rng.direction())
    }
}

@Suite("Watertight meshes")
struct WatertightTests {
    /// (radius, centre): the unit sphere, scaled by 1e-3 and 1e3, and moved 1 km away.
    static let spheres: [(Float, SIMD3<Float>)] = [(1, .zero), (1e-3, .zero), (1e3, .zero), (1, SIMD3(1000, 0, 1000))]

    @Test("the icosphere fixture: 20480 triangles, closed (every edge in exactly two), wound outward")
    func fixture() throws {
        let s = try Sphere(radius: 1, center: .zero)
        #expect(s.soup.triangleCount == 20 * 1024 && s.soup.vertices.count == 10242 && s.mesh.triangleCount == 20480)
        var uses = [UInt64: Int]()
        for k in 0..<s.soup.triangleCount {
            let i = s.soup.indices[(3 * k)..<(3 * k + 3)].map { $0 }
            for (a, b) in [(i[0], i[1]), (i[1], i[2]), (i[2], i[0])] { uses[UInt64(min(a, b)) << 32 | UInt64(max(a, b)), default: 0] += 1 }
            let (p, q, r) = s.soup.triangle(k)
            #expect(dot(cross(q - p, r - p), p + q + r) > 0, "triangle \(k) wound inward")
        }
        #expect(uses.count == 30720 && uses.values.allSatisfy { $0 == 2 })
        #expect(s.soup.vertices.allSatisfy { abs(length($0) - 1) <= 2 * ulp })
        expectError(.outOfRange, containing: ["subdivisions"]) { () throws(FathomError) in _ = try MeshData.icosphere(subdivisions: 10) }
        expectError(.outOfRange, containing: ["radius"]) { () throws(FathomError) in _ = try MeshData.icosphere(subdivisions: 1, radius: 0) }
    }

    @Test("200k rays from random interior points: every one hits (0 misses), on the back side, once",
          arguments: WatertightTests.spheres)
    func interiorRaysAllHit(radius: Float, center: SIMD3<Float>) throws {
        let s = try Sphere(radius: radius, center: center)
        var rng = SplitMix64(seed: 6000 + UInt64(radius.bitPattern))
        let n = 200_000
        var rays = [Ray]()
        rays.reserveCapacity(n)
        for _ in 0..<n {
            // Directions of any length from 1e-3 to 1e3 (t scales, hits do not).
            rays.append(Ray(origin: s.interiorPoint(&rng), direction: SIMD3<Float>(rng.direction()) * Float(pow(10, rng.double(-3...3)))))
        }
        let packed = packRays(rays)
        let (hits, occluded) = packed.withUnsafeBufferPointer { p -> ([Hit?], [UInt8]) in
            let buffer = RayBuffer(base: p.baseAddress!, count: n)
            var flags = [UInt8](repeating: 0, count: n)
            flags.withUnsafeMutableBufferPointer { s.mesh.occluded(buffer, tmin: 0, tmax: .infinity, threads: 0, into: $0.baseAddress!) }
            return (batchHits(s.mesh, buffer, tmin: 0, tmax: .infinity, threads: 0), flags)
        }
        let misses = (0..<n).filter { hits[$0] == nil }
        #expect(misses.isEmpty, "\(misses.count) of \(n) interior rays missed; first: \(misses.first.map { "\(rays[$0])" } ?? "")")
        #expect(occluded.allSatisfy { $0 == 1 }, "\(occluded.filter { $0 == 0 }.count) interior rays not occluded")
        // Every hit is on the surface (between the nearest face plane and the circumscribed sphere), seen
        // from inside (outward winding: the back side).
        let inner = (0..<s.soup.triangleCount).map { k -> Double in
            let (a, b, c) = s.soup.triangle(k)
            let e = SIMD3<Double>(center)
            let normal = cross(SIMD3<Double>(b) - SIMD3<Double>(a), SIMD3<Double>(c) - SIMD3<Double>(a))
            return dot(normal / length(normal), SIMD3<Double>(a) - e)
        }.min()!
        #expect(inner > 0.999 * Double(radius))
        let slack = 16 * Double(ulp) * Double(maxAbs(center) + radius)
        var wrong = 0
        for i in 0..<n {
            guard let hit = hits[i] else { continue }
            let r = length(SIMD3<Double>(hit.point) - SIMD3<Double>(center))
            if !(r >= inner - slack && r <= Double(radius) * (1 + 1e-6) + slack) || hit.frontFace { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) hits off the surface or on the front side")
        // One crossing each (single-ray queries on a sample).
        let crossings = rays.prefix(20_000).map { s.mesh.intersectAll($0, tmin: 0, tmax: .infinity).count }
        #expect(crossings.allSatisfy { $0 == 1 }, "crossing counts \(Dictionary(grouping: crossings, by: { $0 }).mapValues(\.count))")
    }

    @Test("rays from the centre exactly through every vertex, and at every edge midpoint, hit once",
          arguments: WatertightTests.spheres)
    func throughVerticesAndEdges(radius: Float, center: SIMD3<Float>) throws {
        let s = try Sphere(radius: radius, center: center)
        var bad = [String]()
        for (i, v) in s.soup.vertices.enumerated() {
            // v - center is exact here (Sterbenz, or a zero centre): the ray passes through the vertex at t = 1.
            let ray = Ray(origin: center, direction: v - center)
            let all = s.mesh.intersectAll(ray, tmin: 0, tmax: .infinity)
            let hit = s.mesh.intersect(ray, tmin: 0, tmax: .infinity)
            if all.count != 1 || hit == nil || !close(hit!.t, 1, 1e-5) || !s.mesh.occluded(ray, tmin: 0, tmax: .infinity) {
                bad.append("vertex \(i): \(all.count) crossings, t \(all.map(\.t)), ray \(ray)")
            }
        }
        for (a, b) in s.edges {
            let m = (s.soup.vertices[Int(a)] + s.soup.vertices[Int(b)]) / 2
            let ray = Ray(origin: center, direction: m - center)
            let all = s.mesh.intersectAll(ray, tmin: 0, tmax: .infinity)
            if all.count != 1 || s.mesh.intersect(ray, tmin: 0, tmax: .infinity) == nil {
                bad.append("edge (\(a), \(b)): \(all.count) crossings, t \(all.map(\.t)), ray \(ray)")
            }
        }
        #expect(bad.isEmpty, "\(bad.count) failures; first: \(bad.prefix(5))")
        // Through every vertex from a random interior point as well.
        var rng = SplitMix64(seed: 6100)
        var missed = 0
        for v in s.soup.vertices {
            let o = s.interiorPoint(&rng)
            let ray = Ray(origin: o, direction: v - o)
            if s.mesh.intersectAll(ray, tmin: 0, tmax: .infinity).count != 1 { missed += 1 }
        }
        #expect(missed == 0, "\(missed) rays through vertices from interior points did not cross once")
    }

    @Test("from outside through the centre: two crossings, entry then exit; random outside rays cross an even number of times",
          arguments: WatertightTests.spheres)
    func outsideRays(radius: Float, center: SIMD3<Float>) throws {
        let s = try Sphere(radius: radius, center: center)
        var rng = SplitMix64(seed: 6200)
        var bad = [String]()
        for _ in 0..<20_000 {
            let origin = SIMD3<Float>(SIMD3<Double>(center) + Double(radius) * rng.double(1.5...10) * rng.direction())
            let ray = Ray(origin: origin, direction: center - origin)
            let all = s.mesh.intersectAll(ray, tmin: 0, tmax: .infinity)
            if all.count != 2 || !all[0].frontFace || all[1].frontFace || s.mesh.intersect(ray, tmin: 0, tmax: .infinity)?.frontFace != true {
                bad.append("\(all.count) crossings \(all.map { ($0.t, $0.frontFace) }), ray \(ray)")
            }
        }
        #expect(bad.isEmpty, "\(bad.count) rays through the centre; first: \(bad.prefix(5))")
        if center == .zero {
            // Exactly through a vertex v and out near -v: from 2v along -v (both exact).
            var wrong = 0
            for v in s.soup.vertices {
                let all = s.mesh.intersectAll(Ray(origin: 2 * v, direction: -v), tmin: 0, tmax: .infinity)
                if all.count != 2 || !close(all[0].t, 1, 1e-5) || !close(all[1].t, 3, 1e-4) { wrong += 1 }
            }
            #expect(wrong == 0, "\(wrong) rays through vertices from outside did not cross twice")
        }
        // Random outside rays: 0 or 2 crossings (a convex surface), never 1.
        var counts = [Int: Int]()
        for _ in 0..<50_000 {
            let origin = SIMD3<Float>(SIMD3<Double>(center) + Double(radius) * rng.double(1.05...5) * rng.direction())
            var d = SIMD3<Float>(rng.direction())
            if rng.unit() < 0.5 { d = SIMD3<Float>(SIMD3<Double>(center) + Double(radius) * 1.2 * rng.direction()) - origin }
            let n = s.mesh.intersectAll(Ray(origin: origin, direction: d), tmin: 0, tmax: .infinity).count
            counts[n, default: 0] += 1
        }
        #expect(counts.keys.allSatisfy { $0 == 0 || $0 == 2 }, "crossing counts \(counts)")
        #expect((counts[2] ?? 0) > 10_000)
    }

    @Test("a flat grid: rays exactly through interior grid vertices, edge and diagonal midpoints hit once, from both sides")
    func flatGrid() throws {
        // 16 x 16 quads of side 1/8 in the plane y = 0, two triangles each, normal +y, shared vertices.
        let n = 16
        var soup = Soup()
        for j in 0...n { for i in 0...n { soup.vertices.append(SIMD3(Float(i) / 8, 0, Float(j) / 8)) } }
        func index(_ i: Int, _ j: Int) -> UInt32 { UInt32(j * (n + 1) + i) }
        for j in 0..<n {
            for i in 0..<n {
                // Alternate the diagonal so vertices have 4 to 8 triangles around them.
                if (i + j) % 2 == 0 {
                    soup.indices += [index(i, j), index(i, j + 1), index(i + 1, j + 1), index(i, j), index(i + 1, j + 1), index(i + 1, j)]
                } else {
                    soup.indices += [index(i, j), index(i, j + 1), index(i + 1, j), index(i + 1, j), index(i, j + 1), index(i + 1, j + 1)]
                }
            }
        }
        let mesh = try soup.mesh()
        #expect(mesh.faceGeometry().normals.allSatisfy { $0 == SIMD3(0, 1, 0) })
        var rng = SplitMix64(seed: 6300)
        var targets = [SIMD3<Float>]()
        for j in 1..<n { for i in 1..<n { targets.append(SIMD3(Float(i) / 8, 0, Float(j) / 8)) } }                   // vertices
        for j in 1..<n { for i in 0..<n { targets.append(SIMD3((Float(i) + 0.5) / 8, 0, Float(j) / 8)) } }           // edges along x
        for j in 0..<n { for i in 1..<n { targets.append(SIMD3(Float(i) / 8, 0, (Float(j) + 0.5) / 8)) } }           // edges along z
        for j in 0..<n { for i in 0..<n { targets.append(SIMD3((Float(i) + 0.5) / 8, 0, (Float(j) + 0.5) / 8)) } }   // diagonals
        var bad = [String]()
        for target in targets {
            for _ in 0..<8 {
                // An offset with few bits, so origin = target + offset and direction = -offset are exact.
                var offset = SIMD3(Float(rng.int(-96...96)), Float(rng.int(16...160)), Float(rng.int(-96...96))) / 64
                if rng.unit() < 0.5 { offset.y = -offset.y }
                let ray = Ray(origin: target + offset, direction: -offset)
                let all = mesh.intersectAll(ray, tmin: 0, tmax: .infinity)
                let hit = mesh.intersect(ray, tmin: 0, tmax: .infinity)
                if all.count != 1 || hit == nil || !close(hit!.t, 1, 4 * ulp) || hit!.frontFace != (offset.y > 0)
                    || !close(hit!.point, target, 16 * ulp) {
                    bad.append("target \(target): \(all.count) crossings, hit \(String(describing: hit)), ray \(ray)")
                }
            }
        }
        #expect(bad.isEmpty, "\(bad.count) of \(8 * targets.count) rays; first: \(bad.prefix(5))")
    }

    @Test("the single-triangle test is watertight too: of two triangles sharing an edge, a ray through the edge hits at least one")
    func sharedEdgeSingleTriangles() throws {
        var rng = SplitMix64(seed: 6400)
        var misses = 0
        for _ in 0..<20_000 {
            // A random quad split along its diagonal a-c, slightly folded; rays through a point of a-c.
            let a = rng.vector(-2...2), c = rng.vector(-2...2)
            let b = rng.vector(-2...2), d = rng.vector(-2...2)
            // A point of the edge's interior, rounded to Float (so within an ulp of the edge, on either side).
            // (Not the end points: a fan of only two triangles does not cover a vertex.)
            let s = rng.float(0.001...0.999)
            let onEdge = a + s * (c - a)
            let origin = rng.vector(-4...4)
            let ray = Ray(origin: origin, direction: onEdge - origin)
            guard ray.direction != .zero else { continue }
            // The two triangles must lie on opposite sides of the line a-c as seen along the ray.
            let dd = SIMD3<Double>(ray.direction), ad = SIMD3<Double>(a) - SIMD3<Double>(origin), cd = SIMD3<Double>(c) - SIMD3<Double>(origin)
            let side = { (p: SIMD3<Float>) in dot(cross(ad, cd), SIMD3<Double>(p) - SIMD3<Double>(origin)) }
            guard side(b) * side(d) < 0, abs(dot(cross(ad, cd), dd)) < 1e-3 * length(cross(ad, cd)) * length(dd) else { continue }
            let h1 = try PrimitiveCast.triangle(ray, tmin: 0, tmax: .infinity, a, b, c)
            let h2 = try PrimitiveCast.triangle(ray, tmin: 0, tmax: .infinity, a, c, d)
            if h1 == nil && h2 == nil {
                misses += 1
                if misses <= 3 { Issue.record("both missed: ray \(ray), triangles \(a) \(b) \(c) / \(a) \(c) \(d)") }
            }
        }
        #expect(misses == 0)
    }
}
