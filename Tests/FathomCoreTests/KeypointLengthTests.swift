// Keypoint and polyline lengths with their error bars, against hand-derived values and the header's uncertainty model
// evaluated independently here in Double (the checks Tests/c/test_length.c made across the C ABI with its own K^-1 and
// sigma arithmetic, made here once against the core). The model (fathom.h, fathom_length; LengthOptions.swift), to
// first order: keypoint (u, v) with depth d is P = d r, r = ((u - cx) / fx, (v - cy) / fy, 1) with the RGB
// intrinsics; it moves per pixel of u by (d / fx, 0, 0) + r g_u (g_u: the surface's depth change per RGB pixel) and
// per pixel of v by (0, d / fy, 0) + r g_v, each with pixel_noise; and along r with its depth's noise s:
// depth_noise * d^growth for a nearest sample (with the depth change across its cell, g^2 / 12 per grid axis, added
// in quadrature), times sqrt(pi / 2n) for the median of n samples, 0 on a plane. With e = (P_head - P_tail) / L,
// sigma^2 = sum over the two ends of (e . dP/du)^2 p^2 + (e . dP/dv)^2 p^2 + (e . r)^2 s^2, plus, for plane keypoints,
// the plane's offset and tilt terms shared by both ends: (q_h - q_t)^2 rms^2 / n and, about each in-plane principal
// axis a with spread (variance) v_a, (q_h (P_h - c) . a - q_t (P_t - c) . a)^2 rms^2 / (n v_a), with q = e . r / (N . r)
// (N the plane's normal, c its centroid, n its inliers). The mask and midline lengths' error bars are not checked here.
import FathomCore
import Glibc
import Testing

/// RGB 640 x 480 with fx 500, fy 400 (unequal, so a swapped axis shows), cx 320, cy 240; the depth grid is a quarter
/// of it, 160 x 120 (fx' 125, fy' 100, cx' 80, cy' 60: the principal point at the grid's centre).
private let (gridW, gridH) = (160, 120)
private func rgb() throws -> Intrinsics { try Intrinsics(fx: 500, fy: 400, cx: 320, cy: 240, width: 640, height: 480) }

@discardableResult
private func withFrame<R>(_ depth: [Float], width: Int = gridW, height: Int = gridH, k: Intrinsics? = nil, pose: Pose? = nil,
                          _ body: (DepthFrame, Mask) throws -> R) throws -> R {
    let everywhere = [UInt8](repeating: 1, count: width * height)
    let k = try k ?? rgb()
    return try depth.withUnsafeBytes { raw in
        try everywhere.withUnsafeBufferPointer { m in
            let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: width, height: height, rgb: k, pose: pose)
            return try body(frame, try Mask(base: m.baseAddress!, width: width, height: height))
        }
    }
}

private func options(_ method: KeypointDepth, frame: PointFrame = .optical, pixelNoise: Double = 1) -> LengthOptions {
    var o = LengthOptions()
    o.keypointDepth = method
    o.frame = frame
    o.pixelNoise = pixelNoise
    return o
}

/// One keypoint of the model: its point, its moves per RGB pixel of u and v, its ray and its depth noise.
private struct ModelPoint {
    var p: SIMD3<Double>, du: SIMD3<Double>, dv: SIMD3<Double>, ray: SIMD3<Double>, s: Double
    /// At RGB pixel (u, v), depth d, the surface's depth change g (meters per RGB pixel along u and v), depth noise s.
    init(_ u: Double, _ v: Double, depth d: Double, gradient g: SIMD2<Double> = .zero, noise s: Double) {
        ray = SIMD3((u - 320) / 500, (v - 240) / 400, 1)
        p = d * ray
        du = SIMD3(d / 500, 0, 0) + ray * g.x
        dv = SIMD3(0, d / 400, 0) + ray * g.y
        self.s = s
    }
    func variance(along e: SIMD3<Double>, pixelNoise: Double = 1) -> Double {
        let a = (e * du).sum() * pixelNoise, b = (e * dv).sum() * pixelNoise, c = (e * ray).sum() * s
        return a * a + b * b + c * c
    }
}

