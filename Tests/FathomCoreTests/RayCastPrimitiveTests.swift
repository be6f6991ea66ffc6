// Ray casts against single primitives: planes (and the floor), spheres, oriented boxes and triangles.
// Hand geometry first (exact or within a few ulps), then random cases against Double references; ranges
// [tmin, tmax] inclusive at both ends, origins inside, which side is hit, and argument validation.
import FathomCore
import Glibc
import Testing

@Suite("Ray casts: primitives")
struct RayCastPrimitiveTests {
    // MARK: Rays and ranges

    @Test("a ray is valid with a finite origin and a direction whose largest component is in [1e-18, 1e18]")
    func rayValidation() throws {
        try Ray(origin: SIMD3(1, 2, 3), direction: SIMD3(0, 0, 1e-18)).validate()
        try Ray(origin: .zero, direction: SIMD3(-1e-18, 0, 0)).validate()
        try Ray(origin: .zero, direction: SIMD3(1e18, -1e18, 1e-30)).validate()
        expectError(.outOfRange, containing: ["ray.direction", "too long"]) { () throws(FathomError) in
            try Ray(origin: .zero, direction: SIMD3(0, -Float(1e18).nextUp, 0)).validate()
        }
        expectError(.outOfRange) { () throws(FathomError) in try Ray(origin: .zero, direction: SIMD3(3e38, -3e38, 3e38)).validate() }
        expectError(.degenerate, containing: ["ray.direction"]) { () throws(FathomError) in try Ray(origin: .zero, direction: .zero).validate() }
        expectError(.degenerate, containing: ["r.direction"]) { () throws(FathomError) in try Ray(origin: .zero, direction: -SIMD3<Float>.zero).validate("r") }
        expectError(.degenerate) { () throws(FathomError) in try Ray(origin: .zero, direction: SIMD3(9e-19, -9e-19, 1e-30)).validate() }
        for bad: Float in [.nan, .infinity, -.infinity] {
            expectError(.notFinite, containing: ["origin.y"]) { () throws(FathomError) in try Ray(origin: SIMD3(0, bad, 0), direction: SIMD3(1, 0, 0)).validate() }
            expectError(.notFinite, containing: ["direction.z"]) { () throws(FathomError) in try Ray(origin: .zero, direction: SIMD3(1, 0, bad)).validate() }
        }
        #expect(Ray(origin: SIMD3(1, 2, 3), direction: SIMD3(2, 0, -1)).at(1.5) == SIMD3(4, 2, 1.5))
    }

    @Test("a range is 0 <= tmin <= tmax, tmin finite, tmax may be infinite")
    func rangeValidation() throws {
        try validateRange(tmin: 0, tmax: .infinity)
        try validateRange(tmin: 2, tmax: 2)
        try validateRange(tmin: 0, tmax: 0)
        try validateRange(tmin: 1e30, tmax: .infinity)
        expectError(.outOfRange, containing: ["tmin"]) { () throws(FathomError) in try validateRange(tmin: -1, tmax: 1) }
        expectError(.outOfRange, containing: ["tmin"]) { () throws(FathomError) in try validateRange(tmin: -.leastNonzeroMagnitude, tmax: 1) }
        expectError(.outOfRange, containing: ["tmax"]) { () throws(FathomError) in try validateRange(tmin: 2, tmax: 1) }
        expectError(.outOfRange) { () throws(FathomError) in try validateRange(tmin: 0, tmax: -.infinity) }
        expectError(.notFinite) { () throws(FathomError) in try validateRange(tmin: .nan, tmax: 1) }
        expectError(.notFinite) { () throws(FathomError) in try validateRange(tmin: 0, tmax: .nan) }
        expectError(.notFinite, containing: ["tmin"]) { () throws(FathomError) in try validateRange(tmin: .infinity, tmax: .infinity) }
    }

    // MARK: Planes and the floor

