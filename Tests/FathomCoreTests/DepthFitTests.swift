// Depth back-projection, fits and mask endpoints against independent computations: the conventions.md
// formula evaluated in Double per sample, fits of point sets built around a known line or plane with
// symmetric offsets (so the exact answer is known by construction), and masks drawn by hand.
import FathomCore
import Glibc
import Testing

/// Runs `body` with a packed double buffer of `points` (dimensions 2 or 3).
func withPoints<R>(_ points: [SIMD3<Double>], dimensions: Int = 3, _ body: (FitPoints) throws -> R) throws -> R {
    let flat = points.flatMap { dimensions == 3 ? [$0.x, $0.y, $0.z] : [$0.x, $0.y] }
    return try flat.withUnsafeBufferPointer {
        try body(FitPoints(base: $0.baseAddress!, count: points.count, strideBytes: 0, dimensions: dimensions))
    }
}

@Suite("Depth back-projection")
struct DepthBackprojectionTests {
    @Test("every valid sample, in all three frames, matches the Double formula; invalid samples are skipped")
    func formula() throws {
        var rng = SplitMix64(seed: 7)
        let (w, h) = (40, 30)
        var depth = (0..<(w * h)).map { _ in rng.float(0.3...4) }
        let invalid: [Float] = [0, -1, .nan, .infinity, 5.5]  // 5.5 is beyond max_depth
        for (n, value) in invalid.enumerated() { depth[n * 97] = value }
        let rgb = try Intrinsics(fx: 600, fy: 590, cx: 321, cy: 238, width: 640, height: 480)
        let pose = try Pose(rotation: Quaternion(axis: SIMD3(0.2, 1, 0.1), angle: 0.7), translation: SIMD3(1, 2, 3))
        try depth.withUnsafeBytes { raw in
            let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: w, height: h, maxDepth: 5, rgb: rgb, pose: pose)
            let selection = DepthSelection.all(frame)
            #expect(frame.validCount(selection) == w * h - invalid.count)
            for target in [PointFrame.optical, .camera, .world] {
                var points = [Float](repeating: 0, count: 3 * w * h)
                var pixels = [UInt32](repeating: 0, count: 2 * w * h)
                let count = frame.backproject(selection, to: target, points: &points, pixels: &pixels, normals: nil, capacity: w * h)
                #expect(count == w * h - invalid.count)
                let fx = 600.0 * Double(w) / 640, fy = 590.0 * Double(h) / 480, cx = 321.0 * Double(w) / 640, cy = 238.0 * Double(h) / 480
                for k in 0..<count {
                    let i = Int(pixels[2 * k]), j = Int(pixels[2 * k + 1]), d = Double(depth[j * w + i])
                    let optical = SIMD3((Double(i) + 0.5 - cx) / fx * d, (Double(j) + 0.5 - cy) / fy * d, d)
                    let camera = SIMD3(optical.x, -optical.y, -optical.z)
                    let expected = switch target {
                    case .optical: optical
                    case .camera: camera
                    case .world: DMatrix3(pose.rotation) * camera + SIMD3<Double>(pose.translation)
                    }
                    let got = SIMD3(points[3 * k], points[3 * k + 1], points[3 * k + 2])
                    #expect(close(got, expected, 1e-5 * (1 + length(expected))), "sample (\(i), \(j)) in \(target)")
                }
            }
        }
    }

    @Test("a mask of another resolution selects by the sample centre: floor((i + 0.5) * mask_w / w)")
    func maskMapping() throws {
        let depth = [Float](repeating: 1, count: 4 * 2)
        let mask: [UInt8] = [0, 1, 1, 0, 0, 0,  // 6x1: depth column i maps to mask column floor((2i + 1) * 6 / 8)
                             ]
        let rgb = try Intrinsics(fx: 10, fy: 10, cx: 2, cy: 1, width: 4, height: 2)
        try depth.withUnsafeBytes { raw in
            try mask.withUnsafeBufferPointer { m in
                let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: 4, height: 2, rgb: rgb)
                let selection = DepthSelection(x0: 0, y0: 0, x1: 4, y1: 2, step: 1, mask: try Mask(base: m.baseAddress!, width: 6, height: 1))
                // Columns map to mask columns 0, 2, 3, 5: only column 1 (mask column 2) is inside, in both rows.
                var pixels = [UInt32](repeating: 0, count: 8)
                #expect(frame.backproject(selection, to: .optical, points: nil, pixels: &pixels, normals: nil, capacity: 4) == 2)
                #expect(Array(pixels[0..<4]) == [1, 0, 1, 1])
            }
        }
    }
}