/// Length and sigma of the model for two ends (no plane terms).
private func model(_ h: ModelPoint, _ t: ModelPoint, pixelNoise: Double = 1) -> (length: Double, sigma: Double) {
    let offset = h.p - t.p, l = length(offset), e = offset / l
    return (l, (h.variance(along: e, pixelNoise: pixelNoise) + t.variance(along: e, pixelNoise: pixelNoise)).squareRoot())
}

private func relative(_ a: Double, _ b: Double) -> Double { abs(a - b) / abs(b) }

/// depth_noise 0.005 m at 1 m, growing as d^2 (the defaults).
private func noise(_ d: Double) -> Double { 0.005 * d * d }

@Suite("Keypoint and polyline lengths with their error bars (hand values, the header's model)")
struct KeypointLengthTests {
    @Test("depth-and-fish.md: two keypoints at equal depth are their back-projected distance K^-1 [u, v, 1] d apart")
    func fishCheckValue() throws {
        // K^-1 = [[7.0161547e-4, 0, -0.67513853], [0, 7.0161547e-4, -0.5045314], [0, 0, 1]] of a 1920 x 1440 image, a
        // 256 x 192 depth map at 0.8 m; keypoints (500, 700) and (1400, 760): L = 0.8 * 7.0161547e-4 * |(900, 60)|.
        let kinv = 7.0161547e-4, kx = -0.67513853, ky = -0.5045314
        let k = try Intrinsics(fx: Float(1 / kinv), fy: Float(1 / kinv), cx: Float(-kx / kinv), cy: Float(-ky / kinv),
                               width: 1920, height: 1440)
        try withFrame([Float](repeating: 0.8, count: 256 * 192), width: 256, height: 192, k: k) { f, _ in
            let r = try f.measure(head: SIMD2(500, 700), tail: SIMD2(1400, 760), mask: nil, options: options(.nearest))
            let head = SIMD3(kinv * 500 + kx, kinv * 700 + ky, 1) * 0.8, tail = SIMD3(kinv * 1400 + kx, kinv * 760 + ky, 1) * 0.8
            #expect(abs(r.length - 0.8 * kinv * (900.0 * 900 + 60 * 60).squareRoot()) < 2e-6, "\(r.length)")
            #expect(length(r.head - head) < 2e-6 && length(r.tail - tail) < 2e-6, "\(r)")
            #expect(r.headPixel == SIMD2(500, 700) && r.tailPixel == SIMD2(1400, 760) && r.samples == 2 && r.rms == 0)
            // The camera frame: (x, -y, -z). Swapping head and tail swaps the ends, not the length.
            let camera = try f.measure(head: SIMD2(500, 700), tail: SIMD2(1400, 760), mask: nil,
                                       options: options(.nearest, frame: .camera))
            #expect(length(camera.head - SIMD3(head.x, -head.y, -head.z)) < 2e-6 && camera.length == r.length)
            let swapped = try f.measure(head: SIMD2(1400, 760), tail: SIMD2(500, 700), mask: nil, options: options(.nearest))
            #expect(length(swapped.head - tail) < 2e-6 && abs(swapped.length - r.length) < 1e-12)
        }
    }

