// Mesh queries against an independent brute force: closest hit, occlusion and all crossings of random
// rays on random triangle soups, compared triangle by triangle with a Double Moeller-Trumbore test;
// batch queries equal to single rays bit for bit on 1, 2 and all threads; every small mesh size;
// degenerate, stacked and deep (SAH-hostile) inputs; sizes, bounds, face geometry and classes.
import FathomCore
import Glibc
import Testing

// MARK: - Triangle soups

/// Triangles as the tests build them: vertices, 3 indices per triangle, optional classes.
struct Soup {
    var vertices: [SIMD3<Float>] = []
    var indices: [UInt32] = []
    var classes: [UInt8]? = nil

    var triangleCount: Int { indices.count / 3 }

    func triangle(_ k: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        (vertices[Int(indices[3 * k])], vertices[Int(indices[3 * k + 1])], vertices[Int(indices[3 * k + 2])])
    }

    /// Appends a triangle with three new vertices.
    mutating func add(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) {
        let first = UInt32(vertices.count)
        vertices += [a, b, c]
        indices += [first, first + 1, first + 2]
    }

    var data: MeshData {
        MeshData(vertices: vertices.flatMap { [$0.x, $0.y, $0.z] }, indices: indices, classes: classes)
    }

    func mesh() throws -> Mesh { try Mesh.make(from: data) }

    init() {}

    init(_ data: MeshData) {
        vertices = (0..<data.vertexCount).map { SIMD3(data.vertices[3 * $0], data.vertices[3 * $0 + 1], data.vertices[3 * $0 + 2]) }
        indices = data.indices
        classes = data.classes
    }
}

/// `count` random triangles: centres uniform in [-extent, extent]^3, each vertex within `size` of it
/// per axis, no slivers (twice the area >= 0.1 longest edge^2, so most hits are decided away from edges),
/// classes uniform in 0...7.
func randomSoup(_ rng: inout SplitMix64, count: Int, extent: Float = 10, size: Float = 2) -> Soup {
    var soup = Soup()
    while soup.triangleCount < count {
        let c = rng.vector(-extent...extent)
        let a = c + rng.vector(-size...size), b = c + rng.vector(-size...size), d = c + rng.vector(-size...size)
        let A = SIMD3<Double>(a), B = SIMD3<Double>(b), D = SIMD3<Double>(d)
        let longest = max(length(B - A), length(D - B), length(A - D))
        guard length(cross(B - A, D - A)) >= 0.1 * longest * longest else { continue }
        soup.add(a, b, d)
    }
    soup.classes = (0..<count).map { _ in UInt8(rng.int(0...7)) }
    return soup
}

/// A random query: 60% of rays aimed at a random interior point of a random triangle, the rest in a
/// uniform direction; direction lengths are powers of two from 1/16 to 16 (t is in units of |direction|);
/// 70% with range [0, inf), the rest with a random finite range.
func randomQuery(_ rng: inout SplitMix64, _ soup: Soup, extent: Float = 10) -> (ray: Ray, tmin: Float, tmax: Float) {
    let origin = rng.vector(-1.5 * extent...1.5 * extent)
    var direction = SIMD3<Float>(rng.direction())
    if soup.triangleCount > 0 && rng.unit() < 0.6 {
        let (a, b, c) = soup.triangle(rng.int(0...soup.triangleCount - 1))
        var r1 = rng.unit(), r2 = rng.unit()
        if r1 + r2 > 1 { r1 = 1 - r1; r2 = 1 - r2 }
        let target = SIMD3<Double>(a) * (1 - r1 - r2) + SIMD3<Double>(b) * r1 + SIMD3<Double>(c) * r2
        let d = SIMD3<Float>(target - SIMD3<Double>(origin))
        if d != .zero { direction = d / length(d) }
    }
    direction *= Float(sign: .plus, exponent: rng.int(-4...4), significand: 1)
    let scale = 3 * extent / length(direction)
    switch rng.int(0...9) {
    case 0..<7: return (Ray(origin: origin, direction: direction), 0, .infinity)
    case 7, 8:
        let tmin = rng.float(0...0.5) * scale
        return (Ray(origin: origin, direction: direction), tmin, tmin + rng.float(0...0.7) * scale)
    default: return (Ray(origin: origin, direction: direction), 0, rng.float(0...0.7) * scale)
    }
}

// MARK: - The brute-force reference

/// One triangle's answer for one ray, from Moeller-Trumbore in Double on the exact (Float) inputs.
///
/// `kind` is `.hit` or `.miss` only when the answer is certain for any correct Float implementation:
/// each edge function of the watertight test (Woop et al.) is |barycentric| * |det| in the ray's shear
/// frame, and the Float computation of it errs by at most about 10 u (u = 2^-24) times the products of
/// the shear coordinates' magnitudes; with a margin of 32 u, a barycentric whose edge function is
/// smaller than that, or a t within its error bound of tmin or tmax, is `.ambiguous` (either answer is
/// right). Zero-area triangles are a certain miss (fathom.h: "kept but never hit").
struct TriangleReference {
    enum Kind { case hit, miss, ambiguous }
    var kind: Kind
    var t = Double.nan, u = Double.nan, v = Double.nan
    /// Error bounds of a correct Float t and (u, v).
    var tTolerance = 0.0, baryTolerance = 0.0
    /// Unit geometric normal (v1 - v0) x (v2 - v0), and |(v1 - v0)| |(v2 - v0)| / |n| (the normal's conditioning).
    var normal = SIMD3<Double>.zero, normalCondition = 0.0
    /// dot(unit direction, unit normal): the cosine of incidence.
    var cosine = 0.0

    static let miss = TriangleReference(kind: .miss)
}

func referenceCast(_ ray: Ray, tmin: Float, tmax: Float, _ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) -> TriangleReference {
    let o = SIMD3<Double>(ray.origin), d = SIMD3<Double>(ray.direction)
    let A = SIMD3<Double>(a), B = SIMD3<Double>(b), C = SIMD3<Double>(c)
    let e1 = B - A, e2 = C - A
    let n = cross(e1, e2)
    if n == .zero { return .miss }
    // Moeller-Trumbore.
    let p = cross(d, e2)
    let det = dot(e1, p)
    // The Float error model, in the shear frame (kz = the direction's largest axis).
    let ad = componentAbs(d)
    let kz = ad.x >= ad.y ? (ad.x >= ad.z ? 0 : 2) : (ad.y >= ad.z ? 1 : 2)
    let kx = (kz + 1) % 3, ky = (kz + 2) % 3
    let sx = d[kx] / d[kz], sy = d[ky] / d[kz]
    func magnitudes(_ q: SIMD3<Double>) -> (x: Double, y: Double, z: Double) {
        let r = q - o
        return (abs(r[kx]) + abs(sx * r[kz]), abs(r[ky]) + abs(sy * r[kz]), abs(r[kz] / d[kz]))
    }
    let ma = magnitudes(A), mb = magnitudes(B), mc = magnitudes(C)
    let k = 32 * 0x1p-24
    // Edge function error bounds: e0 from (b, c) goes with a, e1 from (c, a) with b, e2 from (a, b) with c.
    let tol = SIMD3(k * (mc.x * mb.y + mc.y * mb.x), k * (ma.x * mc.y + ma.y * mc.x), k * (mb.x * ma.y + mb.y * ma.x))
    var out = TriangleReference(kind: .ambiguous)
    out.normal = n / length(n)
    out.normalCondition = length(e1) * length(e2) / length(n)
    out.cosine = dot(d / length(d), out.normal)
    guard det != 0 else { return out }  // parallel to the plane: rounding decides
    let inverse = 1 / det
    let s = o - A
    let u = dot(s, p) * inverse
    let q = cross(s, e1)
    let v = dot(d, q) * inverse
    let t = dot(e2, q) * inverse
    let w = 1 - u - v
    let shearDet = abs(dot(n, d)) / abs(d[kz])
    let bary = SIMD3(w, u, v)
    let edge = componentAbs(bary) * shearDet
    var outside = false, inside = true
    for i in 0..<3 {
        if bary[i] < 0 && edge[i] > tol[i] { outside = true }
        if !(bary[i] > 0 && edge[i] > tol[i]) { inside = false }
    }
    let z = SIMD3(ma.z, mb.z, mc.z)
    let tTolerance = (((tol + 2 * k * edge) * z).sum() + abs(t) * (tol.sum() + k * edge.sum())) / shearDet + k * abs(t)
    out.t = t; out.u = u; out.v = v
    out.tTolerance = tTolerance
    out.baryTolerance = (tol.max() + bary.max() * tol.sum()) / shearDet + 1e-7
    let inRange = t >= Double(tmin) + tTolerance && t <= Double(tmax) - tTolerance
    let outOfRange = t < Double(tmin) - tTolerance || t > Double(tmax) + tTolerance
    if outside || outOfRange { out.kind = .miss } else if inside && inRange { out.kind = .hit }
    return out
}