@Suite("Line and plane fits")
struct LinePlaneFitTests {
    /// Points p0 + t e +- s n for t in -2...2: the line p0 + t e is the exact fit, with residual s.
    static func symmetricLine(_ p0: SIMD3<Double>, _ e: SIMD3<Double>, _ n: SIMD3<Double>, _ s: Double) -> [SIMD3<Double>] {
        (-2...2).flatMap { t -> [SIMD3<Double>] in
            let onLine: SIMD3<Double> = p0 + Double(t) * e
            return [onLine + s * n, onLine - s * n]
        }
    }

    @Test("3D total least squares: centroid, direction, residuals and extent of a symmetric set")
    func line3() throws {
        let e = SIMD3(2.0, -1, 2) / 3, n = SIMD3(1.0, 2, 0) / 5.0.squareRoot()
        let fit = try withPoints(Self.symmetricLine(SIMD3(10, -4, 7), e, n, 0.01)) { try LineFit.fit3D($0) }
        #expect(length(fit.point - SIMD3(10, -4, 7)) < 1e-12)
        #expect(length(fit.direction - e) < 1e-12)  // sign: largest component (2/3, first) positive
        #expect(abs(fit.rms - 0.01) < 1e-12 && abs(fit.maxResidual - 0.01) < 1e-12)
        #expect(abs(fit.tMin + 2) < 1e-12 && abs(fit.tMax - 2) < 1e-12 && fit.used == 10)
    }

    @Test("2D ordinary least squares: y = 2x + 1 with symmetric vertical offsets; total least squares with perpendicular ones")
    func line2() throws {
        let points = (0...4).flatMap { x -> [SIMD3<Double>] in
            let y: Double = 2 * Double(x) + 1
            return [SIMD3(Double(x), y + 0.1, 0), SIMD3(Double(x), y - 0.1, 0)]
        }
        let ordinary = try withPoints(points, dimensions: 2) { try LineFit.fit2D($0, method: .ordinary) }
        #expect(abs(ordinary.direction.y / ordinary.direction.x - 2) < 1e-12)
        let intercept: Double = ordinary.point.y - 2 * ordinary.point.x
        #expect(abs(intercept - 1) < 1e-12)
        #expect(abs(ordinary.rms - 0.1) < 1e-12 && ordinary.point.z == 0 && ordinary.direction.z == 0)
        // Total least squares: offsets +-0.1 perpendicular to the line (along (-2, 1) / sqrt 5) leave it exact.
        let normal = SIMD3(-2.0, 1, 0) / 5.0.squareRoot()
        let perpendicular = (0...4).flatMap { x -> [SIMD3<Double>] in
            let onLine = SIMD3(Double(x), 2 * Double(x) + 1, 0)
            return [onLine + 0.1 * normal, onLine - 0.1 * normal]
        }
        let total = try withPoints(perpendicular, dimensions: 2) { try LineFit.fit2D($0, method: .total) }
        #expect(length(total.direction - SIMD3(1, 2, 0) / 5.0.squareRoot()) < 1e-12)
        #expect(abs(total.rms - 0.1) < 1e-12 && abs(total.maxResidual - 0.1) < 1e-12)
    }