    @Test("a wall at 1.5 m, nearest and median: the length by hand, sigma by the model and in closed form")
    func wall() throws {
        try withFrame([Float](repeating: 1.5, count: gridW * gridH)) { f, _ in
            // Head and tail 200 pixels either side of the principal point on its row: L = 2 * 200 / 500 * 1.5 = 1.2 m.
            // e = (-1, 0, 0): each end moves 1.5 / 500 = 0.003 m per pixel of u and none along e per pixel of v; along its
            // ray its depth noise 0.005 * 1.5^2 = 0.01125 m counts by e . r = 0.4. Nearest:
            // sigma^2 = 2 (0.003^2 + 0.4^2 0.01125^2) = 5.85e-5, sigma = 0.0076485.
            var r = try f.measure(head: SIMD2(120, 240), tail: SIMD2(520, 240), mask: nil, options: options(.nearest))
            #expect(abs(r.length - 1.2) < 1e-6 && relative(r.sigma, (5.85e-5).squareRoot()) < 1e-6, "\(r)")
            #expect(r.samples == 2 && r.rms == 0)
            // The median of 25 readings: the depth noise times sqrt(pi / 50) = 0.250663: sigma^2 = 2 (0.003^2 +
            // 0.4^2 (0.01125 * 0.250663)^2) = 2.05447e-5, sigma = 0.0045326; 50 samples.
            r = try f.measure(head: SIMD2(120, 240), tail: SIMD2(520, 240), mask: nil, options: options(.median))
            let medianNoise = 0.01125 * (Double.pi / 50).squareRoot()
            #expect(abs(r.length - 1.2) < 1e-6, "\(r)")
            #expect(relative(r.sigma, (2 * (9e-6 + 0.16 * medianNoise * medianNoise)).squareRoot()) < 1e-6, "\(r)")
            #expect(abs(r.sigma - 0.0045326) < 1e-7 && r.samples == 50)

            // Any two keypoints (a diagonal, so fy and v count too) against the model evaluated here; and the noise
            // settings reach their terms: pixel_noise 2, depth noise 0.01 at 1 m growing as d^1.
            let (head, tail) = (SIMD2<Float>(100, 400), SIMD2<Float>(450, 90))
            for method in [KeypointDepth.nearest, .median] {
                let averaging = method == .median ? (Double.pi / 50).squareRoot() : 1
                r = try f.measure(head: head, tail: tail, mask: nil, options: options(method))
                var want = model(ModelPoint(100, 400, depth: 1.5, noise: noise(1.5) * averaging),
                                 ModelPoint(450, 90, depth: 1.5, noise: noise(1.5) * averaging))
                #expect(relative(r.length, want.length) < 1e-6 && relative(r.sigma, want.sigma) < 1e-6, "\(method): \(r) vs \(want)")
                var o = options(method, pixelNoise: 2)
                (o.depthNoise, o.depthNoiseGrowth) = (0.01, 1)
                r = try f.measure(head: head, tail: tail, mask: nil, options: o)
                want = model(ModelPoint(100, 400, depth: 1.5, noise: 0.015 * averaging),
                             ModelPoint(450, 90, depth: 1.5, noise: 0.015 * averaging), pixelNoise: 2)
                #expect(relative(r.sigma, want.sigma) < 1e-6, "\(method), other noise: \(r.sigma) vs \(want.sigma)")
            }
        }
    }