/// The triangles a ray does not certainly miss, with their references.
func candidates(_ soup: Soup, _ ray: Ray, tmin: Float, tmax: Float) -> [(index: Int, ref: TriangleReference)] {
    var out = [(index: Int, ref: TriangleReference)]()
    for k in 0..<soup.triangleCount {
        let (a, b, c) = soup.triangle(k)
        let r = referenceCast(ray, tmin: tmin, tmax: tmax, a, b, c)
        if r.kind != .miss { out.append((k, r)) }
    }
    return out
}

/// The bits of a hit (t, point, normal, u, v, primitive, class, side), for bit-for-bit comparisons.
func hitBits(_ hit: Hit?) -> [UInt32] {
    guard let h = hit else { return [] }
    return [h.t.bitPattern, h.point.x.bitPattern, h.point.y.bitPattern, h.point.z.bitPattern,
            h.normal.x.bitPattern, h.normal.y.bitPattern, h.normal.z.bitPattern, h.u.bitPattern, h.v.bitPattern,
            h.primitive, UInt32(h.classification), h.frontFace ? 1 : 0]
}

/// How one ray's answers compared with the brute force.
struct BruteForceOutcome {
    /// The reference named the closest triangle unambiguously, and the primitive was compared.
    var strict = false
    var hit = false
    var failures = 0
}

/// Checks intersect, occluded and intersectAll of one ray against the brute force: the closest hit is
/// the reference's closest (ties within the error bounds allowed) with its t, u, v, point, normal,
/// side and class; occluded == (closest hit exists); intersectAll is sorted, reports every certain
/// crossing once and nothing certainly missed, and starts with the closest hit.
@discardableResult
func checkAgainstBruteForce(_ mesh: Mesh, _ soup: Soup, _ ray: Ray, tmin: Float, tmax: Float,
                            checkAll: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) -> BruteForceOutcome {
    var outcome = BruteForceOutcome()
    let context = "ray origin \(ray.origin) direction \(ray.direction) range [\(tmin), \(tmax)]"
    func fail(_ message: String) {
        outcome.failures += 1
        Issue.record("\(message); \(context)", sourceLocation: sourceLocation)
    }
    let cands = candidates(soup, ray, tmin: tmin, tmax: tmax)
    var refByIndex = [Int: TriangleReference](minimumCapacity: cands.count)
    for c in cands { refByIndex[c.index] = c.ref }
    let certain = cands.filter { $0.ref.kind == .hit }
    let hit = mesh.intersect(ray, tmin: tmin, tmax: tmax)
    let magnitude = Double(maxAbs(ray.origin))

    func checkHit(_ h: Hit, _ what: String) -> TriangleReference? {
        guard Int(h.primitive) < soup.triangleCount else { fail("\(what): primitive \(h.primitive) out of range"); return nil }
        guard let r = refByIndex[Int(h.primitive)] else {
            fail("\(what): triangle \(h.primitive) hit at t = \(h.t), but the reference certainly misses it"); return nil
        }
        if !(h.t >= tmin && h.t <= tmax) { fail("\(what): t = \(h.t) outside the range") }
        let expectedClass = soup.classes?[Int(h.primitive)] ?? 0
        if h.classification != expectedClass { fail("\(what): class \(h.classification), expected \(expectedClass)") }
        let normalTolerance = Double(8 * ulp) * (1 + r.normalCondition)
        if !close(h.normal, r.normal, normalTolerance) { fail("\(what): normal \(h.normal), reference \(r.normal)") }
        if abs(r.cosine) > 1e-4 && h.frontFace != (r.cosine < 0) { fail("\(what): frontFace \(h.frontFace), cosine \(r.cosine)") }
        // A ray exactly parallel to the plane (in Double) has no reference t: nothing more to compare.
        guard r.t.isFinite else { return r }
        if !(abs(Double(h.t) - r.t) <= r.tTolerance) { fail("\(what): triangle \(h.primitive) t = \(h.t), reference \(r.t) ± \(r.tTolerance)") }
        if !(abs(Double(h.u) - r.u) <= r.baryTolerance && abs(Double(h.v) - r.v) <= r.baryTolerance) {
            fail("\(what): triangle \(h.primitive) (u, v) = (\(h.u), \(h.v)), reference (\(r.u), \(r.v)) ± \(r.baryTolerance)")
        }
        let (a, b, c) = soup.triangle(Int(h.primitive))
        let size = Double(max(maxAbs(a), maxAbs(b), maxAbs(c)))
        let expectedPoint = SIMD3<Double>(ray.origin) + r.t * SIMD3<Double>(ray.direction)
        let pointTolerance = r.tTolerance * Double(length(ray.direction)) + r.baryTolerance * 4 * size + Double(8 * ulp) * (size + magnitude)
        if !close(h.point, expectedPoint, pointTolerance) { fail("\(what): point \(h.point), reference \(expectedPoint) ± \(pointTolerance)") }
        return r
    }

    if let h = hit {
        outcome.hit = true
        if let r = checkHit(h, "intersect"), r.t.isFinite {
            for other in certain where other.ref.t + other.ref.tTolerance < r.t - r.tTolerance {
                fail("intersect returned triangle \(h.primitive) at t = \(h.t), but triangle \(other.index) is hit closer, at t = \(other.ref.t)")
            }
        }
        // Strict: the reference's closest certain hit is separated from every other candidate (an
        // ambiguous one without a t could be anywhere).
        if let best = certain.min(by: { $0.ref.t < $1.ref.t }),
           !cands.contains(where: { $0.index != best.index && !($0.ref.t - $0.ref.tTolerance > best.ref.t + best.ref.tTolerance) }) {
            outcome.strict = true
            if Int(h.primitive) != best.index { fail("intersect returned triangle \(h.primitive), the closest is \(best.index) at t = \(best.ref.t)") }
        }
    } else if let first = certain.first {
        fail("intersect missed, but triangle \(first.index) is certainly hit at t = \(first.ref.t) (\(certain.count) certain hits)")
    }

    let occluded = mesh.occluded(ray, tmin: tmin, tmax: tmax)
    if occluded != (hit != nil) { fail("occluded = \(occluded), but intersect \(hit == nil ? "missed" : "hit")") }

    guard checkAll else { return outcome }
    let all = mesh.intersectAll(ray, tmin: tmin, tmax: tmax)
    for i in all.indices.dropFirst() where !(all[i - 1].t <= all[i].t) {
        fail("intersectAll not sorted: t[\(i - 1)] = \(all[i - 1].t) > t[\(i)] = \(all[i].t)")
    }
    if Set(all.map(\.primitive)).count != all.count { fail("intersectAll reports a triangle twice: \(all.map(\.primitive))") }
    var refs = [UInt32: TriangleReference]()
    for h in all { if let r = checkHit(h, "intersectAll") { refs[h.primitive] = r } }
    for c in certain where refs[UInt32(c.index)] == nil {
        // Crossings at the same t on the same side are merged (fathom.h: each crossing once).
        let merged = all.contains { abs(Double($0.t) - c.ref.t) <= c.ref.tTolerance && $0.frontFace == (c.ref.cosine < 0) }
        if !merged { fail("intersectAll misses triangle \(c.index), certainly hit at t = \(c.ref.t)") }
    }
    if let h = hit {
        if let first = all.first {
            if hitBits(first) != hitBits(h) {
                // Only a tie (another candidate at the same t) may put another triangle first.
                let tie = first.t == h.t && cands.filter({ !(abs($0.ref.t - Double(h.t)) > $0.ref.tTolerance) }).count >= 2
                if !tie { fail("intersectAll's first \(first) differs from intersect's \(h)") }
            }
        } else {
            fail("intersectAll is empty, intersect hit triangle \(h.primitive)")
        }
    } else if !all.isEmpty {
        fail("intersect missed, intersectAll found \(all.count) crossings")
    }
    return outcome
}

/// Closest hits of every ray in a buffer through the batch query.
func batchHits(_ mesh: Mesh, _ rays: RayBuffer, tmin: Float, tmax: Float, threads: Int, window: Int = Mesh.orderingWindow) -> [Hit?] {
    let out = UnsafeMutableBufferPointer<Hit?>.allocate(capacity: rays.count)
    out.initialize(repeating: nil)
    let calls = UnsafeMutableBufferPointer<Int>.allocate(capacity: rays.count)
    calls.initialize(repeating: 0)
    defer { out.deallocate(); calls.deallocate() }
    mesh.intersect(rays, tmin: tmin, tmax: tmax, threads: threads, window: window) { i, hit in
        out[i] = hit
        calls[i] += 1
    }
    #expect(calls.allSatisfy { $0 == 1 }, "every ray's result is written exactly once")
    return Array(out)
}

/// Rays packed as 6 floats each (the RayBuffer / fathom_ray layout).
func packRays(_ rays: [Ray]) -> [Float] {
    rays.flatMap { [$0.origin.x, $0.origin.y, $0.origin.z, $0.direction.x, $0.direction.y, $0.direction.z] }
}