    @Test("plane fit of a symmetric set, and RANSAC through 40% outliers, reproducible for a seed")
    func plane() throws {
        let normal = SIMD3(1.0, 2, 2) / 3, u = SIMD3(2.0, -1, 0) / 5.0.squareRoot(), v = cross(normal, u)
        var points: [SIMD3<Double>] = []
        for a in -3...3 {
            for b in -3...3 {
                let inPlane: SIMD3<Double> = SIMD3(1, 1, 1) + Double(a) * u + Double(b) * v
                points.append(inPlane + 0.002 * normal)
                points.append(inPlane - 0.002 * normal)
            }
        }
        let fit = try withPoints(points) { try PlaneFit.fit($0) }
        #expect(length(fit.normal - normal) < 1e-12 && length(fit.point - SIMD3(1, 1, 1)) < 1e-12)
        #expect(abs(fit.rms - 0.002) < 1e-12)
        var rng = SplitMix64(seed: 3)
        let outliers = (0..<(points.count * 2 / 3)).map { _ in SIMD3<Double>(rng.vector(-3...3)) }
        let options = try RansacOptions(threshold: 0.005, iterations: 200, seed: 11, confidence: 1)
        let first = try withPoints(points + outliers) { try PlaneFit.ransac($0, options) }
        let second = try withPoints(points + outliers) { try PlaneFit.ransac($0, options) }
        #expect(first == second)
        #expect(length(first.normal - normal) < 1e-3 && first.used >= points.count)
    }

    @Test("RANSAC lines, 2D and 3D: the line through the inliers, the inlier mask, the outliers left out")
    func ransacLines() throws {
        // 2D: 40 points on y = 0.5 x - 1 (x = 0, 0.1, ..., 3.9), then 20 at least 0.5 off it vertically (so at least
        // 0.5 / sqrt(1.25) = 0.447 away, far beyond the 0.01 threshold). The refit is the exact line: direction
        // (2, 1) / sqrt(5), centroid (1.95, -0.025), extent 3.9 sqrt(1.25) along it.
        var rng = SplitMix64(seed: 21)
        var points = (0..<40).map { k -> SIMD3<Double> in let x = 0.1 * Double(k); return SIMD3(x, 0.5 * x - 1, 0) }
        for k in 0..<20 {
            let x = rng.double(0...4), off = rng.double(0.5...2.5)
            points.append(SIMD3(x, 0.5 * x - 1 + (k % 2 == 0 ? off : -off), 0))
        }
        let options = try RansacOptions(threshold: 0.01, iterations: 200, seed: 42, confidence: 1)
        var mask = [UInt8](repeating: 9, count: points.count)
        let line = try withPoints(points, dimensions: 2) { p in try mask.withUnsafeMutableBufferPointer { try LineFit.ransac(p, options, inliers: $0.baseAddress) } }
        #expect(line.used == 40 && mask == (0..<60).map { $0 < 40 ? 1 : 0 })
        #expect(length(line.direction - SIMD3(2, 1, 0) / 5.0.squareRoot()) < 1e-9)
        #expect(length(line.point - SIMD3(1.95, -0.025, 0)) < 1e-9 && abs(line.tMax - line.tMin - 3.9 * 1.25.squareRoot()) < 1e-9)
        // The same seed gives the same fit; other seeds find the same line (a random pair lies on it with probability
        // (40 * 39) / (60 * 59) = 0.44, so 200 tries miss it with probability 4e-51).
        let again = try withPoints(points, dimensions: 2) { try LineFit.ransac($0, options, inliers: nil) }
        #expect(again == line)
        for seed: UInt64 in [0, 7, 12345] {
            let seeded = try RansacOptions(threshold: 0.01, iterations: 200, seed: seed, confidence: 1)
            let other = try withPoints(points, dimensions: 2) { try LineFit.ransac($0, seeded, inliers: nil) }
            #expect(other.used == 40 && length(other.direction - SIMD3(2, 1, 0) / 5.0.squareRoot()) < 1e-9, "seed \(seed)")
        }

        // 3D: 30 points on the line through (1, -1, 2) along e = (1, -2, 2.5) / |.|, then 30 at 0.3 to 0.5 from it
        // (a unit vector perpendicular to e, scaled): the fit recovers e (largest component, z, positive).
        let e = SIMD3(1.0, -2, 2.5) / length(SIMD3(1.0, -2, 2.5))
        let n1 = SIMD3(2.0, 1, 0) / 5.0.squareRoot(), n2 = cross(e, n1)
        var points3 = (0..<30).map { k in SIMD3(1.0, -1, 2) + (Double(k) * 0.1 - 1.5) * e }
        for k in 0..<30 {
            let angle = rng.double(0...(2 * .pi)), r = rng.double(0.3...0.5)
            points3.append(SIMD3(1.0, -1, 2) + (Double(k) * 0.1 - 1.5) * e + r * (cos(angle) * n1 + sin(angle) * n2))
        }
        var mask3 = [UInt8](repeating: 9, count: points3.count)
        let line3 = try withPoints(points3) { p in try mask3.withUnsafeMutableBufferPointer { try LineFit.ransac(p, options, inliers: $0.baseAddress) } }
        #expect(line3.used == 30 && mask3 == (0..<60).map { $0 < 30 ? 1 : 0 })
        #expect(length(line3.direction - e) < 1e-9)
    }