    @Test("a depth ramp: the median moves its readings to the keypoint along the gradient; nearest adds its cell's change")
    func ramp() throws {
        // A 160 x 160 grid (a quarter of the RGB width but a third of its height: the gradient per RGB pixel of u must use
        // the width's factor), d(i, j) = 1 + i / 64 (exact in Float): 1/64 m per depth sample along x, 1/256 m per RGB
        // pixel of u, none along y.
        let depth = (0..<(gridW * 160)).map { 1 + Float($0 % gridW) / 64 }
        try withFrame(depth, height: 160) { f, _ in
            // RGB u = 101, 451 -> grid x = 25.25, 112.75 (samples 25 and 112), on rows v = 300, 200 (y = 100, 66.7).
            // Median: every reading moved to the keypoint is 1 + (x - 0.5) / 64 (the ramp at x, sample centres at i + 0.5):
            // 1.38671875 and 2.75390625, with noise(d) sqrt(pi / 50).
            let g = SIMD2(1.0 / 256, 0)
            var r = try f.measure(head: SIMD2(101, 300), tail: SIMD2(451, 200), mask: nil, options: options(.median))
            let dh = 1 + 24.75 / 64, dt = 1 + 112.25 / 64
            var want = model(ModelPoint(101, 300, depth: dh, gradient: g, noise: noise(dh) * (Double.pi / 50).squareRoot()),
                             ModelPoint(451, 200, depth: dt, gradient: g, noise: noise(dt) * (Double.pi / 50).squareRoot()))
            #expect(abs(r.head.z - dh) < 1e-6 && abs(r.tail.z - dt) < 1e-6, "\(r.head.z), \(r.tail.z)")
            #expect(relative(r.length, want.length) < 1e-6 && relative(r.sigma, want.sigma) < 1e-6, "\(r) vs \(want)")
            // Nearest: the sample's own depth, 1 + 25 / 64 and 1 + 112 / 64, with sqrt(noise^2 + (1/64)^2 / 12).
            r = try f.measure(head: SIMD2(101, 300), tail: SIMD2(451, 200), mask: nil, options: options(.nearest))
            let nh = 1 + 25.0 / 64, nt = 1 + 112.0 / 64
            func cell(_ d: Double) -> Double { (noise(d) * noise(d) + 1.0 / (64 * 64 * 12)).squareRoot() }
            want = model(ModelPoint(101, 300, depth: nh, gradient: g, noise: cell(nh)),
                         ModelPoint(451, 200, depth: nt, gradient: g, noise: cell(nt)))
            #expect(abs(r.head.z - nh) < 1e-6 && abs(r.tail.z - nt) < 1e-6, "\(r.head.z), \(r.tail.z)")
            #expect(relative(r.length, want.length) < 1e-6 && relative(r.sigma, want.sigma) < 1e-6, "\(r) vs \(want)")
        }
    }

    @Test("plane keypoints on an exact wall and an exact tilted plane: the rays meet it; pixel terms only")
    func exactPlanes() throws {
        // A wall at 1.5 m: the same ends as in `wall`, depth from the plane: L = 1.2, sigma^2 = 2 * 0.003^2 (no depth noise
        // of its own, and the plane's terms vanish with its RMS of 0), on all 19200 samples.
        try withFrame([Float](repeating: 1.5, count: gridW * gridH)) { f, mask in
            let r = try f.measure(head: SIMD2(120, 240), tail: SIMD2(520, 240), mask: mask, options: options(.plane))
            #expect(abs(r.length - 1.2) < 1e-6 && relative(r.sigma, 0.003 * 2.0.squareRoot()) < 1e-6 && r.rms < 1e-7, "\(r)")
            #expect(r.samples == gridW * gridH)
            // Without a mask there is no plane.
            expectError(.invalidState, containing: ["mask"]) { () throws(FathomError) in
                _ = try f.measure(head: SIMD2(120, 240), tail: SIMD2(520, 240), mask: nil, options: options(.plane))
            }
        }
        // The plane Z = 1.2 + 0.3 X (optical): along ray r the depth is 1.2 / (1 - 0.3 r.x), on every sample and at the
        // keypoints, whose moves per pixel of u follow the plane: d(u) r(u) differentiated, with d'(u) = 0.36 / 500 /
        // (1 - 0.3 r.x)^2.
        func planeDepth(_ rx: Double) -> Double { 1.2 / (1 - 0.3 * rx) }
        var depth = (0..<(gridW * gridH)).map { n in Float(planeDepth((Double(n % gridW) + 0.5 - 80) / 125)) }
        func keypoint(_ u: Double, _ v: Double) -> ModelPoint {
            let rx = (u - 320) / 500
            let slope = 0.36 / 500 / ((1 - 0.3 * rx) * (1 - 0.3 * rx))  // d'(u), meters per pixel
            return ModelPoint(u, v, depth: planeDepth(rx), gradient: SIMD2(slope, 0), noise: 0)
        }
        let want = model(keypoint(90, 100), keypoint(560, 410))
        try withFrame(depth) { f, mask in
            let r = try f.measure(head: SIMD2(90, 100), tail: SIMD2(560, 410), mask: mask, options: options(.plane))
            #expect(relative(r.length, want.length) < 1e-6 && relative(r.sigma, want.sigma) < 1e-5, "\(r) vs \(want)")
            #expect(r.samples == gridW * gridH && r.rms < 1e-6)
        }
        // Twelve samples pushed 0.1 m back (flying pixels at an outline) are outside the plane's threshold: the same
        // length from the other 19188.
        for n in stride(from: 97, to: 97 * 13, by: 97) { depth[n] += 0.1 }
        try withFrame(depth) { f, mask in
            let r = try f.measure(head: SIMD2(90, 100), tail: SIMD2(560, 410), mask: mask, options: options(.plane))
            #expect(relative(r.length, want.length) < 1e-6 && r.samples == gridW * gridH - 12, "\(r)")
        }
    }