    @Test("plane by hand: t in units of |direction|, unit normal, both sides, parallel and in-plane rays miss")
    func planeByHand() throws {
        // Plane y = 1 given by a non-unit normal; direction of length 2.
        let point = SIMD3<Float>(3, 1, 7), normal = SIMD3<Float>(0, 3, 0)
        let down = try #require(try PrimitiveCast.plane(Ray(origin: SIMD3(0, 5, 0), direction: SIMD3(0, -2, 0)), tmin: 0, tmax: .infinity, point: point, normal: normal))
        #expect(down.t == 2 && down.point == SIMD3(0, 1, 0) && down.normal == SIMD3(0, 1, 0))
        #expect(down.frontFace && down.primitive == 0 && down.u == 0 && down.v == 0 && down.classification == 0)
        let up = try #require(try PrimitiveCast.plane(Ray(origin: SIMD3(5, -3, 2), direction: SIMD3(0, 1, 0)), tmin: 0, tmax: .infinity, point: point, normal: normal))
        #expect(up.t == 4 && up.point == SIMD3(5, 1, 2) && up.normal == SIMD3(0, 1, 0) && !up.frontFace)
        // Slanted: from (0, 5, 0) along (3, -4, 0)/5 reaches y = 1 after 5 m at (3, 1, 0).
        let slant = try #require(try PrimitiveCast.plane(Ray(origin: SIMD3(0, 5, 0), direction: SIMD3(0.6, -0.8, 0)), tmin: 0, tmax: .infinity, point: point, normal: normal))
        #expect(close(slant.t, 5, 4 * ulp * 5) && close(slant.point, SIMD3(3, 1, 0), 4 * ulp * 5))
        // Parallel (above and in the plane), and pointing away.
        #expect(try PrimitiveCast.plane(Ray(origin: SIMD3(0, 5, 0), direction: SIMD3(1, 0, 0)), tmin: 0, tmax: .infinity, point: point, normal: normal) == nil)
        #expect(try PrimitiveCast.plane(Ray(origin: SIMD3(0, 1, 0), direction: SIMD3(1, 0, -1)), tmin: 0, tmax: .infinity, point: point, normal: normal) == nil)
        #expect(try PrimitiveCast.plane(Ray(origin: SIMD3(0, 5, 0), direction: SIMD3(0, 1, 0)), tmin: 0, tmax: .infinity, point: point, normal: normal) == nil)
        // The range is inclusive at both ends.
        let ray = Ray(origin: SIMD3(0, 5, 0), direction: SIMD3(0, -2, 0))
        for (tmin, tmax, hits): (Float, Float, Bool) in [(2, 2, true), (0, 2, true), (2, 9, true), (0, 1.9999999, false), (2.0000002, 9, false), (0, 0, false)] {
            let hit = try PrimitiveCast.plane(ray, tmin: tmin, tmax: tmax, point: point, normal: normal)
            #expect((hit != nil) == hits, "range [\(tmin), \(tmax)]: \(String(describing: hit))")
        }
        // A normal pointing the other way: the same t, the other side.
        let flipped = try #require(try PrimitiveCast.plane(ray, tmin: 0, tmax: .infinity, point: point, normal: SIMD3(0, -0.5, 0)))
        #expect(flipped.t == 2 && flipped.normal == SIMD3(0, -1, 0) && !flipped.frontFace)
    }

    @Test("the floor (plane y = h, normal +y): taps from a camera above hit it, rays going up miss")
    func floor() throws {
        func floorCast(_ ray: Ray, _ h: Float, tmin: Float = 0, tmax: Float = .infinity) throws -> Hit? {
            try PrimitiveCast.plane(ray, tmin: tmin, tmax: tmax, point: SIMD3(0, h, 0), normal: SIMD3(0, 1, 0))
        }
        let hit = try #require(try floorCast(Ray(origin: SIMD3(1, 1.5, 3), direction: SIMD3(0, -1, 0)), -0.25))
        #expect(hit.t == 1.75 && hit.point == SIMD3(1, -0.25, 3) && hit.normal == SIMD3(0, 1, 0) && hit.frontFace)
        #expect(try floorCast(Ray(origin: SIMD3(1, 1.5, 3), direction: SIMD3(0.1, 0.2, -1)), -0.25) == nil)
        #expect(try floorCast(Ray(origin: SIMD3(1, 1.5, 3), direction: SIMD3(1, 0, 0)), -0.25) == nil)
        // From below the floor, looking up: the back side.
        let below = try #require(try floorCast(Ray(origin: SIMD3(0, -3, 0), direction: SIMD3(0, 4, 0)), -1))
        #expect(below.t == 0.5 && !below.frontFace)
        var rng = SplitMix64(seed: 4000)
        for _ in 0..<2000 {
            let h = rng.float(-3...1)
            let origin = SIMD3(rng.float(-5...5), h + rng.float(0.1...3), rng.float(-5...5))
            var d = SIMD3<Float>(rng.direction())
            d.y = -abs(d.y) - 0.05
            let hit = try #require(try floorCast(Ray(origin: origin, direction: d), h))
            let t = Double(origin.y - h) / Double(-d.y)
            #expect(abs(Double(hit.t) - t) <= 8 * Double(ulp) * (t + Double(abs(origin.y) + abs(h)) / Double(-d.y)))
            #expect(abs(hit.point.y - h) <= 8 * ulp * (abs(h) + abs(origin.y) + hit.t * maxAbs(d)))
        }
    }