// MARK: - Tests

@Suite("Mesh queries")
struct MeshQueryTests {
    @Test("random soups: closest hit, occlusion and all crossings equal the brute force",
          arguments: [(1, 3000), (2, 3000), (3, 3000), (17, 3000), (100, 3000), (1000, 2000), (5000, 1000)])
    func randomSoups(triangles: Int, rays: Int) throws {
        var rng = SplitMix64(seed: 1000 + UInt64(triangles))
        let soup = randomSoup(&rng, count: triangles)
        let mesh = try soup.mesh()
        #expect(mesh.triangleCount == triangles && mesh.vertexCount == 3 * triangles)
        var hits = 0, strict = 0, failures = 0
        for _ in 0..<rays {
            let (ray, tmin, tmax) = randomQuery(&rng, soup)
            let outcome = checkAgainstBruteForce(mesh, soup, ray, tmin: tmin, tmax: tmax)
            if outcome.hit { hits += 1 }
            if outcome.strict { strict += 1 }
            failures += outcome.failures
            if failures > 20 { break }
        }
        // The comparison must be meaningful: most rays hit, and most hits are decided strictly (the error
        // bound is conservative, about 3x the worst case, so hits within ~0.1% of an edge are left open).
        #expect(hits >= rays / 4, "only \(hits) of \(rays) rays hit")
        #expect(Double(strict) >= 0.93 * Double(hits), "only \(strict) of \(hits) hits were compared strictly")
    }

    /// 3000 triangles: traced in the caller's order; 30000 (over 1 MB): sorted by destination first.
    @Test("batch queries equal single-ray queries bit for bit on 1, 2 and all threads", arguments: [3000, 30000])
    func batchEqualsSingle(triangles: Int) throws {
        var rng = SplitMix64(seed: 2001)
        let soup = randomSoup(&rng, count: triangles)
        let mesh = try soup.mesh()
        // Enough rays for many chunks (256 for closest hits and occlusion, 64 for all crossings).
        var rays = [Ray]()
        for _ in 0..<5000 { rays.append(randomQuery(&rng, soup).ray) }
        let packed = packRays(rays)
        try packed.withUnsafeBufferPointer { p in
            let order = mesh.tracingOrder(RayBuffer(base: p.baseAddress!, count: rays.count), tmin: 0, tmax: .infinity, threads: 2)
            defer { order.release() }
            #expect((order.indices != nil) == (triangles > 3000), "\(mesh.memoryBytes) bytes")
            // A permutation: every ray once, each copied as it is.
            let positions = (0..<rays.count).map(order.index)
            #expect(Set(positions).count == rays.count && positions.allSatisfy { (0..<rays.count).contains($0) })
            #expect((0..<rays.count).allSatisfy { order.ray($0) == rays[positions[$0]] })
        }
        for (tmin, tmax): (Float, Float) in [(0, .infinity), (2, 9)] {
            let single = rays.map { mesh.intersect($0, tmin: tmin, tmax: tmax) }
            let singleOccluded = rays.map { mesh.occluded($0, tmin: tmin, tmax: tmax) }
            let singleAll = rays.map { mesh.intersectAll($0, tmin: tmin, tmax: tmax) }
            #expect(single.contains { $0 != nil } && single.contains { $0 == nil })
            try packed.withUnsafeBufferPointer { p in
                let buffer = RayBuffer(base: p.baseAddress!, count: rays.count)
                try Mesh.validate(buffer)
                for threads in [1, 2, 0] {
                    let batch = batchHits(mesh, buffer, tmin: tmin, tmax: tmax, threads: threads)
                    let mismatches = (0..<rays.count).filter { hitBits(batch[$0]) != hitBits(single[$0]) }
                    #expect(mismatches.isEmpty, "threads \(threads): \(mismatches.count) closest hits differ, first ray \(mismatches.first ?? -1)")

                    var occluded = [UInt8](repeating: 7, count: rays.count)
                    occluded.withUnsafeMutableBufferPointer { mesh.occluded(buffer, tmin: tmin, tmax: tmax, threads: threads, into: $0.baseAddress!) }
                    #expect(occluded == singleOccluded.map { $0 ? 1 : 0 }, "threads \(threads): occlusion differs")

                    let all = mesh.intersectAll(buffer, tmin: tmin, tmax: tmax, threads: threads)
                    #expect(all.count == rays.count)
                    let allMismatches = (0..<rays.count).filter { all[$0].map(hitBits) != singleAll[$0].map(hitBits) }
                    #expect(allMismatches.isEmpty, "threads \(threads): \(allMismatches.count) crossing lists differ")
                }
            }
        }
        // An empty buffer does nothing.
        try packed.withUnsafeBufferPointer { p in
            let empty = RayBuffer(base: p.baseAddress!, count: 0)
            try Mesh.validate(empty)
            #expect(batchHits(mesh, empty, tmin: 0, tmax: .infinity, threads: 0).isEmpty)
            #expect(mesh.intersectAll(empty, tmin: 0, tmax: .infinity, threads: 0).isEmpty)
        }
    }