    @Test("plane keypoints on a wall with alternating depth: the plane's offset and tilt terms")
    func planeTerms() throws {
        // Depth 1 +- h, h = 2^-8, alternating like a checkerboard: the optical points lie on Z = 1 + h and Z = 1 - h
        // (Z is the depth), evenly, and symmetric about the grid's centre, so the fit is the plane Z = 1 (normal
        // (0, 0, 1), centroid (0, 0, 1), every sample an inlier of the 3 * noise(1) = 0.015 m threshold) with RMS h.
        // Keypoints meet it at P = r; q = e . r / (N . r) = e . r. With pixel_noise 0 only the plane's terms remain:
        // (q_h - q_t)^2 h^2 / n + h^2 / n * w^T C^-1 w, w = q_h (P_h - c) - q_t (P_t - c) in the plane and C the inliers'
        // 2 x 2 in-plane covariance (the tilt terms summed over its principal axes), computed here from the samples.
        // (The checkerboard's x-y correlation tilts those axes slightly off x and y; w^T C^-1 w does not depend on them.)
        let h = 1.0 / 256
        let depth = (0..<(gridW * gridH)).map { n in Float((n % gridW + n / gridW) % 2 == 0 ? 1 + h : 1 - h) }
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for n in 0..<(gridW * gridH) {
            let d = Double(depth[n])
            let x = (Double(n % gridW) + 0.5 - 80) / 125 * d, y = (Double(n / gridW) + 0.5 - 60) / 100 * d
            sxx += x * x; syy += y * y; sxy += x * y
        }
        let count = Double(gridW * gridH)
        let (cxx, cyy, cxy) = (sxx / count, syy / count, sxy / count)  // the means of x and y are 0 by symmetry
        try withFrame(depth) { f, mask in
            for (head, tail) in [(SIMD2<Float>(120, 240), SIMD2<Float>(520, 240)), (SIMD2<Float>(90, 100), SIMD2<Float>(560, 410))] {
                let rh = SIMD3((Double(head.x) - 320) / 500, (Double(head.y) - 240) / 400, 1.0)
                let rt = SIMD3((Double(tail.x) - 320) / 500, (Double(tail.y) - 240) / 400, 1.0)
                let l = length(rh - rt), e = (rh - rt) / l
                let qh = (e * rh).sum(), qt = (e * rt).sum()
                let w = SIMD2(qh * rh.x - qt * rt.x, qh * rh.y - qt * rt.y)
                let det = cxx * cyy - cxy * cxy
                let quadratic = (w.x * w.x * cyy - 2 * w.x * w.y * cxy + w.y * w.y * cxx) / det  // w^T C^-1 w
                let planeVariance = (qh - qt) * (qh - qt) * h * h / count + h * h / count * quadratic
                let r = try f.measure(head: head, tail: tail, mask: mask, options: options(.plane, pixelNoise: 0))
                #expect(abs(r.rms - h) < 1e-8 && r.samples == gridW * gridH, "\(r)")
                #expect(relative(r.length, l) < 1e-6, "\(r)")
                #expect(relative(r.sigma, planeVariance.squareRoot()) < 1e-5, "\(r.sigma) vs \(planeVariance.squareRoot())")
                // With pixel noise 1 the pixel terms (2 * 0.003^2 ... at 1 m: (1 / 500)^2 and (1 / 400)^2 along e) add in.
                let pixels = model(ModelPoint(Double(head.x), Double(head.y), depth: 1, noise: 0),
                                   ModelPoint(Double(tail.x), Double(tail.y), depth: 1, noise: 0))
                let both = try f.measure(head: head, tail: tail, mask: mask, options: options(.plane))
                #expect(relative(both.sigma, (pixels.sigma * pixels.sigma + planeVariance).squareRoot()) < 1e-6, "\(both.sigma)")
            }
        }
    }