    @Test("random planes against Double: hit exactly when t is in range, t, point, normal, side")
    func randomPlanes() throws {
        var rng = SplitMix64(seed: 4001)
        var hits = 0
        for _ in 0..<5000 {
            let point = rng.vector(-10...10)
            let n = SIMD3<Float>(rng.direction()) * rng.float(0.01...100)
            let origin = rng.vector(-10...10)
            let d = SIMD3<Float>(rng.direction()) * rng.float(0.1...10)
            let tmin = rng.unit() < 0.5 ? 0 : rng.float(0...5), tmax = rng.unit() < 0.5 ? Float.infinity : tmin + rng.float(0...10)
            let N = SIMD3<Double>(n) / length(SIMD3<Double>(n)), D = SIMD3<Double>(d)
            let cosine = dot(N, D) / length(D)
            guard abs(cosine) > 1e-3 else { continue }
            let t = dot(N, SIMD3<Double>(point) - SIMD3<Double>(origin)) / dot(N, D)
            // The numerator errs by ulps of |point| + |origin|; the denominator dot(n, d) by ulps of |d|, which
            // relative to it is ulps / |cosine|.
            let tol = 16 * Double(ulp) * (Double(maxAbs(point) + maxAbs(origin)) / abs(dot(N, D)) + abs(t) / abs(cosine))
            let hit = try PrimitiveCast.plane(Ray(origin: origin, direction: d), tmin: tmin, tmax: tmax, point: point, normal: n)
            if t >= Double(tmin) + tol && t <= Double(tmax) - tol {
                guard let hit else { Issue.record("missed: t = \(t) in [\(tmin), \(tmax)]"); continue }
                hits += 1
                #expect(abs(Double(hit.t) - t) <= tol)
                #expect(close(hit.point, SIMD3<Double>(origin) + t * D, tol * length(D) + 8 * Double(ulp) * Double(maxAbs(origin))))
                #expect(close(hit.normal, N, 4 * Double(ulp)))
                #expect(hit.frontFace == (cosine < 0))
            } else if t < Double(tmin) - tol || t > Double(tmax) + tol {
                #expect(hit == nil, "t = \(t) outside [\(tmin), \(tmax)], got \(String(describing: hit))")
            }
        }
        #expect(hits > 1000)
    }

    @Test("plane validation: a zero normal is degenerate, non-finite point or normal named")
    func planeValidation() throws {
        let ray = Ray(origin: SIMD3(0, 1, 0), direction: SIMD3(0, -1, 0))
        expectError(.degenerate, containing: ["normal"]) { () throws(FathomError) in _ = try PrimitiveCast.plane(ray, tmin: 0, tmax: .infinity, point: .zero, normal: .zero) }
        expectError(.notFinite, containing: ["point.x"]) { () throws(FathomError) in _ = try PrimitiveCast.plane(ray, tmin: 0, tmax: .infinity, point: SIMD3(.nan, 0, 0), normal: SIMD3(0, 1, 0)) }
        expectError(.notFinite, containing: ["normal.z"]) { () throws(FathomError) in _ = try PrimitiveCast.plane(ray, tmin: 0, tmax: .infinity, point: .zero, normal: SIMD3(0, 1, .infinity)) }
    }

    // MARK: Spheres

    @Test("sphere by hand: entry from outside, exit from inside, ranges, misses, behind")
    func sphereByHand() throws {
        let c = SIMD3<Float>(0, 0, 0), r: Float = 2
        func cast(_ o: SIMD3<Float>, _ d: SIMD3<Float>, tmin: Float = 0, tmax: Float = .infinity) throws -> Hit? {
            try PrimitiveCast.sphere(Ray(origin: o, direction: d), tmin: tmin, tmax: tmax, center: c, radius: r)
        }
        let entry = try #require(try cast(SIMD3(0, 0, 10), SIMD3(0, 0, -1)))
        #expect(entry.t == 8 && entry.point == SIMD3(0, 0, 2) && entry.normal == SIMD3(0, 0, 1) && entry.frontFace)
        #expect(entry.primitive == 0 && entry.u == 0 && entry.v == 0)
        #expect(try cast(SIMD3(0, 0, 10), SIMD3(0, 0, -4))?.t == 2)  // units of |direction|
        let exit = try #require(try cast(SIMD3(0, 0, 0.5), SIMD3(0, 0, -1)))
        #expect(exit.t == 2.5 && exit.point == SIMD3(0, 0, -2) && exit.normal == SIMD3(0, 0, -1) && !exit.frontFace)
        let fromCentre = try #require(try cast(.zero, SIMD3(1, 0, 0)))
        #expect(fromCentre.t == 2 && fromCentre.normal == SIMD3(1, 0, 0) && !fromCentre.frontFace)
        // Past the entry: the exit. Before the entry or past the exit: nothing. Inclusive ends.
        let far = try #require(try cast(SIMD3(0, 0, 10), SIMD3(0, 0, -1), tmin: 9))
        #expect(far.t == 12 && far.point == SIMD3(0, 0, -2) && !far.frontFace)
        #expect(try cast(SIMD3(0, 0, 10), SIMD3(0, 0, -1), tmax: 7.9999995) == nil)
        #expect(try cast(SIMD3(0, 0, 10), SIMD3(0, 0, -1), tmin: 12.000001) == nil)
        #expect(try cast(SIMD3(0, 0, 10), SIMD3(0, 0, -1), tmin: 8, tmax: 8)?.t == 8)
        #expect(try cast(SIMD3(0, 0, 10), SIMD3(0, 0, -1), tmin: 12, tmax: 12)?.t == 12)
        // Misses: aside, behind, away.
        #expect(try cast(SIMD3(0, 2.001, 10), SIMD3(0, 0, -1)) == nil)
        #expect(try cast(SIMD3(0, 0, 10), SIMD3(0, 0, 1)) == nil)
        #expect(try cast(SIMD3(3, 3, 3), SIMD3(1, 1, 1)) == nil)
        // A far sphere keeps its digits: centre 10 km away, radius 1.
        let distant = try #require(try PrimitiveCast.sphere(Ray(origin: .zero, direction: SIMD3(1, 0, 0)), tmin: 0, tmax: .infinity, center: SIMD3(10_000, 0, 0), radius: 1))
        #expect(distant.t == 9999 && distant.normal == SIMD3(-1, 0, 0))
    }

