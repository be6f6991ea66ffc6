// Box fits: the PCA box (enclosure, axes of elongated clouds, the exact box of a box's corners) and the
// upright minimum-footprint box against a brute-force minimum-area rectangle over all point pairs.
import FathomCore
import Glibc
import Testing

/// Brute-force minimum-area rectangle of 2D points: one side of the optimum lies along a hull edge, i.e.
/// along the direction between some pair of points, so trying every pair finds it. O(n^3).
func bruteForceMinArea(_ points: [SIMD2<Double>]) -> (area: Double, width: Double, depth: Double) {
    var best = (area: Double.infinity, width: 0.0, depth: 0.0)
    for i in points.indices {
        for j in points.indices where j > i {
            let d = points[j] - points[i]
            let len = (d * d).sum().squareRoot()
            if len == 0 { continue }
            let u = d / len, n = SIMD2(-u.y, u.x)
            var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
            for p in points {
                let l = SIMD2((p * u).sum(), (p * n).sum())
                lo = pointwiseMin(lo, l); hi = pointwiseMax(hi, l)
            }
            let area = (hi.x - lo.x) * (hi.y - lo.y)
            if area < best.area { best = (area, hi.x - lo.x, hi.y - lo.y) }
        }
    }
    return best
}

/// How far (meters) the farthest point lies outside `box`, in Double local coordinates from the box's
/// Float rotation matrix; <= 0 when every point is inside.
func excess(_ box: OrientedBox, _ points: [SIMD3<Float>]) -> Double {
    let r = DMatrix3(box.rotation.matrix)
    let h = SIMD3<Double>(box.scale) / 2
    return points.map { p in
        let l = r.transposed * (SIMD3<Double>(p) - SIMD3<Double>(box.center))
        return max(abs(l.x) - h.x, max(abs(l.y) - h.y, abs(l.z) - h.z))
    }.max() ?? 0
}

/// True when every point is inside `box` widened by `slack` meters (see `excess`).
func encloses(_ box: OrientedBox, _ points: [SIMD3<Float>], slack: Double) -> Bool { excess(box, points) <= slack }

@Suite("Box fits")
struct FitTests {
    // MARK: PCA

    @Test("PCA of a box's 8 corners is that box (distinct extents), largest extent as local x")
    func pcaOfCorners() throws {
        var rng = SplitMix64(seed: 80)
        for _ in 0..<200 {
            let rotation = rng.rotation()
            let base = rng.float(0.2...2)
            let scale = SIMD3<Float>(4 * base, 2 * base, base) * rng.vector(0.9...1.1)
            let generator = try OrientedBox(center: rng.vector(-20...20), scale: scale, rotation: rotation)
            let fit = try withPoints(generator.corners) { try OrientedBox.fitPCA($0) }
            let magnitude = maxAbs(generator.center) + maxAbs(scale)
            #expect(close(fit.center, generator.center, 32 * ulp * magnitude), "\(fit.center) vs \(generator.center)")
            #expect(close(fit.scale, scale, 32 * ulp * magnitude), "\(fit.scale) vs \(scale)")
            let a = fit.rotation.matrix, b = rotation.matrix
            for (fa, ga) in [(a.c0, b.c0), (a.c1, b.c1), (a.c2, b.c2)] {
                #expect(abs(abs(dot(fa, ga)) - 1) <= 1e-5, "axis \(fa) vs \(ga)")
            }
            #expect(a.determinant > 0)
        }
    }