    @Test("the endpoints in the world frame: R (x, -y, -z) + t")
    func worldFrame() throws {
        // R_y(90 degrees) maps camera (x, y, z) to world (z, y, -x); t = (3, 1.5, -2). A camera-frame point (X, -Y, -Z) of
        // the optical (X, Y, Z) is then world (-Z + 3, -Y + 1.5, -X - 2).
        let pose = Pose(rotation: Matrix3(SIMD3(0, 0, -1), SIMD3(0, 1, 0), SIMD3(1, 0, 0)), translation: SIMD3(3, 1.5, -2))
        try withFrame([Float](repeating: 1.5, count: gridW * gridH), pose: pose) { f, _ in
            let r = try f.measure(head: SIMD2(120, 240), tail: SIMD2(520, 240), mask: nil, options: options(.nearest, frame: .world))
            // Optical head (-0.6, 0, 1.5), tail (0.6, 0, 1.5).
            #expect(length(r.head - SIMD3(-1.5 + 3, 1.5, 0.6 - 2)) < 1e-6, "\(r.head)")
            #expect(length(r.tail - SIMD3(-1.5 + 3, 1.5, -0.6 - 2)) < 1e-6, "\(r.tail)")
            #expect(abs(r.length - 1.2) < 1e-6)
        }
        try withFrame([Float](repeating: 1.5, count: gridW * gridH)) { f, _ in
            expectError(.invalidState, containing: ["pose"]) { () throws(FathomError) in
                _ = try f.measure(head: SIMD2(120, 240), tail: SIMD2(520, 240), mask: nil, options: options(.nearest, frame: .world))
            }
        }
    }

    @Test("no depth, outside the image, the same pixel; adjacent pixels that round to one point are degenerate")
    func errors() throws {
        var depth = [Float](repeating: 1.5, count: gridW * gridH)
        depth[60 * gridW + 130] = .nan  // the tail's sample: RGB (520, 240) -> (130, 60)
        try withFrame(depth) { f, _ in
            expectError(.noData, containing: ["tail"]) { () throws(FathomError) in
                _ = try f.measure(head: SIMD2(120, 240), tail: SIMD2(520, 240), mask: nil, options: options(.nearest))
            }
            // The median of its 5 x 5 window has the other 24.
            let r = try f.measure(head: SIMD2(120, 240), tail: SIMD2(520, 240), mask: nil, options: options(.median))
            #expect(r.samples == 49 && abs(r.length - 1.2) < 1e-6)
            expectError(.outOfRange, containing: ["head", "outside"]) { () throws(FathomError) in
                _ = try f.measure(head: SIMD2(640, 240), tail: SIMD2(520, 240), mask: nil, options: options(.median))
            }
            expectError(.notFinite, containing: ["tail"]) { () throws(FathomError) in
                _ = try f.measure(head: SIMD2(120, 240), tail: SIMD2(.nan, 240), mask: nil, options: options(.median))
            }
            expectError(.degenerate) { () throws(FathomError) in
                _ = try f.measure(head: SIMD2(120, 240), tail: SIMD2(120, 240), mask: nil, options: options(.median))
            }
        }
        // Pixels one float apart: either degenerate (the same point) or a finite, positive length and error bar.
        try withFrame([Float](repeating: 1, count: gridW * gridH)) { f, _ in
            var degenerate = 0
            for q in 0..<2000 {
                let u = Float(q) * 0.3, next = u.nextUp
                do throws(FathomError) {
                    let r = try f.measure(head: SIMD2(u, 240), tail: SIMD2(next, 240), mask: nil, options: options(.nearest))
                    #expect(r.length > 0 && r.length.isFinite && r.sigma.isFinite, "u \(u): \(r)")
                } catch {
                    #expect(error.kind == .degenerate, "u \(u): \(error)")
                    degenerate += 1
                }
            }
            #expect(degenerate < 2000)
        }
    }