    @Test("radix sort: by the high key bits only, stable, for every key width and thread count")
    func radixSort() {
        var rng = SplitMix64(seed: 77)
        // 200_003 values make 3 parts of 2^16 or more (the last one shorter) on 3 threads; with 7 key bits they
        // share 128 keys, so stability is tested across parts.
        for (count, keyBits) in [(0, 30), (1, 30), (5000, 30), (5000, 11), (5000, 1), (3000, 64), (3000, 31), (200_003, 31), (200_003, 7)] {
            let values = (0..<count).map { _ in rng.next() }
            // Swift's sort is not stable: sort (key, position) pairs instead.
            let key = { (v: UInt64) in keyBits == 64 ? v : v >> UInt64(64 - keyBits) }
            let expected = values.enumerated().sorted { (key($0.element), $0.offset) < (key($1.element), $1.offset) }.map(\.element)
            for threads in [1, 2, 3, 0] {
                var sorted = values
                let scratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: count + 3)
                defer { scratch.deallocate() }
                sorted.withUnsafeMutableBufferPointer { RadixSort.sort($0, keyBits: keyBits, scratch: scratch, threads: threads) }
                #expect(sorted == expected, "\(count) values by \(keyBits) bits on \(threads) threads")
            }
        }
    }

    @Test("batch order: rays whose predicted points overflow float still sort, and answer as single rays")
    func batchOrderExtremeRays() throws {
        var rng = SplitMix64(seed: 2002)
        let soup = randomSoup(&rng, count: 30000)
        let mesh = try soup.mesh()
        var rays = [Ray]()
        for k in 0..<6000 {
            var ray = randomQuery(&rng, soup).ray
            switch k % 4 {
            case 0: ray.direction *= 6e16                      // lengths up to 16: near the longest direction accepted
            case 1: ray.origin = SIMD3(repeating: -3e38); ray.direction = SIMD3(1, 1, 1)
            case 2: ray.direction *= 1e-15
            default: break
            }
            rays.append(ray)
        }
        let packed = packRays(rays)
        try packed.withUnsafeBufferPointer { p in
            let buffer = RayBuffer(base: p.baseAddress!, count: rays.count)
            try Mesh.validate(buffer)
            let order = mesh.tracingOrder(buffer, tmin: 0, tmax: .infinity, threads: 2)
            defer { order.release() }
            #expect(order.indices != nil && Set((0..<rays.count).map(order.index)).count == rays.count)
            let batch = batchHits(mesh, buffer, tmin: 0, tmax: .infinity, threads: 2)
            let single = rays.map { mesh.intersect($0, tmin: 0, tmax: .infinity) }
            #expect((0..<rays.count).allSatisfy { hitBits(batch[$0]) == hitBits(single[$0]) })
        }
    }

    @Test("batch order: camera rays (hit distances agree) and rays from all over (they spread) answer as single rays")
    func batchOrderPredictors() throws {
        var rng = SplitMix64(seed: 2003)
        let soup = randomSoup(&rng, count: 30000)
        let mesh = try soup.mesh()
        // From a camera 100 m away (distances within ~10% of each other), and from inside the soup.
        let camera = (0..<5000).map { _ in
            Ray(origin: SIMD3(0, 0, 100), direction: SIMD3<Float>(rng.float(-0.1...0.1), rng.float(-0.1...0.1), -1))
        }
        let inside = (0..<5000).map { _ in randomQuery(&rng, soup).ray }
        for rays in [camera, inside] {
            let packed = packRays(rays)
            try packed.withUnsafeBufferPointer { p in
                let buffer = RayBuffer(base: p.baseAddress!, count: rays.count)
                try Mesh.validate(buffer)
                let single = rays.map { mesh.intersect($0, tmin: 0, tmax: .infinity) }
                #expect(single.filter { $0 != nil }.count > rays.count / 2)
                for threads in [1, 2] {
                    let batch = batchHits(mesh, buffer, tmin: 0, tmax: .infinity, threads: threads)
                    #expect((0..<rays.count).allSatisfy { hitBits(batch[$0]) == hitBits(single[$0]) })
                    var occluded = [UInt8](repeating: 7, count: rays.count)
                    occluded.withUnsafeMutableBufferPointer { mesh.occluded(buffer, tmin: 0, tmax: .infinity, threads: threads, into: $0.baseAddress!) }
                    #expect(occluded == single.map { $0 == nil ? 0 : 1 })
                }
            }
        }
    }

    @Test("batch order: rays in a volume full of triangles are predicted at their median hit distance, rays around a closed surface by the grid")
    func batchOrderVolume() throws {
        var rng = SplitMix64(seed: 2006)
        // 250,000 triangles with edges of 0.01-0.02 filling [-1, 1]^3: every cell of the occupancy grid (1/16 wide) holds
        // some, and a ray goes about 0.5 before its hit, far past its first cell.
        var volume = Soup()
        for _ in 0..<250_000 {
            let c = rng.vector(-0.98...0.98)
            volume.add(c, c + SIMD3<Float>(rng.direction()) * rng.float(0.01...0.02), c + SIMD3<Float>(rng.direction()) * rng.float(0.01...0.02))
        }
        let volumeMesh = try volume.mesh(), sphere = try Mesh.make(from: MeshData.icosphere(subdivisions: 6))
        // From all over the cube, every way: inside and outside the sphere.
        let rays = (0..<20_000).map { _ in Ray(origin: rng.vector(-1...1), direction: SIMD3<Float>(rng.direction())) }
        let packed = packRays(rays)
        try packed.withUnsafeBufferPointer { p in
            let buffer = RayBuffer(base: p.baseAddress!, count: rays.count)
            #expect(sphere.rayDestination(buffer, tmin: 0, tmax: .infinity) == .firstOccupiedCell)
            guard case .alongRay(let distance)? = volumeMesh.rayDestination(buffer, tmin: 0, tmax: .infinity) else {
                Issue.record("the volume's rays are not predicted along them")
                return
            }
            // The sample's median, against the median of every ray's hit distance.
            let all = rays.compactMap { volumeMesh.intersect($0, tmin: 0, tmax: .infinity)?.t }.sorted()
            #expect(all.count > rays.count / 2 && abs(distance - all[all.count / 2]) < 0.2 * all[all.count / 2], "\(distance)")
            // The order follows that prediction: consecutive rays' points at that distance lie close together (ordered by
            // the grid's prediction, near each ray's origin, they lie a quarter as far apart as in the given order).
            let order = volumeMesh.tracingOrder(buffer, tmin: 0, tmax: .infinity, threads: 1)
            defer { order.release() }
            func meanStep(_ ray: (Int) -> Ray) -> Float {
                (1..<rays.count).map { length(ray($0).at(distance) - ray($0 - 1).at(distance)) }.reduce(0, +) / Float(rays.count - 1)
            }
            let ordered = meanStep(order.ray), given = meanStep { rays[$0] }
            #expect(ordered < given / 6, "\(ordered) apart in order, \(given) as given")
            let batch = batchHits(volumeMesh, buffer, tmin: 0, tmax: .infinity, threads: 2)
            #expect((0..<rays.count).allSatisfy { hitBits(batch[$0]) == hitBits(volumeMesh.intersect(rays[$0], tmin: 0, tmax: .infinity)) })
        }
    }

    @Test("batch order: flat meshes (no extent on an axis) and triangles wider than the whole grid answer as single rays")
    func batchOrderFlatAndWide() throws {
        var rng = SplitMix64(seed: 2005)
        // A floor of 30,000 small triangles at y = 0 (the occupancy grid's y axis has no extent), and the same floor
        // with 200 triangles spanning all of it a little above (marked by a lattice, at most 32 steps an edge).
        var floor = Soup()
        while floor.triangleCount < 30000 {
            let c = SIMD3<Float>(rng.float(-10...10), 0, rng.float(-10...10))
            floor.add(c, c + SIMD3(0.2, 0, 0), c + SIMD3(0, 0, 0.2))
        }
        var wide = floor
        for k in 0..<200 {
            let y = 0.5 + Float(k) * 0.01
            wide.add(SIMD3(-10, y, -10), SIMD3(10, y + 0.3, -10), SIMD3(0, y, 10))
        }
        for soup in [floor, wide] {
            let mesh = try soup.mesh()
            let rays = (0..<6000).map { k -> Ray in
                // From above and from the sides, grazing, and from below toward the floor.
                let origin = SIMD3<Float>(rng.float(-12...12), rng.float(-2...3), rng.float(-12...12))
                var direction = SIMD3<Float>(rng.float(-1...1), rng.float(-1...1), rng.float(-1...1))
                if k % 5 == 0 { direction.y = 0 }
                if direction == .zero { direction = SIMD3(1, 0, 0) }
                return Ray(origin: origin, direction: direction)
            }
            let packed = packRays(rays)
            try packed.withUnsafeBufferPointer { p in
                let buffer = RayBuffer(base: p.baseAddress!, count: rays.count)
                try Mesh.validate(buffer)
                let order = mesh.tracingOrder(buffer, tmin: 0, tmax: .infinity, threads: 1)
                defer { order.release() }
                #expect(order.indices != nil && Set((0..<rays.count).map(order.index)).count == rays.count)
                let single = rays.map { mesh.intersect($0, tmin: 0, tmax: .infinity) }
                #expect(single.filter { $0 != nil }.count > rays.count / 8)
                let batch = batchHits(mesh, buffer, tmin: 0, tmax: .infinity, threads: 2)
                #expect((0..<rays.count).allSatisfy { hitBits(batch[$0]) == hitBits(single[$0]) })
            }
        }
    }

    @Test("batch windows: a batch longer than the window is ordered window by window, and answers as single rays")
    func batchWindows() throws {
        var rng = SplitMix64(seed: 2004)
        let soup = randomSoup(&rng, count: 30000)
        let mesh = try soup.mesh()
        // Windows of 4096, 4096 and 1808 rays: two ordered, the last (under 4096) in the caller's order.
        let rays = (0..<10000).map { _ in randomQuery(&rng, soup).ray }
        let packed = packRays(rays)
        try packed.withUnsafeBufferPointer { p in
            let buffer = RayBuffer(base: p.baseAddress!, count: rays.count)
            let single = rays.map { mesh.intersect($0, tmin: 0, tmax: .infinity) }
            for threads in [1, 2] {
                let batch = batchHits(mesh, buffer, tmin: 0, tmax: .infinity, threads: threads, window: 4096)
                #expect((0..<rays.count).allSatisfy { hitBits(batch[$0]) == hitBits(single[$0]) })
                var occluded = [UInt8](repeating: 7, count: rays.count)
                occluded.withUnsafeMutableBufferPointer {
                    mesh.occluded(buffer, tmin: 0, tmax: .infinity, threads: threads, window: 4096, into: $0.baseAddress!)
                }
                #expect(occluded == single.map { $0 == nil ? 0 : 1 })
                let all = mesh.intersectAll(buffer, tmin: 0, tmax: .infinity, threads: threads, window: 4096)
                #expect((0..<rays.count).allSatisfy { all[$0].map(hitBits) == mesh.intersectAll(rays[$0], tmin: 0, tmax: .infinity).map(hitBits) })
            }
        }
    }

    @Test("a batch is validated before any work, naming the first bad ray")
    func batchValidation() throws {
        var rays = (0..<10).map { Ray(origin: SIMD3(Float($0), 0, 0), direction: SIMD3(0, 0, 1)) }
        rays[5].direction = .zero
        rays[7].origin.y = .nan
        var packed = packRays(rays)
        packed.withUnsafeBufferPointer { p in
            expectError(.degenerate, containing: ["rays[5]"]) { () throws(FathomError) in try Mesh.validate(RayBuffer(base: p.baseAddress!, count: 10)) }
            expectError(.degenerate, containing: ["rays[5]"]) { () throws(FathomError) in try Mesh.validate(RayBuffer(base: p.baseAddress!, count: 6)) }
            // Ray 5 is not part of the first 5.
            #expect(throws: Never.self) { try Mesh.validate(RayBuffer(base: p.baseAddress!, count: 5)) }
        }
        packed[5 * 6 + 5] = 1
        _ = packed.withUnsafeBufferPointer { p in
            expectError(.notFinite, containing: ["rays[7]"]) { () throws(FathomError) in try Mesh.validate(RayBuffer(base: p.baseAddress!, count: 10)) }
        }
        packed[7 * 6 + 1] = 0
        packed[2 * 6 + 3] = .infinity
        _ = packed.withUnsafeBufferPointer { p in
            expectError(.notFinite, containing: ["rays[2]"]) { () throws(FathomError) in try Mesh.validate(RayBuffer(base: p.baseAddress!, count: 10)) }
        }
        packed[2 * 6 + 3] = 0
        packed[4 * 6 + 5] = 1e-19  // every component below 1e-18
        _ = packed.withUnsafeBufferPointer { p in
            expectError(.degenerate, containing: ["rays[4]"]) { () throws(FathomError) in try Mesh.validate(RayBuffer(base: p.baseAddress!, count: 10)) }
        }
    }

    @Test("validation four rays at a time: every float slot, every position and the tail; a direction long on one axis only passes")
    func batchValidationEverySlot() throws {
        for n in 1...13 {
            // Directions whose only component at the minimum length is x, y or z in turn: all valid.
            let rays = (0..<n).map { i -> Ray in
                var d = SIMD3<Float>(repeating: 1e-19)
                d[i % 3] = Ray.minimumDirectionLength
                return Ray(origin: SIMD3(Float(i), -2, 0.5), direction: d)
            }
            var packed = packRays(rays)
            packed.withUnsafeBufferPointer { p in
                #expect(throws: Never.self) { try Mesh.validate(RayBuffer(base: p.baseAddress!, count: n)) }
            }
            for i in 0..<n {
                for slot in 0..<6 {
                    for bad: Float in [.nan, .infinity, -.infinity] {
                        let kept = packed[6 * i + slot]
                        packed[6 * i + slot] = bad
                        packed.withUnsafeBufferPointer { p in
                            expectError(.notFinite, containing: ["rays[\(i)]"]) { () throws(FathomError) in
                                try Mesh.validate(RayBuffer(base: p.baseAddress!, count: n))
                            }
                        }
                        packed[6 * i + slot] = kept
                    }
                }
                // Every component below the minimum: too short.
                let kept = packed[6 * i + 3 + i % 3]
                packed[6 * i + 3 + i % 3] = 1e-19
                packed.withUnsafeBufferPointer { p in
                    expectError(.degenerate, containing: ["rays[\(i)]"]) { () throws(FathomError) in
                        try Mesh.validate(RayBuffer(base: p.baseAddress!, count: n))
                    }
                }
                packed[6 * i + 3 + i % 3] = kept
                // One component above the maximum (on each axis in turn): too long; at the maximum: valid.
                for axis in 0..<3 {
                    let other = packed[6 * i + 3 + axis]
                    packed[6 * i + 3 + axis] = -Ray.maximumDirectionLength.nextUp
                    packed.withUnsafeBufferPointer { p in
                        expectError(.outOfRange, containing: ["rays[\(i)]", "too long"]) { () throws(FathomError) in
                            try Mesh.validate(RayBuffer(base: p.baseAddress!, count: n))
                        }
                    }
                    packed[6 * i + 3 + axis] = Ray.maximumDirectionLength
                    packed.withUnsafeBufferPointer { p in
                        #expect(throws: Never.self) { try Mesh.validate(RayBuffer(base: p.baseAddress!, count: n)) }
                    }
                    packed[6 * i + 3 + axis] = other
                }
            }
        }
    }

    @Test("every small size 0...40: builds, answers like the brute force, every triangle reachable")
    func everySmallSize() throws {
        var rng = SplitMix64(seed: 3000)
        for n in 0...40 {
            // A row of disjoint triangles: a vertical ray at each centroid must hit exactly that one.
            var row = Soup()
            for k in 0..<n {
                let x = Float(k) * 1.5
                row.add(SIMD3(x, 0, 0), SIMD3(x + 1, 0, 0), SIMD3(x, 0, 1))
            }
            row.classes = (0..<n).map { UInt8($0 % 8) }
            let rowMesh = try row.mesh()
            #expect(rowMesh.triangleCount == n)
            // Depth counts nodes to the deepest leaf: 0 without triangles; an 8-wide node with leaves of at
            // most 8 triangles holds 64, so depth d holds at most 64 * 8^(d-1).
            if n == 0 { #expect(rowMesh.bvhDepth == 0) } else {
                #expect(rowMesh.bvhDepth >= 1 && rowMesh.bvhDepth <= 26 && 64 << (3 * (rowMesh.bvhDepth - 1)) >= n, "n = \(n): depth \(rowMesh.bvhDepth)")
            }
            #expect((rowMesh.bvhNodeCount == 0) == (n == 0), "n = \(n): \(rowMesh.bvhNodeCount) nodes")
            for k in 0..<n {
                let x = Float(k) * 1.5
                let target = SIMD3<Float>(x + 0.25, 0, 0.25)
                for ray in [Ray(origin: target + SIMD3(0, 3, 0), direction: SIMD3(0, -1, 0)),
                            Ray(origin: target - SIMD3(0, 2, 0), direction: SIMD3(0, 0.5, 0))] {
                    let hit = rowMesh.intersect(ray, tmin: 0, tmax: .infinity)
                    #expect(hit?.primitive == UInt32(k), "n = \(n): ray at triangle \(k) got \(String(describing: hit))")
                    let t: Float = ray.direction.y < 0 ? 3 : 4
                    #expect(close(hit?.t ?? .nan, t, 4 * ulp * t) && close(hit?.point ?? SIMD3(repeating: .nan), target, 4 * ulp * 64))
                    #expect(hit?.classification == UInt8(k % 8))
                    #expect(hit?.normal == SIMD3(0, -1, 0))  // (1,0,0) x (0,0,1) = (0,-1,0)
                    #expect(hit?.frontFace == (ray.direction.y > 0))
                    #expect(rowMesh.intersectAll(ray, tmin: 0, tmax: .infinity).map(\.primitive) == [UInt32(k)])
                    #expect(rowMesh.occluded(ray, tmin: 0, tmax: .infinity))
                }
                // Between the triangles: nothing.
                let gap = Ray(origin: SIMD3(x + 1.25, 3, 0.1), direction: SIMD3(0, -1, 0))
                #expect(rowMesh.intersect(gap, tmin: 0, tmax: .infinity) == nil)
            }
            // A ray along the row, just above it, crosses nothing.
            #expect(rowMesh.intersectAll(Ray(origin: SIMD3(-1, 0.5, 0.5), direction: SIMD3(1, 0, 0)), tmin: 0, tmax: .infinity).isEmpty)

            // A random soup of the same size against the brute force.
            let soup = randomSoup(&rng, count: n, extent: 3, size: 2)
            let mesh = try soup.mesh()
            for _ in 0..<300 {
                let (ray, tmin, tmax) = randomQuery(&rng, soup, extent: 3)
                checkAgainstBruteForce(mesh, soup, ray, tmin: tmin, tmax: tmax)
            }
        }
    }

    @Test("an empty mesh misses everything and reports zero sizes")
    func emptyMesh() throws {
        for data in [MeshData(vertices: [], indices: []), MeshData(vertices: [1, 2, 3, 4, 5, 6], indices: [], classes: [])] {
            let mesh = try Mesh.make(from: data)
            #expect(mesh.triangleCount == 0 && mesh.bvhNodeCount == 0 && mesh.bvhDepth == 0)
            #expect(mesh.surfaceArea == 0)
            #expect(mesh.faceGeometry().normals.isEmpty && mesh.faceGeometry().areas.isEmpty)
            let ray = Ray(origin: SIMD3(1, 2, 10), direction: SIMD3(0, 0, -1))
            #expect(mesh.intersect(ray, tmin: 0, tmax: .infinity) == nil)
            #expect(!mesh.occluded(ray, tmin: 0, tmax: .infinity))
            #expect(mesh.intersectAll(ray, tmin: 0, tmax: .infinity).isEmpty)
            let packed = packRays([ray, ray])
            packed.withUnsafeBufferPointer { p in
                let buffer = RayBuffer(base: p.baseAddress!, count: 2)
                #expect(batchHits(mesh, buffer, tmin: 0, tmax: .infinity, threads: 0) == [nil, nil])
                var occluded: [UInt8] = [9, 9]
                occluded.withUnsafeMutableBufferPointer { mesh.occluded(buffer, tmin: 0, tmax: .infinity, threads: 0, into: $0.baseAddress!) }
                #expect(occluded == [0, 0])
                #expect(mesh.intersectAll(buffer, tmin: 0, tmax: .infinity, threads: 0) == [[], []])
            }
        }
        #expect(try Mesh.make(from: MeshData(vertices: [], indices: [])).boundsMin == .zero)
    }

    @Test("all triangles in one point: builds, bounds are the point, nothing is ever hit")
    func allInOnePoint() throws {
        let p = SIMD3<Float>(1, 2, 3)
        for count in [1, 4, 5, 17, 1000] {
            var soup = Soup()
            // Half share one vertex, half have their own copies of the point.
            soup.vertices = [SIMD3<Float>](repeating: p, count: 3)
            for k in 0..<count {
                if k % 2 == 0 { soup.indices += [0, 1, 2] } else { soup.add(p, p, p) }
            }
            let mesh = try soup.mesh()
            #expect(mesh.triangleCount == count && mesh.boundsMin == p && mesh.boundsMax == p)
            #expect(mesh.bvhDepth >= 1 && mesh.bvhDepth <= 26, "depth \(mesh.bvhDepth)")
            #expect(mesh.surfaceArea == 0)
            let (normals, areas) = mesh.faceGeometry()
            #expect(normals.allSatisfy { $0 == .zero } && areas.allSatisfy { $0 == 0 })
            var rng = SplitMix64(seed: 3100 + UInt64(count))
            for _ in 0..<500 {
                let origin = p + rng.vector(-3...3)
                let ray = Ray(origin: origin, direction: p - origin)  // through the point at t = 1
                #expect(mesh.intersect(ray, tmin: 0, tmax: .infinity) == nil)
                #expect(!mesh.occluded(ray, tmin: 0, tmax: .infinity))
                #expect(mesh.intersectAll(ray, tmin: 0, tmax: .infinity).isEmpty)
            }
        }
    }

    @Test("zero-area triangles are never hit, even by rays through their points; the surface behind is")
    func zeroAreaNeverHit() throws {
        var soup = Soup()
        // Exactly collinear in Float: along the x axis, along a diagonal of small integers, two equal vertices, ...
        soup.add(SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(4, 0, 0))
        soup.add(SIMD3(0, 1, 1), SIMD3(2, 3, 5), SIMD3(1, 2, 3))
        soup.add(SIMD3(-1, -1, 2), SIMD3(-1, -1, 2), SIMD3(3, 1, -2))
        soup.add(SIMD3(0.5, 0.25, -3), SIMD3(0.5, 0.25, 3), SIMD3(0.5, 0.25, 0.125))
        soup.add(SIMD3(-2, 3, 0.75), SIMD3(2, 3, 0.75), SIMD3(2, 3, 0.75))
        let degenerate = 5
        // ... and a proper triangle far behind everything (z = -20), as seen from +z.
        soup.add(SIMD3(-50, -50, -20), SIMD3(50, -50, -20), SIMD3(0, 50, -20))
        let mesh = try soup.mesh()
        let (normals, areas) = mesh.faceGeometry()
        for k in 0..<degenerate {
            #expect(areas[k] == 0 && normals[k] == .zero, "triangle \(k): area \(areas[k]), normal \(normals[k])")
        }
        #expect(areas[degenerate] == 5000)
        // The simplest case: a ray from the origin through the vertex (1, 2, 3) of the collinear triangle 1.
        let simplest = Ray(origin: .zero, direction: SIMD3(1, 2, 3))
        #expect(mesh.intersectAll(simplest, tmin: 0, tmax: .infinity).allSatisfy { Int($0.primitive) >= degenerate },
                "ray origin (0, 0, 0) direction (1, 2, 3) hits collinear (0, 1, 1), (2, 3, 5), (1, 2, 3): \(mesh.intersectAll(simplest, tmin: 0, tmax: .infinity))")
        var rng = SplitMix64(seed: 3200)
        var wrong = 0
        for _ in 0..<20000 {
            let k = rng.int(0...degenerate - 1)
            let (a, b, c) = soup.triangle(k)
            // A point of the segment, exactly computed in Double, then rounded; and the vertices themselves.
            let s = rng.unit()
            let far = [a, b, c].max { length($0 - a) < length($1 - a) }!
            let onSegment = rng.int(0...3) == 0 ? [a, b, c][rng.int(0...2)] : SIMD3<Float>(SIMD3<Double>(a) + s * (SIMD3<Double>(far) - SIMD3<Double>(a)))
            let origin = onSegment + rng.vector(-6...6) + SIMD3(0, 0, 8)
            let ray = Ray(origin: origin, direction: onSegment - origin)
            let hit = mesh.intersect(ray, tmin: 0, tmax: .infinity)
            let all = mesh.intersectAll(ray, tmin: 0, tmax: .infinity)
            let bad = all.filter { Int($0.primitive) < degenerate }.map(\.primitive) + (hit.map { Int($0.primitive) < degenerate ? [$0.primitive] : [] } ?? [])
            if !bad.isEmpty {
                wrong += 1
                if wrong <= 5 {
                    Issue.record("zero-area triangle(s) \(bad) hit (closest t = \(hit?.t ?? .nan)): ray origin \(ray.origin) direction \(ray.direction)")
                }
            }
            #expect(mesh.occluded(ray, tmin: 0, tmax: .infinity) == (hit != nil))
            // The big triangle behind is hit when the ray certainly reaches it.
            let (b0, b1, b2) = soup.triangle(degenerate)
            if referenceCast(ray, tmin: 0, tmax: .infinity, b0, b1, b2).kind == .hit {
                #expect(all.contains { Int($0.primitive) == degenerate }, "the surface behind was missed: ray \(ray)")
            }
        }
        #expect(wrong == 0, "\(wrong) of 20000 rays through zero-area triangles hit one")
    }

    @Test("identical triangles stacked: one crossing, any of the copies, with the right t")
    func stacked() throws {
        var rng = SplitMix64(seed: 3300)
        let a = SIMD3<Float>(-1, -1, 0), b = SIMD3<Float>(2, -1, 0.5), c = SIMD3<Float>(0, 2, -0.25)
        var checked = 0
        for copies in [2, 4, 5, 9, 64, 300] {
            var soup = Soup()
            soup.vertices = [a, b, c]
            for k in 0..<copies {
                if k % 3 == 0 { soup.indices += [0, 1, 2] } else { soup.add(a, b, c) }
            }
            // A few ordinary triangles around them.
            let others = randomSoup(&rng, count: 20, extent: 6, size: 1)
            for k in 0..<others.triangleCount { let t = others.triangle(k); soup.add(t.0, t.1, t.2) }
            let mesh = try soup.mesh()
            for _ in 0..<300 {
                var r1 = rng.unit(), r2 = rng.unit()
                if r1 + r2 > 1 { r1 = 1 - r1; r2 = 1 - r2 }
                let target = SIMD3<Float>(SIMD3<Double>(a) * (1 - r1 - r2) + SIMD3<Double>(b) * r1 + SIMD3<Double>(c) * r2)
                let origin = target + SIMD3<Float>(rng.direction()) * rng.float(0.5...4)
                let ray = Ray(origin: origin, direction: target - origin)
                let ref = referenceCast(ray, tmin: 0, tmax: .infinity, a, b, c)
                guard ref.kind == .hit else { continue }
                checked += 1
                let stackHits = mesh.intersectAll(ray, tmin: 0, tmax: .infinity).filter { Int($0.primitive) < copies }
                #expect(stackHits.count == 1, "\(copies) copies: \(stackHits.count) crossings at the stack")
                #expect(mesh.occluded(ray, tmin: 0, tmax: .infinity))
                // Closest: a copy, unless an ordinary triangle is certainly closer.
                let closer = (0..<others.triangleCount).contains {
                    let t = others.triangle($0)
                    let r = referenceCast(ray, tmin: 0, tmax: Float(ref.t - ref.tTolerance), t.0, t.1, t.2)
                    return r.kind != .miss
                }
                if !closer, let hit = mesh.intersect(ray, tmin: 0, tmax: .infinity) {
                    #expect(Int(hit.primitive) < copies && abs(Double(hit.t) - ref.t) <= ref.tTolerance)
                } else if !closer {
                    Issue.record("\(copies) copies: missed; ray \(ray)")
                }
            }
        }
        #expect(checked > 1500)
    }

    @Test("deep input: 200k triangles with exponentially spaced centroids build with bvhDepth <= 26 and answer like the brute force")
    func deepExponential() throws {
        let n = 200_000
        // Triangle i lies in the plane x = 2^(i/1600 - 60), spanning y, z in [0, 1]: centroids spaced by a
        // constant ratio along one line, from 2^-60 to 2^65, so the centroid bins are wildly uneven.
        let xs = (0..<n).map { Float(pow(2, Double($0) / 1600 - 60)) }
        var soup = Soup()
        soup.vertices.reserveCapacity(3 * n)
        for x in xs { soup.add(SIMD3(x, 0, 0), SIMD3(x, 1, 0), SIMD3(x, 0, 1)) }
        soup.classes = (0..<n).map { UInt8($0 % 8) }
        let mesh = try soup.mesh()
        #expect(mesh.triangleCount == n)
        #expect(mesh.bvhDepth >= 6 && mesh.bvhDepth <= 26, "bvhDepth \(mesh.bvhDepth)")
        #expect(mesh.bvhNodeCount >= n / 64)  // a node holds at most 8 leaves of at most 8
        #expect(mesh.boundsMin == SIMD3(xs[0], 0, 0) && mesh.boundsMax == SIMD3(xs[n - 1], 1, 1))
        var rng = SplitMix64(seed: 3400)
        for trial in 0..<240 {
            let j = rng.int(1...n - 2)
            let y = rng.float(0.05...0.45), z = rng.float(0.05...0.45)
            // Just before plane j (the planes are 2^(1/1600) ~ 1 + 4.3e-4 apart), so plane j is
            // xs[j] * 2^-12 away along x; sideways drift up to 0.04 by then (y, z stay in [0.01, 0.49]).
            let origin = SIMD3<Float>(xs[j] * (1 - 0x1p-12), y, z)
            let drift = 1 / max(1, xs[j] * 0x1p-12)
            let ray: Ray
            switch trial % 3 {
            case 0: ray = Ray(origin: origin, direction: SIMD3(1, rng.float(-0.04...0.04) * drift, rng.float(-0.04...0.04) * drift))
            case 1: ray = Ray(origin: origin, direction: SIMD3(-1, rng.float(-0.04...0.04) * drift, rng.float(-0.04...0.04) * drift))
            default:
                // Slanted: crosses planes j...j+4 below the triangles (z < 0), then plane j+5 inside one.
                // (Planes from j = 8000 on, where x's share of the direction is above 1e-20: see
                // tinyDirectionComponents for smaller ones.)
                let k = max(j, 8000)
                ray = Ray(origin: SIMD3(xs[k] * (1 - 0x1p-12), y, -2), direction: SIMD3(xs[k] * 1e-3, 0, 1))
            }
            checkAgainstBruteForce(mesh, soup, ray, tmin: 0, tmax: .infinity, checkAll: trial % 12 == 0)
            // The designed answers: forward hits plane j, backward plane j - 1, slanted plane k + 5.
            let expected = [j, j - 1, max(j, 8000) + 5][trial % 3]
            let hit = mesh.intersect(ray, tmin: 0, tmax: .infinity)
            #expect(hit?.primitive == UInt32(expected), "trial \(trial): ray \(ray) hit \(String(describing: hit?.primitive)), expected \(expected)")
            #expect(hit?.classification == UInt8(expected % 8))
        }
    }

    @Test("a direction component far below the others (under 1e-20 of the largest) still finds the hit")
    func tinyDirectionComponents() throws {
        // A triangle in the plane x = X, spanning y, z in [0, 1], and a ray that creeps along x so slowly
        // (dx = X / 1.25) that it meets the plane at t = 1.25, at (X, 0.25, 0.25): inside the triangle.
        // The single-triangle test finds it; the mesh must too, at every scale of X.
        for X: Float in [6.25e-21, 1e-25, 1e-30, 3e-22, 1e-20, 1e-19, 1e-18] {
            var soup = Soup()
            soup.add(SIMD3(X, 0, 0), SIMD3(X, 1, 0), SIMD3(X, 0, 1))
            let ray = Ray(origin: SIMD3(0, 0.25, -1), direction: SIMD3(X / 1.25, 0, 1))
            let (a, b, c) = soup.triangle(0)
            let single = try PrimitiveCast.triangle(ray, tmin: 0, tmax: .infinity, a, b, c)
            #expect(single != nil && close(single?.t ?? .nan, 1.25, 4 * ulp), "X = \(X): the triangle test gives \(String(describing: single))")
            let mesh = try soup.mesh()
            let hit = mesh.intersect(ray, tmin: 0, tmax: .infinity)
            #expect(hitBits(hit) == hitBits(single), "X = \(X): ray origin \(ray.origin) direction \(ray.direction): mesh \(String(describing: hit)), triangle test \(String(describing: single))")
            #expect(mesh.occluded(ray, tmin: 0, tmax: .infinity), "X = \(X): not occluded")
            #expect(mesh.intersectAll(ray, tmin: 0, tmax: .infinity).count == 1, "X = \(X): intersectAll")
        }
    }

    @Test("a ray lying in a box's bounding plane hits the triangle edge that lies in that plane")
    func rayInBoundingPlane() throws {
        // The triangle's top edge (-1, 0, 1)-(1, 0, 1) lies in its box's top plane y = 0; a ray along z in that plane
        // (dy = 0 or -0) crosses the edge at (0, 0, 1), t = 1, and so does a ray along -y in the box's bottom plane
        // z = 1 (dz = -0).
        // Edge points count as hits (the watertight test's zeros), so the mesh must not cull the box.
        var soup = Soup()
        soup.add(SIMD3(-1, 0, 1), SIMD3(1, 0, 1), SIMD3(0, -1, 2))
        let mesh = try soup.mesh()
        for ray in [Ray(origin: .zero, direction: SIMD3(0, 0, 1)), Ray(origin: .zero, direction: SIMD3(-0.0, -0.0, 1)),
                    Ray(origin: SIMD3(0, 1, 1), direction: SIMD3(0, -1, -0.0))] {
            let (a, b, c) = soup.triangle(0)
            let single = try PrimitiveCast.triangle(ray, tmin: 0, tmax: .infinity, a, b, c)
            #expect(single?.t == 1, "the triangle test: \(String(describing: single))")
            let hit = mesh.intersect(ray, tmin: 0, tmax: .infinity)
            #expect(hit?.t == 1 && hit?.point == SIMD3(0, 0, 1), "\(ray): \(String(describing: hit))")
            #expect(mesh.occluded(ray, tmin: 0, tmax: .infinity))
            #expect(mesh.intersectAll(ray, tmin: 0, tmax: .infinity).count == 1)
        }
    }

    @Test("sizes: bvhWidth 8, bytes of nodes, leaf positions and copied vertices or borrowed indices, node count")
    func sizes() throws {
        #expect(Mesh.bvhWidth == 8)
        // The traversal reads bound planes and child codes at these byte offsets.
        #expect(MemoryLayout<BVHNode>.size == 224 && MemoryLayout<BVHNode>.stride == 7 * 32, "child codes count 32-byte units")
        #expect([BVHNode.minXOffset, BVHNode.minYOffset, BVHNode.minZOffset, BVHNode.maxXOffset, BVHNode.maxYOffset, BVHNode.maxZOffset,
                 BVHNode.childOffset]
                == [\BVHNode.minX, \.minY, \.minZ, \.maxX, \.maxY, \.maxZ, \.child].map { MemoryLayout<BVHNode>.offset(of: $0) })
        // The leaf test reads a block's vectors at 16 (3 corner + axis) bytes.
        #expect([\TriangleLanes.ax, \.ay, \.az, \.bx, \.by, \.bz, \.cx, \.cy, \.cz].map { MemoryLayout<TriangleLanes>.offset(of: $0) }
                == (0..<9).map { 16 * $0 } && MemoryLayout<TriangleLanes>.stride == 144)
        var rng = SplitMix64(seed: 3500)
        for n in [1, 5, 100, 4000] {
            let soup = randomSoup(&rng, count: n)
            let mesh = try soup.mesh()
            // Leaf positions: the triangles, padded so that every leaf fills whole blocks of 4.
            let positions = mesh.leafPositionCount
            #expect(positions % 4 == 0 && positions >= n && positions <= 4 * n)
            // A copied mesh holds per position its triangle's 9 floats and index, and the classes (1 byte each).
            #expect(mesh.bvhBytes == 224 * mesh.bvhNodeCount + 40 * positions)
            #expect(mesh.memoryBytes == mesh.bvhBytes + n)
            // A node per 8 children at most 8 leaves of at most 8: at least n/64 nodes, at most n.
            #expect(mesh.bvhNodeCount >= 1 && mesh.bvhNodeCount <= max(1, n))

            // The same triangles, borrowed with a stride of 5 floats (padding NaN, never read), no classes.
            let copiedPlain = try Mesh.make(from: MeshData(vertices: soup.data.vertices, indices: soup.indices))
            try withPoints(soup.vertices, strideFloats: 5) { points in
                try soup.indices.withUnsafeBufferPointer { indices in
                    let borrowed = try Mesh(vertices: points, indices: indices, classes: nil, storage: .borrow)
                    // Per position 3 vertex indices and the triangle index: the vertices are the caller's.
                    #expect(borrowed.bvhBytes == 224 * borrowed.bvhNodeCount + 16 * positions)
                    #expect(borrowed.bvhNodeCount == copiedPlain.bvhNodeCount && copiedPlain.memoryBytes == copiedPlain.bvhBytes)
                    #expect(borrowed.memoryBytes == borrowed.bvhBytes)
                    #expect(borrowed.boundsMin == copiedPlain.boundsMin && borrowed.boundsMax == copiedPlain.boundsMax)
                    // Answers are identical.
                    for _ in 0..<300 {
                        let (ray, tmin, tmax) = randomQuery(&rng, soup)
                        #expect(hitBits(borrowed.intersect(ray, tmin: tmin, tmax: tmax)) == hitBits(copiedPlain.intersect(ray, tmin: tmin, tmax: tmax)))
                        #expect(borrowed.intersectAll(ray, tmin: tmin, tmax: tmax).map(hitBits) == copiedPlain.intersectAll(ray, tmin: tmin, tmax: tmax).map(hitBits))
                    }
                }
            }

            // Compact: the vertices copied once, packed (12 bytes each, counted in memoryBytes), and read as a
            // borrowed buffer is. The caller's buffer is overwritten with NaN after the call: nothing reads it.
            var callers: [Float] = soup.vertices.flatMap { v -> [Float] in [v.x, v.y, v.z, -1, -1] }
            let compact = try callers.withUnsafeBufferPointer { v in
                try soup.indices.withUnsafeBufferPointer { indices in
                    try Mesh(vertices: PointBuffer(base: v.baseAddress!, count: soup.vertices.count, strideBytes: 20),
                             indices: indices, classes: nil, storage: .compact)
                }
            }
            for i in callers.indices { callers[i] = .nan }
            #expect(compact.storage == .compact && compact.bvhNodeCount == copiedPlain.bvhNodeCount)
            #expect(compact.bvhBytes == 224 * compact.bvhNodeCount + 16 * positions)
            #expect(compact.memoryBytes == compact.bvhBytes + 12 * soup.vertices.count)
            #expect(compact.exportBytes == 12 * n && compact.vertices.map(\.bitPattern) == soup.data.vertices.map(\.bitPattern))
            for _ in 0..<300 {
                let (ray, tmin, tmax) = randomQuery(&rng, soup)
                #expect(hitBits(compact.intersect(ray, tmin: tmin, tmax: tmax)) == hitBits(copiedPlain.intersect(ray, tmin: tmin, tmax: tmax)))
                #expect(compact.occluded(ray, tmin: tmin, tmax: tmax) == copiedPlain.occluded(ray, tmin: tmin, tmax: tmax))
            }
        }
    }

    @Test("bounds: the min and max of the vertices, exactly")
    func bounds() throws {
        var rng = SplitMix64(seed: 3600)
        for n in [1, 3, 50, 2000] {
            let soup = randomSoup(&rng, count: n, extent: 100, size: 5)
            let mesh = try soup.mesh()
            let lo = soup.vertices.reduce(SIMD3<Float>(repeating: .infinity)) { pointwiseMin($0, $1) }
            let hi = soup.vertices.reduce(SIMD3<Float>(repeating: -.infinity)) { pointwiseMax($0, $1) }
            #expect(mesh.boundsMin == lo && mesh.boundsMax == hi)
        }
    }

    @Test("bounds cover all vertices, including ones no triangle uses (fathom.h: bounds of all vertices)")
    func boundsOfUnreferencedVertices() throws {
        // Vertex 3 at (100, -100, 7) is used by no triangle.
        let data = MeshData(vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 100, -100, 7], indices: [0, 1, 2])
        let mesh = try Mesh.make(from: data)
        #expect(mesh.vertexCount == 4)
        #expect(mesh.boundsMin == SIMD3(0, -100, 0) && mesh.boundsMax == SIMD3(100, 1, 7),
                "bounds \(mesh.boundsMin) ... \(mesh.boundsMax)")
    }

    @Test("face geometry: normals and areas by hand, and against Double for random soups, in the caller's order")
    func faceGeometry() throws {
        var hand = Soup()
        hand.add(SIMD3(0, 0, 0), SIMD3(2, 0, 0), SIMD3(0, 3, 0))     // area 3, +z
        hand.add(SIMD3(0, 0, 0), SIMD3(0, 3, 0), SIMD3(2, 0, 0))     // area 3, -z (reversed winding)
        hand.add(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))     // area sqrt(3)/2, (1,1,1)/sqrt(3)
        hand.add(SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(2, 2, 2))     // collinear: 0, zero normal
        hand.add(SIMD3(5, 5, 5), SIMD3(5, 5, 5), SIMD3(1, 2, 3))     // two equal vertices: 0, zero normal
        hand.add(SIMD3(0, 0, 4), SIMD3(0, 0, 0), SIMD3(0, 4, 0))     // area 8, +x: (0,0,-4) x (0,4,-4) = (16,0,0)
        let mesh = try hand.mesh()
        let (normals, areas) = mesh.faceGeometry()
        let third = Float(1 / 3.0.squareRoot())
        let expectedNormals: [SIMD3<Float>] = [SIMD3(0, 0, 1), SIMD3(0, 0, -1), SIMD3(third, third, third), .zero, .zero, SIMD3(1, 0, 0)]
        let expectedAreas: [Float] = [3, 3, Float(3.0.squareRoot() / 2), 0, 0, 8]
        for k in 0..<6 {
            #expect(close(normals[k], expectedNormals[k], 2 * ulp), "triangle \(k): normal \(normals[k])")
            #expect(close(areas[k], expectedAreas[k], 2 * ulp * expectedAreas[k]), "triangle \(k): area \(areas[k])")
        }
        #expect(abs(mesh.surfaceArea - (14 + 3.0.squareRoot() / 2)) <= 1e-6)

        var rng = SplitMix64(seed: 3700)
        for n in [1, 9, 500, 5000] {
            let soup = randomSoup(&rng, count: n)
            let mesh = try soup.mesh()
            let (normals, areas) = mesh.faceGeometry()
            #expect(normals.count == n && areas.count == n)
            var total = 0.0
            for k in 0..<n {
                let (a, b, c) = soup.triangle(k)
                let e1 = SIMD3<Double>(b) - SIMD3<Double>(a), e2 = SIMD3<Double>(c) - SIMD3<Double>(a)
                let cr = cross(e1, e2)
                let area = length(cr) / 2
                total += area
                // Edges are rounded once in Float (relative u each): the cross product errs by a few u of |e1||e2|.
                let scale = length(e1) * length(e2)
                #expect(abs(Double(areas[k]) - area) <= Double(4 * ulp) * scale, "triangle \(k): area \(areas[k]) vs \(area)")
                #expect(close(normals[k], cr / length(cr), Double(4 * ulp) * (1 + scale / length(cr))), "triangle \(k): normal \(normals[k])")
            }
            #expect(abs(mesh.surfaceArea - total) <= 1e-6 * total)
        }
    }

    @Test("classes: each hit carries its triangle's class; none given means 0")
    func classes() throws {
        var rng = SplitMix64(seed: 3800)
        let soup = randomSoup(&rng, count: 400)
        var plain = soup
        plain.classes = nil
        let withClasses = try soup.mesh(), without = try plain.mesh()
        var seen = Set<UInt8>()
        for _ in 0..<3000 {
            let (ray, tmin, tmax) = randomQuery(&rng, soup)
            if let hit = withClasses.intersect(ray, tmin: tmin, tmax: tmax) {
                #expect(hit.classification == soup.classes![Int(hit.primitive)])
                seen.insert(hit.classification)
            }
            for h in withClasses.intersectAll(ray, tmin: tmin, tmax: tmax) { #expect(h.classification == soup.classes![Int(h.primitive)]) }
            if let hit = without.intersect(ray, tmin: tmin, tmax: tmax) { #expect(hit.classification == 0) }
        }
        #expect(seen == Set(0...7))
        // The floor quad is classified as floor (2).
        let floor = try Mesh.make(from: MeshData.floorQuad(height: -1, size: 4))
        let hit = floor.intersect(Ray(origin: SIMD3(0.3, 1, 0.2), direction: SIMD3(0, -1, 0)), tmin: 0, tmax: .infinity)
        #expect(hit?.classification == 2 && hit?.t == 2 && hit?.normal == SIMD3(0, 1, 0) && hit?.frontFace == true)
    }

    @Test("invalid meshes are refused, naming the problem")
    func invalidMeshes() throws {
        let v: [Float] = [0, 0, 0, 1, 0, 0, 0, 1, 0]
        expectError(.outOfRange, containing: ["3 per triangle"]) { () throws(FathomError) in _ = try Mesh.make(from: MeshData(vertices: v, indices: [0, 1])) }
        expectError(.outOfRange, containing: ["triangle 1", "index 3"]) { () throws(FathomError) in
            _ = try Mesh.make(from: MeshData(vertices: v, indices: [0, 1, 2, 0, 3, 1]))
        }
        expectError(.outOfRange, containing: ["classes[1]"]) { () throws(FathomError) in
            _ = try Mesh.make(from: MeshData(vertices: v, indices: [0, 1, 2, 2, 1, 0], classes: [7, 8]))
        }
        expectError(.outOfRange, containing: ["classes"]) { () throws(FathomError) in
            _ = try Mesh.make(from: MeshData(vertices: v, indices: [0, 1, 2], classes: [1, 1]))
        }
        expectError(.notFinite, containing: ["vertices[1]"]) { () throws(FathomError) in
            _ = try Mesh.make(from: MeshData(vertices: [0, 0, 0, .nan, 0, 0, 0, 1, 0], indices: [0, 1, 2]))
        }
        expectError(.outOfRange) { () throws(FathomError) in _ = try Mesh.make(from: MeshData(vertices: [], indices: [0, 0, 0])) }
    }
}