    @Test("PCA of an elongated uniform cloud: axes match the generating box, every point enclosed")
    func pcaElongated() throws {
        var rng = SplitMix64(seed: 81)
        for trial in 0..<20 {
            let rotation = rng.rotation()
            let center = trial % 2 == 0 ? rng.vector(-5...5) : SIMD3(1000, 50, -2000) + rng.vector(-5...5)
            let generator = try OrientedBox(center: center, scale: SIMD3(4, 1, 0.25), rotation: rotation)
            let m = rotation.matrix
            let points = (0..<2000).map { _ in center + m * (rng.vector(-0.5...0.5) * generator.scale) }
            let fit = try withPoints(points) { try OrientedBox.fitPCA($0) }
            let a = fit.rotation.matrix
            #expect(abs(dot(a.c0, m.c0)) > 0.999, "long axis \(a.c0) vs \(m.c0)")
            #expect(abs(dot(a.c1, m.c1)) > 0.99, "middle axis \(a.c1) vs \(m.c1)")
            #expect(abs(dot(a.c2, m.c2)) > 0.99, "short axis \(a.c2) vs \(m.c2)")
            #expect(a.determinant > 0)
            // Encloses every point: by the engine's own culling test, and in exact local coordinates.
            try withPoints(points) { #expect(fit.countInside($0) == points.count) }
            #expect(encloses(fit, points, slack: Double(ulp) * Double(maxAbs(center) + 4)))
            // Not much bigger than the generator (the axes are estimates).
            #expect(fit.volume <= generator.volume * 1.1 && fit.volume >= generator.volume * 0.9, "volume \(fit.volume)")
        }
    }

    @Test("PCA boxes enclose random clouds exactly, by the engine's containment test")
    func pcaEncloses() throws {
        var rng = SplitMix64(seed: 82)
        for trial in 0..<200 {
            let n = 4 + trial % 60
            let offset = [SIMD3<Float>.zero, SIMD3(100, -30, 7), SIMD3(-5000, 2, 3000)][trial % 3]
            let points = (0..<n).map { _ in offset + rng.vector(-3...3) * rng.vector(0.1...1) }
            let fit = try withPoints(points) { try OrientedBox.fitPCA($0) }
            try withPoints(points, strideFloats: 4) { #expect(fit.countInside($0) == n, "trial \(trial)") }
            // In Double from the Float rotation matrix: inside to a fraction of an ulp of the coordinates.
            let magnitude = Double(points.map(maxAbs).max()!)
            #expect(encloses(fit, points, slack: Double(ulp) * magnitude), "trial \(trial): a point is \(excess(fit, points)) m outside")
        }
    }

    @Test("PCA refuses too few, collinear, coplanar, coincident and non-finite points")
    func pcaDegenerate() throws {
        for n in 1...3 {
            let points = (0..<n).map { SIMD3<Float>(Float($0), Float($0 * $0), 1) }
            try withPoints(points) { buffer in
                expectError(.degenerate, containing: [">= 4"]) { () throws(FathomError) in _ = try OrientedBox.fitPCA(buffer) }
            }
        }
        let collinear = (0..<10).map { SIMD3<Float>(1, 2, 3) + Float($0) * SIMD3(1, -2, 0.5) }
        // Exactly coplanar: integer points on x + y + z = 0.
        let coplanar: [SIMD3<Float>] = [SIMD3(1, -1, 0), SIMD3(2, 0, -2), SIMD3(0, 3, -3), SIMD3(-1, -1, 2),
                                        SIMD3(4, -1, -3), SIMD3(-2, 5, -3)]
        let axisPlane = (0..<12).map { SIMD3<Float>(Float($0 % 4), 7, Float($0 / 4)) }
        let coincident = [SIMD3<Float>](repeating: SIMD3(3, 4, 5), count: 6)
        for points in [collinear, coplanar, axisPlane, coincident] {
            try withPoints(points) { buffer in
                expectError(.degenerate) { () throws(FathomError) in _ = try OrientedBox.fitPCA(buffer) }
            }
        }
        for bad: Float in [.nan, .infinity, -.infinity] {
            let points = [SIMD3<Float>(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, bad), SIMD3(1, 1, 1)]
            try withPoints(points) { buffer in
                expectError(.notFinite, containing: ["[3]"]) { () throws(FathomError) in _ = try OrientedBox.fitPCA(buffer) }
            }
        }
    }

    // MARK: Upright

    static func checkUpright(_ points: [SIMD3<Float>], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let box = try withPoints(points) { try Box.fitUpright($0) }
        let xz = points.map { SIMD2(Double($0.x), Double($0.z)) }
        let reference = bruteForceMinArea(xz)
        let magnitude = Double(points.map(maxAbs).max()!)
        let area = Double(box.scale.x) * Double(box.scale.z)
        #expect(abs(area - reference.area) <= 1e-5 * reference.area + 1e-5 * magnitude * magnitude,
                "footprint \(area) vs brute force \(reference.area) (\(box))", sourceLocation: sourceLocation)
        #expect(Double(box.rotY) >= 0 && Double(box.rotY) < Double.pi / 2, "rot_y \(box.rotY)", sourceLocation: sourceLocation)
        #expect(box.floor == nil, sourceLocation: sourceLocation)
        let ys = points.map(\.y)
        let (low, high) = (ys.min()!, ys.max()!)
        // The fit pads its extents by a few ulps (relative, and of max(1, |center|)) so no point falls outside.
        #expect(abs(Double(box.scale.y) - Double(high - low)) <= Double(16 * ulp) * max(1, magnitude), sourceLocation: sourceLocation)
        #expect(abs(Double(box.center.y) - (Double(low) + Double(high)) / 2) <= Double(4 * ulp) * magnitude,
                sourceLocation: sourceLocation)
        // Every point inside: in exact local coordinates (with a few ulps of slack for the Float rotation) and
        // by the engine's own containment test of the box's oriented box.
        let obb = try box.orientedBox()
        #expect(encloses(obb, points, slack: Double(8 * ulp) * magnitude), sourceLocation: sourceLocation)
        try withPoints(points) { #expect(obb.countInside($0) == points.count, sourceLocation: sourceLocation) }
    }

    @Test("upright fit: a 2 x 1 rectangle turned 30 (or 120) degrees gives rot_y = 30 degrees")
    func uprightHand() throws {
        for (turn, expectedScale) in [(Float.pi / 6, SIMD3<Float>(2, 1.5, 1)), (2 * Float.pi / 3, SIMD3<Float>(1, 1.5, 2))] {
            let r = Matrix3.rotationY(turn)
            var points = [SIMD3<Float>]()
            for y: Float in [0, 1.5] {
                for (sx, sz): (Float, Float) in [(-1, -0.5), (1, -0.5), (1, 0.5), (-1, 0.5), (0.3, 0.1), (-0.2, 0.4)] {
                    points.append(SIMD3(3, 0, -1) + r * SIMD3(sx, 0, sz) + SIMD3(0, y, 0))
                }
            }
            let box = try withPoints(points) { try Box.fitUpright($0) }
            #expect(close(box.rotY, .pi / 6, 1e-5), "turn \(turn): rot_y \(box.rotY)")
            #expect(close(box.scale, expectedScale, 1e-5), "turn \(turn): scale \(box.scale)")
            #expect(close(box.center, SIMD3(3, 0.75, -1), 1e-5))
            try Self.checkUpright(points)
        }
    }

    @Test("upright fit of an axis-aligned rectangle has rot_y = 0 (not -0, not pi/2)")
    func uprightAxisAligned() throws {
        let points: [SIMD3<Float>] = [SIMD3(0, 0, 0), SIMD3(4, 0, 0), SIMD3(4, 2, 1), SIMD3(0, 2, 1), SIMD3(2, 1, 0.5)]
        let box = try withPoints(points) { try Box.fitUpright($0) }
        #expect(box.rotY == 0 && box.rotY.sign == .plus, "rot_y \(box.rotY)")
        #expect(close(box.scale, SIMD3(4, 2, 1), 8 * ulp * 4))
        #expect(close(box.center, SIMD3(2, 1, 0.5), 8 * ulp * 4))
    }

    @Test("upright fit matches the brute-force minimum-area rectangle on small random sets")
    func uprightRandomSmall() throws {
        var rng = SplitMix64(seed: 83)
        for trial in 0..<400 {
            let n = 3 + trial % 14
            let stretch = SIMD3<Float>(rng.float(0.2...3), 1, rng.float(0.2...3))
            let turn = Matrix3.rotationY(rng.float(-4...4))
            let offset = trial % 4 == 0 ? SIMD3<Float>(500, -20, 300) : .zero
            var points = (0..<n).map { _ in offset + turn * (rng.vector(-1...1) * stretch) }
            // Make sure there is height.
            points[0].y += 0.5
            try Self.checkUpright(points)
        }
    }

    @Test("upright fit on ties: regular polygons, integer grids and duplicated points", arguments: 3...12)
    func uprightTies(sides: Int) throws {
        var rng = SplitMix64(seed: 84 &+ UInt64(sides))
        for _ in 0..<20 {
            let radius = rng.double(0.2...5), phase = rng.double(0...(2 * .pi))
            var points = (0..<sides).map { k -> SIMD3<Float> in
                let a = phase + 2 * .pi * Double(k) / Double(sides)
                return SIMD3<Float>(Float(radius * cos(a)), Float(k % 2), Float(radius * sin(a)))
            }
            points += points  // every point twice
            try Self.checkUpright(points)
        }
        // An integer grid of sides x sides (many collinear hull points).
        var grid = [SIMD3<Float>]()
        for i in 0..<sides { for j in 0..<sides { grid.append(SIMD3(Float(i), Float((i + j) % 3), Float(j))) } }
        try Self.checkUpright(grid)
        // A grid sheared into a parallelogram.
        try Self.checkUpright(grid.map { SIMD3($0.x + 0.5 * $0.z, $0.y, $0.z) })
    }

    @Test("upright fit on larger clouds (200 points) matches the brute force")
    func uprightLarger() throws {
        var rng = SplitMix64(seed: 85)
        for _ in 0..<5 {
            let turn = Matrix3.rotationY(rng.float(0...6))
            let points = (0..<200).map { _ -> SIMD3<Float> in
                // An ellipse-ish blob: rejection sample a disc, then stretch.
                var v: SIMD3<Float>
                repeat { v = rng.vector(-1...1) } while v.x * v.x + v.z * v.z > 1
                return turn * (v * SIMD3(3, 1, 1))
            }
            try Self.checkUpright(points)
        }
    }

    @Test("upright fit refuses flat, collinear, too few and non-finite point sets")
    func uprightDegenerate() throws {
        let flat = [SIMD3<Float>(0, 1, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 1), SIMD3(1, 1, 1)]
        let collinear = (0..<6).map { SIMD3<Float>(Float($0), Float($0 % 2), 2 * Float($0)) }
        let vertical = (0..<4).map { SIMD3<Float>(1, Float($0), 2) }
        let two = [SIMD3<Float>(0, 0, 0), SIMD3(1, 1, 1)]
        let one = [SIMD3<Float>(0, 0, 0)]
        for (points, fragment) in [(flat, "height"), (collinear, "area"), (vertical, "area"), (two, "area"), (one, "")] {
            try withPoints(points) { buffer in
                expectError(.degenerate, containing: fragment.isEmpty ? [] : [fragment]) { () throws(FathomError) in
                    _ = try Box.fitUpright(buffer)
                }
            }
        }
        for bad: Float in [.nan, .infinity] {
            let points = [SIMD3<Float>(0, 0, 0), SIMD3(1, 1, 0), SIMD3(bad, 0, 1), SIMD3(1, 0, 1)]
            try withPoints(points) { buffer in
                expectError(.notFinite, containing: ["[2]"]) { () throws(FathomError) in _ = try Box.fitUpright(buffer) }
            }
        }
    }
}