    @Test("a traced polyline: the extent of the fitted line, pixels without depth skipped, head at the smaller projection")
    func polyline() throws {
        // Seven pixels from (100, 400) in steps of (60, -40) on the 1.5 m wall; the last one's sample (460 / 4, 160 / 4) =
        // (115, 40) invalid: skipped. The rest are collinear: the length runs from the first to the sixth,
        // 1.5 |r(400, 200) - r(100, 400)| = 1.5 |(0.6, -0.5)| = 1.17154, sigma by the model along the line's direction.
        var depth = [Float](repeating: 1.5, count: gridW * gridH)
        depth[40 * gridW + 115] = 0
        let pixels = (0..<7).map { SIMD2<Float>(100 + 60 * Float($0), 400 - 40 * Float($0)) }
        try withFrame(depth) { f, _ in
            let want = model(ModelPoint(100, 400, depth: 1.5, noise: noise(1.5)), ModelPoint(400, 200, depth: 1.5, noise: noise(1.5)))
            #expect(abs(want.length - 1.5 * (0.36 + 0.25).squareRoot()) < 1e-12)
            for traced in [pixels, pixels.reversed()] {
                let r = try f.measure(polyline: traced, mask: nil, options: options(.nearest))
                #expect(relative(r.length, want.length) < 1e-6 && relative(r.sigma, want.sigma) < 1e-6, "\(r) vs \(want)")
                // The fitted direction's largest component (x) is positive: the head is the leftmost point either way.
                #expect(r.headPixel == SIMD2(100, 400) && r.tailPixel == SIMD2(400, 200), "\(r)")
                #expect(length(r.head - SIMD3(-0.66, 0.6, 1.5)) < 1e-6 && length(r.tail - SIMD3(0.24, -0.15, 1.5)) < 1e-6, "\(r)")
                #expect(r.samples == 6 && r.rms < 1e-6)
            }
            // Fewer than two pixels with depth: no data.
            expectError(.noData) { () throws(FathomError) in
                _ = try f.measure(polyline: [pixels[6], SIMD2(100, 400)], mask: nil, options: options(.nearest))
            }
        }
    }

    @Test("a traced polyline on an exact tilted plane (plane depth): the chord between the outermost rays' hits")
    func polylineOnPlane() throws {
        // The plane Z = 1.2 + 0.3 X of `exactPlanes`; pixels on the line from (90, 100) to (560, 410) in five steps. The
        // rays of an image line meet a plane on a line: the length is the distance between the first and last hits.
        func hit(_ u: Double, _ v: Double) -> SIMD3<Double> {
            let r = SIMD3((u - 320) / 500, (v - 240) / 400, 1)
            return 1.2 / (1 - 0.3 * r.x) * r
        }
        let depth = (0..<(gridW * gridH)).map { n in Float(1.2 / (1 - 0.3 * (Double(n % gridW) + 0.5 - 80) / 125)) }
        let pixels = (0...5).map { SIMD2<Float>(90 + 94 * Float($0), 100 + 62 * Float($0)) }
        try withFrame(depth) { f, mask in
            let r = try f.measure(polyline: pixels, mask: mask, options: options(.plane))
            #expect(relative(r.length, length(hit(560, 410) - hit(90, 100))) < 1e-6, "\(r)")
            #expect(r.rms < 1e-6 && r.samples == gridW * gridH && r.sigma > 0)
        }
    }
}