    @Test("degenerate input is an error, never a NaN")
    func degenerate() throws {
        func kind(_ body: () throws -> Any) -> FathomError.Kind? {
            do { _ = try body(); return nil } catch { return (error as? FathomError)?.kind }
        }
        #expect(kind { try withPoints([SIMD3<Double>](repeating: SIMD3(1, 2, 3), count: 5)) { try LineFit.fit3D($0) } } == .degenerate)
        #expect(kind { try withPoints((0..<5).map { SIMD3(Double($0), 2 * Double($0), 0) }) { try PlaneFit.fit($0) } } == .degenerate)
        #expect(kind { try withPoints((0..<5).map { SIMD3(1, Double($0), 0) }, dimensions: 2) { try LineFit.fit2D($0, method: .ordinary) } } == .degenerate)
        #expect(kind { try withPoints([SIMD3(0, 0, 0)]) { try LineFit.fit3D($0) } } == .degenerate)
        #expect(kind { try withPoints([SIMD3(0, .nan, 0), SIMD3(1, 1, 1)]) { try LineFit.fit3D($0) } } == .notFinite)
    }
}

@Suite("Mask endpoints")
struct MaskEndpointTests {
    @Test("a diagonal bar: axis along (1, 1), ends at its two extreme pixel centres")
    func diagonal() throws {
        var mask = [UInt8](repeating: 0, count: 10 * 10)
        for i in 1..<9 { mask[i * 10 + i] = 1; mask[i * 10 + i - 1] = 1 }
        let ends = try mask.withUnsafeBufferPointer { try Mask(base: $0.baseAddress!, width: 10, height: 10).endpoints() }
        // Pixel centres (i + 0.5, i + 0.5) and (i - 0.5, i + 0.5), i = 1...8: covariance [[v + 1/4, v], [v, v]] with
        // v = 5.25 (the variance of 1...8), whose principal axis is at 1/2 atan2(2v, 1/4) from x.
        let angle = 0.5 * atan2(10.5, 0.25)
        #expect(length(ends.axis.direction - SIMD3(cos(angle), sin(angle), 0)) < 1e-9)
        // The least projection is pixel (0, 1), left of (1, 1); the largest (8, 8).
        #expect(ends.end0 == SIMD2(0.5, 1.5) && ends.end1 == SIMD2(8.5, 8.5))
    }
}