    @Test("random spheres against the Double quadratic: first root in range, normal, side")
    func randomSpheres() throws {
        var rng = SplitMix64(seed: 4002)
        var hits = 0, inside = 0
        for _ in 0..<5000 {
            let center = rng.vector(-10...10), radius = rng.float(0.05...5)
            let origin = rng.unit() < 0.3 ? center + SIMD3<Float>(rng.direction()) * radius * rng.float(0...0.95) : rng.vector(-15...15)
            var d = SIMD3<Float>(rng.direction())
            if rng.unit() < 0.6 { d = (center + rng.vector(-radius...radius)) - origin }  // mostly towards it
            d *= rng.float(0.1...10)
            guard d != .zero else { continue }
            let tmin = rng.unit() < 0.6 ? 0 : rng.float(0...3), tmax = rng.unit() < 0.6 ? Float.infinity : tmin + rng.float(0...10)
            let o = SIMD3<Double>(origin) - SIMD3<Double>(center), D = SIMD3<Double>(d), R = Double(radius)
            let a = dot(D, D), b = dot(o, D), c = dot(o, o) - R * R
            let disc = b * b - a * c
            let hit = try PrimitiveCast.sphere(Ray(origin: origin, direction: d), tmin: tmin, tmax: tmax, center: center, radius: radius)
            // Near tangency the roots are ill-conditioned: skip.
            guard abs(disc) > 1e-6 * b * b + 1e-9 else { continue }
            if disc < 0 { #expect(hit == nil); continue }
            let roots = [(-b - disc.squareRoot()) / a, (-b + disc.squareRoot()) / a]
            let scale = (Double(maxAbs(origin - center)) + R) / a.squareRoot()
            let tol = 16 * Double(ulp) * scale * (1 + abs(b) / disc.squareRoot())
            // A root within its error of tmin or tmax may go either way: skip.
            guard !roots.contains(where: { abs($0 - Double(tmin)) <= tol || abs($0 - Double(tmax)) <= tol }) else { continue }
            guard let t = roots.first(where: { $0 >= Double(tmin) && $0 <= Double(tmax) }) else {
                #expect(hit == nil, "roots \(roots) outside [\(tmin), \(tmax)], got \(String(describing: hit))")
                continue
            }
            guard let hit else { Issue.record("missed: roots \(roots), range [\(tmin), \(tmax)]"); continue }
            hits += 1
            if c < 0 { inside += 1 }
            #expect(abs(Double(hit.t) - t) <= tol, "t \(hit.t) vs \(t) ± \(tol)")
            let p = o + t * D
            // The point o + t d is rounded in world coordinates, then the centre subtracted: ulps of those
            // magnitudes, relative to the radius.
            let magnitude = Double(maxAbs(origin) + maxAbs(center) + hit.t * maxAbs(d))
            #expect(close(hit.normal, p / length(p), 16 * Double(ulp) * (1 + magnitude / R)))
            #expect(abs(length(hit.normal) - 1) <= 4 * ulp)
            #expect(hit.frontFace == (t == roots[0] && c > 0), "front face only on entry from outside")
        }
        #expect(hits > 1500 && inside > 300)
    }

    @Test("sphere validation: radius > 0 and finite, centre finite")
    func sphereValidation() throws {
        let ray = Ray(origin: .zero, direction: SIMD3(1, 0, 0))
        for bad: Float in [0, -1, -.infinity] {
            expectError(bad.isFinite ? .outOfRange : .notFinite, containing: ["radius"]) { () throws(FathomError) in
                _ = try PrimitiveCast.sphere(ray, tmin: 0, tmax: .infinity, center: SIMD3(5, 0, 0), radius: bad)
            }
        }
        expectError(.notFinite, containing: ["radius"]) { () throws(FathomError) in _ = try PrimitiveCast.sphere(ray, tmin: 0, tmax: .infinity, center: .zero, radius: .nan) }
        expectError(.notFinite, containing: ["center.y"]) { () throws(FathomError) in _ = try PrimitiveCast.sphere(ray, tmin: 0, tmax: .infinity, center: SIMD3(0, .nan, 0), radius: 1) }
    }

    // MARK: Oriented boxes

    /// Face index -> outward local normal: 0 front -z, 1 left -x, 2 right +x, 3 bottom -y, 4 top +y, 5 back +z.
    static let faceNormals: [SIMD3<Float>] = [SIMD3(0, 0, -1), SIMD3(-1, 0, 0), SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]

    @Test("axis-aligned box by hand: each face entered and left from its side, with its index and outward normal")
    func boxFacesByHand() throws {
        // x in [0, 2], y in [0, 4], z in [0, 6].
        let box = try OrientedBox(center: SIMD3(1, 2, 3), scale: SIMD3(2, 4, 6))
        // (origin, direction, t enter, t exit, face enter, face exit)
        let cases: [(SIMD3<Float>, SIMD3<Float>, Float, Float, Int, Int)] = [
            (SIMD3(1, 2, -10), SIMD3(0, 0, 1), 10, 16, 0, 5),    // through the front (-z) to the back
            (SIMD3(1, 2, 20), SIMD3(0, 0, -1), 14, 20, 5, 0),    // back to front
            (SIMD3(-10, 2, 3), SIMD3(1, 0, 0), 10, 12, 1, 2),    // left (-x) to right
            (SIMD3(12, 1, 5), SIMD3(-1, 0, 0), 10, 12, 2, 1),    // right to left
            (SIMD3(1, -10, 3), SIMD3(0, 1, 0), 10, 14, 3, 4),    // bottom (-y) to top
            (SIMD3(0.5, 20, 1), SIMD3(0, -2, 0), 8, 10, 4, 3),   // top to bottom, |direction| = 2
        ]
        for (o, d, tEnter, tExit, fEnter, fExit) in cases {
            let crossing = PrimitiveCast.orientedBox(Ray(origin: o, direction: d), tmin: 0, tmax: .infinity, box: box)
            #expect(crossing.tEnter == tEnter && crossing.tExit == tExit, "\(o) \(d): \(crossing.tEnter) ... \(crossing.tExit)")
            #expect(crossing.faceEnter == fEnter && crossing.faceExit == fExit, "\(o) \(d): faces \(crossing.faceEnter), \(crossing.faceExit)")
            #expect(!crossing.originInside)
            let hit = try #require(crossing.hit)
            #expect(hit.t == tEnter && hit.primitive == UInt32(fEnter) && hit.frontFace)
            #expect(hit.normal == Self.faceNormals[fEnter] && hit.point == o + tEnter * d)
            #expect(hit.u == 0 && hit.v == 0 && hit.classification == 0)
            // Past the entry: the exit face, seen from inside.
            let later = try #require(PrimitiveCast.orientedBox(Ray(origin: o, direction: d), tmin: (tEnter + tExit) / 2, tmax: .infinity, box: box).hit)
            #expect(later.t == tExit && later.primitive == UInt32(fExit) && !later.frontFace && later.normal == Self.faceNormals[fExit])
            // Ranges that end before the entry or start after the exit: no hit (inclusive ends hit).
            #expect(PrimitiveCast.orientedBox(Ray(origin: o, direction: d), tmin: 0, tmax: tEnter.nextDown, box: box).hit == nil)
            #expect(PrimitiveCast.orientedBox(Ray(origin: o, direction: d), tmin: tExit.nextUp, tmax: .infinity, box: box).hit == nil)
            #expect(PrimitiveCast.orientedBox(Ray(origin: o, direction: d), tmin: 0, tmax: tEnter, box: box).hit?.t == tEnter)
            #expect(PrimitiveCast.orientedBox(Ray(origin: o, direction: d), tmin: tExit, tmax: tExit, box: box).hit?.t == tExit)
        }
    }

    @Test("box from inside: originInside, tEnter < 0, the hit is the exit face (back side); faces count as inside")
    func boxFromInside() throws {
        let box = try OrientedBox(center: SIMD3(1, 2, 3), scale: SIMD3(2, 4, 6))
        let crossing = PrimitiveCast.orientedBox(Ray(origin: SIMD3(1, 2, 3), direction: SIMD3(1, 0, 0)), tmin: 0, tmax: .infinity, box: box)
        #expect(crossing.originInside && crossing.tEnter == -1 && crossing.tExit == 1 && crossing.faceEnter == 1 && crossing.faceExit == 2)
        let hit = try #require(crossing.hit)
        #expect(hit.t == 1 && hit.primitive == 2 && !hit.frontFace && hit.normal == SIMD3(1, 0, 0) && hit.point == SIMD3(2, 2, 3))
        // Up, down, forward, back from inside.
        for (d, face) in [(SIMD3<Float>(0, 1, 0), 4), (SIMD3(0, -1, 0), 3), (SIMD3(0, 0, -1), 0), (SIMD3(0, 0, 1), 5), (SIMD3(-1, 0, 0), 1)] {
            let c = PrimitiveCast.orientedBox(Ray(origin: SIMD3(1, 2, 3), direction: d), tmin: 0, tmax: .infinity, box: box)
            #expect(c.originInside && c.hit?.primitive == UInt32(face) && c.hit?.frontFace == false && c.tEnter < 0)
        }
        // On a face (x = 0) and on a corner: inside.
        #expect(PrimitiveCast.orientedBox(Ray(origin: SIMD3(0, 2, 3), direction: SIMD3(0, 1, 0)), tmin: 0, tmax: .infinity, box: box).originInside)
        #expect(PrimitiveCast.orientedBox(Ray(origin: SIMD3(2, 4, 6), direction: SIMD3(1, 1, 1)), tmin: 0, tmax: .infinity, box: box).originInside)
        // Just outside a face (by one ulp of the local coordinate, 1 + 2^-23): not inside.
        #expect(!PrimitiveCast.orientedBox(Ray(origin: SIMD3(-0x1p-22, 2, 3), direction: SIMD3(1, 0, 0)), tmin: 0, tmax: .infinity, box: box).originInside)
        // A ray leaving from the face it starts on, going out: the exit at t = 0.
        let leaving = PrimitiveCast.orientedBox(Ray(origin: SIMD3(0, 2, 3), direction: SIMD3(-1, 0, 0)), tmin: 0, tmax: .infinity, box: box)
        #expect(leaving.hit?.t == 0 && leaving.hit?.primitive == 1)
    }

    @Test("box misses: beside, behind, parallel outside a slab; hit nil, crossing times and faces reset")
    func boxMisses() throws {
        let box = try OrientedBox(center: SIMD3(1, 2, 3), scale: SIMD3(2, 4, 6))
        for (o, d) in [(SIMD3<Float>(5, 2, -10), SIMD3<Float>(0, 0, 1)),   // parallel to x slab, outside it
                       (SIMD3(1, 2, -10), SIMD3(1, 0, 0)),                 // along x, outside the z slab
                       (SIMD3(-5, -5, -5), SIMD3(1, 0.1, 5))] {            // oblique, passing by
            let c = PrimitiveCast.orientedBox(Ray(origin: o, direction: d), tmin: 0, tmax: .infinity, box: box)
            #expect(c.hit == nil && !c.originInside && c.tEnter == 0 && c.tExit == 0, "\(o) \(d): \(c)")
        }
        // Behind the ray: the line crosses the box, the ray does not.
        let behind = PrimitiveCast.orientedBox(Ray(origin: SIMD3(1, 2, -10), direction: SIMD3(0, 0, -1)), tmin: 0, tmax: .infinity, box: box)
        #expect(behind.hit == nil && !behind.originInside)
    }

    @Test("rotated boxes against a Double slab test: crossings, faces (local axes), normals, inside")
    func randomBoxes() throws {
        var rng = SplitMix64(seed: 4003)
        var hits = 0, insides = 0
        for _ in 0..<5000 {
            let box = try OrientedBox(center: rng.vector(-5...5), scale: rng.vector(0.1...4), rotation: rng.rotation())
            let inside = rng.unit() < 0.25
            let origin = inside ? box.center + box.rotation.matrix * (rng.vector(-0.45...0.45) * box.scale) : rng.vector(-10...10)
            var d = SIMD3<Float>(rng.direction())
            if !inside && rng.unit() < 0.6 { d = box.center + rng.vector(-1...1) - origin }
            d *= rng.float(0.2...5)
            guard d != .zero else { continue }
            let tmin: Float = rng.unit() < 0.7 ? 0 : rng.float(0...3)
            let r = DMatrix3(box.rotation.matrix)
            let o = r.transposed * (SIMD3<Double>(origin) - SIMD3<Double>(box.center)), D = r.transposed * SIMD3<Double>(d)
            let h = SIMD3<Double>(box.scale) / 2
            var enter = -Double.infinity, exit = Double.infinity, fEnter = -1, fExit = -1
            var enterTimes = [Double](), exitTimes = [Double]()
            let faces = [(1, 2), (3, 4), (0, 5)]
            for axis in 0..<3 {
                var t0 = (-h[axis] - o[axis]) / D[axis], t1 = (h[axis] - o[axis]) / D[axis]
                var f0 = faces[axis].0, f1 = faces[axis].1
                if t0 > t1 { swap(&t0, &t1); swap(&f0, &f1) }
                enterTimes.append(t0); exitTimes.append(t1)
                if t0 > enter { enter = t0; fEnter = f0 }
                if t1 < exit { exit = t1; fExit = f1 }
            }
            let scale = (Double(maxAbs(origin - box.center)) + Double(maxAbs(box.scale))) / length(D)
            let tol = 64 * Double(ulp) * scale * (1 + 1 / SIMD3<Double>(componentAbs(D) / length(D)).min())
            let c = PrimitiveCast.orientedBox(Ray(origin: origin, direction: d), tmin: tmin, tmax: .infinity, box: box)
            if inside { #expect(c.originInside); insides += 1 }
            if enter > exit + tol { #expect(c.hit == nil, "the line misses: \(enter) > \(exit)"); continue }
            guard enter < exit - tol else { continue }  // grazing an edge: either answer
            #expect(abs(Double(c.tEnter) - enter) <= tol && abs(Double(c.tExit) - exit) <= tol, "\(c.tEnter), \(c.tExit) vs \(enter), \(exit)")
            // Faces, when no other slab ties with the deciding one.
            if enterTimes.filter({ abs($0 - enter) <= tol }).count == 1 { #expect(c.faceEnter == fEnter) }
            if exitTimes.filter({ abs($0 - exit) <= tol }).count == 1 { #expect(c.faceExit == fExit) }
            let first = enter >= Double(tmin) + tol ? (enter, fEnter, true) : exit >= Double(tmin) + tol && enter < Double(tmin) - tol ? (exit, fExit, false) : nil
            if let (t, face, front) = first {
                guard let hit = c.hit else { Issue.record("missed: \(enter) ... \(exit), tmin \(tmin)"); continue }
                hits += 1
                #expect(abs(Double(hit.t) - t) <= tol && hit.frontFace == front)
                if face == (front ? c.faceEnter : c.faceExit) {
                    #expect(hit.primitive == UInt32(face))
                    #expect(close(hit.normal, r * SIMD3<Double>(Self.faceNormals[face]), 8 * Double(ulp)))
                }
            } else if exit < Double(tmin) - tol {
                #expect(c.hit == nil)
            }
        }
        #expect(hits > 2000 && insides > 1000)
    }

    @Test("a box turned 90 degrees about y: face indices follow its local axes")
    func rotatedBoxFaces() throws {
        // R_y(90): local -z (front) points to world -x; local -x (left) to world +z.
        let s = Float(0.5).squareRoot()
        let box = try OrientedBox(center: .zero, scale: SIMD3(2, 2, 2), rotation: Quaternion(0, s, 0, s))
        let fromMinusX = PrimitiveCast.orientedBox(Ray(origin: SIMD3(-5, 0, 0), direction: SIMD3(1, 0, 0)), tmin: 0, tmax: .infinity, box: box)
        #expect(fromMinusX.faceEnter == 0 && fromMinusX.faceExit == 5 && fromMinusX.hit?.primitive == 0)
        #expect(close(fromMinusX.hit?.normal ?? .zero, SIMD3(-1, 0, 0), 2 * ulp) && close(fromMinusX.hit?.t ?? 0, 4, 4 * ulp * 4))
        let fromPlusZ = PrimitiveCast.orientedBox(Ray(origin: SIMD3(0, 0, 5), direction: SIMD3(0, 0, -1)), tmin: 0, tmax: .infinity, box: box)
        #expect(fromPlusZ.faceEnter == 1 && fromPlusZ.faceExit == 2)
        #expect(close(fromPlusZ.hit?.normal ?? .zero, SIMD3(0, 0, 1), 2 * ulp))
        let fromAbove = PrimitiveCast.orientedBox(Ray(origin: SIMD3(0.3, 5, 0.2), direction: SIMD3(0, -1, 0)), tmin: 0, tmax: .infinity, box: box)
        #expect(fromAbove.faceEnter == 4 && fromAbove.faceExit == 3)
    }

    // MARK: Triangles

    @Test("triangle by hand: t, barycentrics, both sides, edges inclusive, ranges")
    func triangleByHand() throws {
        let a = SIMD3<Float>(0, 0, 0), b = SIMD3<Float>(1, 0, 0), c = SIMD3<Float>(0, 1, 0)  // normal +z
        func cast(_ o: SIMD3<Float>, _ d: SIMD3<Float>, tmin: Float = 0, tmax: Float = .infinity) throws -> Hit? {
            try PrimitiveCast.triangle(Ray(origin: o, direction: d), tmin: tmin, tmax: tmax, a, b, c)
        }
        let front = try #require(try cast(SIMD3(0.25, 0.5, 1), SIMD3(0, 0, -1)))
        #expect(front.t == 1 && front.u == 0.25 && front.v == 0.5 && front.point == SIMD3(0.25, 0.5, 0))
        #expect(front.normal == SIMD3(0, 0, 1) && front.frontFace && front.primitive == 0 && front.classification == 0)
        let back = try #require(try cast(SIMD3(0.25, 0.5, -2), SIMD3(0, 0, 4)))
        #expect(back.t == 0.5 && back.u == 0.25 && back.v == 0.5 && back.normal == SIMD3(0, 0, 1) && !back.frontFace)
        // Vertices and edges belong to the triangle.
        for p in [a, b, c, SIMD3(0.5, 0, 0), SIMD3(0, 0.5, 0), SIMD3(0.5, 0.5, 0)] {
            #expect(try cast(p + SIMD3(0, 0, 1), SIMD3(0, 0, -1))?.t == 1, "at \(p)")
        }
        // Outside, parallel, away, ranges.
        #expect(try cast(SIMD3(0.6, 0.6, 1), SIMD3(0, 0, -1)) == nil)
        #expect(try cast(SIMD3(-0.001, 0.5, 1), SIMD3(0, 0, -1)) == nil)
        #expect(try cast(SIMD3(-1, 0.25, 0), SIMD3(1, 0, 0)) == nil)
        #expect(try cast(SIMD3(0.25, 0.25, 1), SIMD3(0, 0, 1)) == nil)
        #expect(try cast(SIMD3(0.25, 0.25, 1), SIMD3(0, 0, -1), tmax: 0.99999994) == nil)
        #expect(try cast(SIMD3(0.25, 0.25, 1), SIMD3(0, 0, -1), tmin: 1.0000001) == nil)
        #expect(try cast(SIMD3(0.25, 0.25, 1), SIMD3(0, 0, -1), tmin: 1, tmax: 1)?.t == 1)
        expectError(.notFinite, containing: ["v1.y"]) { () throws(FathomError) in
            _ = try PrimitiveCast.triangle(Ray(origin: .zero, direction: SIMD3(0, 0, 1)), tmin: 0, tmax: .infinity, a, SIMD3(1, .nan, 0), c)
        }
        #expect(triangleNormal(a, b, c) == SIMD3(0, 0, 1) && triangleNormal(a, c, b) == SIMD3(0, 0, -1))
        #expect(triangleNormal(a, b, SIMD3(2, 0, 0)) == .zero && triangleNormal(a, a, a) == .zero)
    }

    @Test("random triangles against Moeller-Trumbore in Double: hit or miss, t, barycentrics, point, side")
    func randomTriangles() throws {
        var rng = SplitMix64(seed: 4004)
        var hits = 0, misses = 0
        for _ in 0..<20000 {
            let soup = randomSoup(&rng, count: 1, extent: 5, size: 3)
            let (a, b, c) = soup.triangle(0)
            let (ray, tmin, tmax) = randomQuery(&rng, soup, extent: 5)
            let ref = referenceCast(ray, tmin: tmin, tmax: tmax, a, b, c)
            let hit = try PrimitiveCast.triangle(ray, tmin: tmin, tmax: tmax, a, b, c)
            switch ref.kind {
            case .miss:
                misses += 1
                #expect(hit == nil, "certain miss hit: \(ray) [\(tmin), \(tmax)] triangle \(a) \(b) \(c)")
            case .hit:
                hits += 1
                guard let hit else { Issue.record("certain hit missed: \(ray) [\(tmin), \(tmax)] triangle \(a) \(b) \(c)"); continue }
                #expect(abs(Double(hit.t) - ref.t) <= ref.tTolerance)
                #expect(abs(Double(hit.u) - ref.u) <= ref.baryTolerance && abs(Double(hit.v) - ref.v) <= ref.baryTolerance)
                let p = SIMD3<Double>(a) * (1 - ref.u - ref.v) + SIMD3<Double>(b) * ref.u + SIMD3<Double>(c) * ref.v
                #expect(close(hit.point, p, ref.baryTolerance * 12 + 16 * Double(ulp) * 10))
                #expect(close(hit.normal, ref.normal, Double(8 * ulp) * (1 + ref.normalCondition)))
                if abs(ref.cosine) > 1e-4 { #expect(hit.frontFace == (ref.cosine < 0)) }
                #expect(hit.primitive == 0 && hit.classification == 0)
            case .ambiguous:
                break
            }
        }
        #expect(hits > 8000 && misses > 5000)
    }
}
