// Depth under an RGB pixel (nearest, bilinear, median) and the 3D point there (what fathom_depth_sample and
// fathom_depth_point return) against hand-derived values (the checks Tests/c/test_depth.c made across the C ABI, made
// here once against the core). RGB pixel (u, v) maps to depth-grid coordinates (x, y) = (u * w / W, v * h / H);
// sample (i, j) covers [i, i + 1) x [j, j + 1) with its centre at (i + 0.5, j + 0.5). Nearest reads the sample whose
// cell holds (x, y); bilinear interpolates between the four sample centres around (x, y) (clamped at the border),
// dropping invalid samples' weights and renormalizing; median takes the lower middle of the valid samples of the
// window x window block centred on the nearest sample (clipped at the border). The point is optical
// ((u - cx) / fx d, (v - cy) / fy d, d) with the RGB intrinsics, camera (X, -Y, -Z), world R camera + t.
import FathomCore
import Glibc
import Testing

/// The ramp every test reads: a 4 x 3 grid, d(i, j) = 1 + 0.25 i + 0.5 j (distinct slopes along i and j, so a swapped
/// axis shows), all exact in Float:
///   row 0: 1.00 1.25 1.50 1.75
///   row 1: 1.50 1.75 2.00 2.25
///   row 2: 2.00 2.25 2.50 2.75
private func ramp() -> [Float] { (0..<12).map { 1 + 0.25 * Float($0 % 4) + 0.5 * Float($0 / 4) } }

/// The RGB image is 8 x 9 pixels: x = u / 2 but y = v / 3 (different factors, so a swapped scale shows);
/// fx 6, fy 4.5, cx 4, cy 4.5.
private func rgb() throws -> Intrinsics { try Intrinsics(fx: 6, fy: 4.5, cx: 4, cy: 4.5, width: 8, height: 9) }

private func withRamp<R>(_ depth: [Float], confidence: [UInt8]? = nil, minConfidence: UInt8 = 0, maxDepth: Float = .infinity,
                         pose: Pose? = nil, _ body: (DepthFrame) throws -> R) throws -> R {
    let conf = confidence ?? [UInt8](repeating: 0, count: 12)
    return try depth.withUnsafeBytes { raw in
        try conf.withUnsafeBufferPointer { c in
            let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: 4, height: 3,
                                       confidence: confidence == nil ? nil : c.baseAddress, minConfidence: minConfidence,
                                       maxDepth: maxDepth, rgb: try rgb(), pose: pose)
            return try body(frame)
        }
    }
}

/// The reading at (u, v), or the kind of error.
private func read(_ f: DepthFrame, _ u: Float, _ v: Float, _ sampling: DepthSampling,
                  window: Int = 1) -> Result<DepthReading, FathomError> {
    Result { () throws(FathomError) in try f.sample(u: u, v: v, sampling, window: window) }
}

/// Expects depth `d` (within `tolerance`) resting on `samples` samples.
private func expectReading(_ r: Result<DepthReading, FathomError>, _ d: Float, samples: Int, tolerance: Float = 0,
                           sourceLocation: SourceLocation = #_sourceLocation) {
    switch r {
    case .success(let reading):
        #expect(abs(reading.depth - d) <= tolerance && reading.samples == samples, "\(reading), expected \(d) from \(samples)",
                sourceLocation: sourceLocation)
    case .failure(let error):
        Issue.record("expected \(d), got \(error)", sourceLocation: sourceLocation)
    }
}

private func expectKind(_ r: Result<DepthReading, FathomError>, _ kind: FathomError.Kind, containing text: String? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) {
    switch r {
    case .success(let reading): Issue.record("expected .\(kind), got \(reading)", sourceLocation: sourceLocation)
    case .failure(let error):
        #expect(error.kind == kind && (text.map { error.message.contains($0) } ?? true), "\(error)", sourceLocation: sourceLocation)
    }
}

@Suite("Depth sampling and depth points (hand values)")
struct DepthSamplingTests {
    @Test("nearest: the sample whose cell holds the point (floor, not round; u and v scaled by their own factors)")
    func nearest() throws {
        try withRamp(ramp()) { f in
            expectReading(read(f, 3, 4.5, .nearest), 1.75, samples: 1)       // (1.5, 1.5) -> (1, 1)
            expectReading(read(f, 1.99, 2.99, .nearest), 1.0, samples: 1)    // (0.995, 0.997) -> (0, 0); rounding: (1, 1)
            expectReading(read(f, 2, 3, .nearest), 1.75, samples: 1)         // (1, 1) exactly: the cell it starts
            expectReading(read(f, 7.99, 8.99, .nearest), 2.75, samples: 1)   // (3.995, 2.997) -> (3, 2)
            expectReading(read(f, 0, 0, .nearest), 1.0, samples: 1)
            // (5, 2) -> (2.5, 0.667) -> (2, 0) = 1.5; with the scales swapped, (1.67, 1) -> (1, 1) = 1.75.
            expectReading(read(f, 5, 2, .nearest), 1.5, samples: 1)
        }
    }

    @Test("bilinear: between sample centres at i + 0.5, exact on the ramp, clamped at the border, invalid weights dropped")
    func bilinear() throws {
        var depth = ramp()
        try withRamp(depth) { f in
            // (3, 4.5) -> (1.5, 1.5): sample (1, 1)'s centre, 1.75 from that sample alone (without the half-pixel shift
            // it would be the ramp at (1.5, 1.5), 2.125).
            expectReading(read(f, 3, 4.5, .bilinear), 1.75, samples: 1)
            // (4, 3) -> (2, 1): between centres at (1.5, 0.5): 1 + 0.25 * 1.5 + 0.5 * 0.5 = 1.625, from 4 samples.
            expectReading(read(f, 4, 3, .bilinear), 1.625, samples: 4, tolerance: 1e-6)
            // (2.5, 6.75) -> (1.25, 2.25): at (0.75, 1.75): 1 + 0.1875 + 0.875 = 2.0625.
            expectReading(read(f, 2.5, 6.75, .bilinear), 2.0625, samples: 4, tolerance: 1e-6)
            // (0.2, 0.3) -> (0.1, 0.1): before the first centre on both axes: clamped to sample (0, 0).
            expectReading(read(f, 0.2, 0.3, .bilinear), 1.0, samples: 1, tolerance: 1e-6)
            // (7.9, 0.75) -> (3.95, 0.25): past the last centre in x, before the first in y: sample (3, 0) = 1.75.
            expectReading(read(f, 7.9, 0.75, .bilinear), 1.75, samples: 1, tolerance: 1e-6)
        }
        depth[2] = 0  // sample (2, 0) invalid
        try withRamp(depth) { f in
            // At (1.5, 0.5) its weight (1/4) goes: (1.25 + 1.75 + 2.0) / 3 from the other three.
            expectReading(read(f, 4, 3, .bilinear), (1.25 + 1.75 + 2.0) / 3, samples: 3, tolerance: 1e-6)
            // (5, 1.5) -> (2.5, 0.5): exactly sample (2, 0)'s centre, the only weighted sample, invalid: no data; nearest
            // there too.
            expectKind(read(f, 5, 1.5, .bilinear), .noData)
            expectKind(read(f, 5, 1, .nearest), .noData)
        }
    }

    @Test("median: the lower middle of the valid samples of the window, clipped at the border")
    func median() throws {
        var depth = ramp()
        depth[2] = 0  // sample (2, 0) invalid
        try withRamp(depth) { f in
            // 3 x 3 around (1, 1): 1, 1.25 / 1.5, 1.75, 2 / 2, 2.25, 2.5 (without (2, 0)): eight values; the lower middle
            // (4th) is 1.75 (the upper middle 2, their mean 1.875).
            expectReading(read(f, 3, 4.5, .median, window: 3), 1.75, samples: 8)
            // Window 1: the nearest sample.
            expectReading(read(f, 3, 4.5, .median, window: 1), 1.75, samples: 1)
            // 3 x 3 at the corner (0, 0), clipped to 2 x 2: 1, 1.25, 1.5, 1.75 -> 1.25.
            expectReading(read(f, 0.5, 0.5, .median, window: 3), 1.25, samples: 4)
            // 5 x 5 around (1, 1) covers the grid: 11 valid values 1, 1.25, 1.5, 1.75, 1.75, 2, 2, 2.25, 2.25, 2.5, 2.75
            // -> the 6th, 2.
            expectReading(read(f, 3, 4.5, .median, window: 5), 2.0, samples: 11)
            // The same from a window as wide as an unsigned 32-bit window can be.
            expectReading(read(f, 3, 4.5, .median, window: 4_294_967_295), 2.0, samples: 11)
            // The invalid sample's own window: 1.25, 1.75 / 1.75, 2, 2.25 -> 1.75.
            expectReading(read(f, 5, 1, .median, window: 3), 1.75, samples: 5)
            // Even and zero windows are refused.
            expectKind(read(f, 3, 4.5, .median, window: 2), .outOfRange, containing: "window")
            expectKind(read(f, 3, 4.5, .median, window: 0), .outOfRange, containing: "window")
        }
        // A window with no valid sample: no data.
        try withRamp([Float](repeating: .nan, count: 12)) { f in expectKind(read(f, 3, 4.5, .median, window: 3), .noData) }
    }

    @Test("sampling follows the frame's validity rules: confidence and the depth range")
    func validity() throws {
        // Sample (1, 1) below the minimum confidence: nearest has no data there; the median of its 3 x 3 window leaves
        // it out (1, 1.25, 1.5 / 1.5, 2 / 2, 2.25, 2.5 -> the 4th, 1.5); bilinear at (1.5, 0.5) drops its weight
        // ((1.25 + 1.5 + 2) / 3).
        var confidence = [UInt8](repeating: 2, count: 12)
        confidence[5] = 0
        try withRamp(ramp(), confidence: confidence, minConfidence: 1) { f in
            expectKind(read(f, 3, 4.5, .nearest), .noData)
            expectReading(read(f, 3, 4.5, .median, window: 3), 1.5, samples: 8)
            expectReading(read(f, 4, 3, .bilinear), (1.25 + 1.5 + 2.0) / 3, samples: 3, tolerance: 1e-6)
        }
        // max_depth 2.4: (2, 2) = 2.5 and (3, 2) = 2.75 are invalid.
        try withRamp(ramp(), maxDepth: 2.4) { f in
            expectKind(read(f, 7.99, 8.99, .nearest), .noData)
            expectReading(read(f, 3, 4.5, .median, window: 5), 1.75, samples: 10)
        }
    }

    @Test("outside the RGB image [0, W) x [0, H) is out of range; NaN and infinity are not finite")
    func outside() throws {
        try withRamp(ramp()) { f in
            for (u, v) in [(Float(-0.01), Float(1)), (8, 1), (1, 9), (1, -1)] {
                for sampling in [DepthSampling.nearest, .bilinear, .median] {
                    expectKind(read(f, u, v, sampling, window: 3), .outOfRange, containing: "outside")
                }
            }
            expectKind(read(f, .nan, 1, .nearest), .notFinite)
            expectKind(read(f, 1, .infinity, .bilinear), .notFinite)
            // The last pixel inside: (7.999, 8.999) -> sample (3, 2).
            expectReading(read(f, 7.999, 8.999, .nearest), 2.75, samples: 1)
        }
    }

    @Test("the point at a pixel: optical ((u - cx) / fx d, (v - cy) / fy d, d), camera (X, -Y, -Z), world R camera + t")
    func points() throws {
        // R_z(90 degrees) maps camera (x, y, z) to world (-y, x, z); t = (1, 2, 3).
        let pose = Pose(rotation: Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1)), translation: SIMD3(1, 2, 3))
        try withRamp(ramp(), pose: pose) { f throws in
            func point(_ u: Float, _ v: Float, _ sampling: DepthSampling, _ frame: PointFrame) throws -> SIMD3<Float> {
                f.convert(f.opticalPoint(u: u, v: v, depth: try f.sample(u: u, v: v, sampling).depth), to: frame)
            }
            // (5, 2), nearest: sample (2, 0), d = 1.5: optical ((5 - 4) / 6 * 1.5, (2 - 4.5) / 4.5 * 1.5, 1.5)
            // = (0.25, -0.83333, 1.5); camera (0.25, 0.83333, -1.5); world (-0.83333 + 1, 0.25 + 2, -1.5 + 3).
            #expect(close(try point(5, 2, .nearest, .optical), SIMD3<Double>(0.25, -2.5 / 3, 1.5), 1e-6))
            #expect(close(try point(5, 2, .nearest, .camera), SIMD3<Double>(0.25, 2.5 / 3, -1.5), 1e-6))
            #expect(close(try point(5, 2, .nearest, .world), SIMD3<Double>(1 - 2.5 / 3, 2.25, 1.5), 1e-6))
            // (4, 3), bilinear: d = 1.625 (above): optical (0, (3 - 4.5) / 4.5 * 1.625, 1.625) = (0, -0.541667, 1.625).
            #expect(close(try point(4, 3, .bilinear, .optical), SIMD3<Double>(0, -1.625 / 3, 1.625), 1e-6))
        }
    }

    @Test("depth-and-fish.md's K^-1: the principal point maps to the optical axis, pixel (0, 0) to K^-1 [0, 0, 1] d")
    func fishInverse() throws {
        // K^-1 = [[7.0161547e-4, 0, -0.67513853], [0, 7.0161547e-4, -0.5045314], [0, 0, 1]] for a 1920 x 1440 image:
        // fx = fy = 1 / 7.0161547e-4, cx = 0.67513853 fx, cy = 0.5045314 fx; a 256 x 192 depth map at 1.25 m.
        let kinv = 7.0161547e-4, kx = -0.67513853, ky = -0.5045314
        let k = try Intrinsics(fx: Float(1 / kinv), fy: Float(1 / kinv), cx: Float(-kx / kinv), cy: Float(-ky / kinv),
                               width: 1920, height: 1440)
        let depth = [Float](repeating: 1.25, count: 256 * 192)
        try depth.withUnsafeBytes { raw in
            let f = try DepthFrame(base: raw.baseAddress!, format: .float32, width: 256, height: 192, rgb: k)
            func point(_ u: Float, _ v: Float, _ frame: PointFrame) throws -> SIMD3<Float> {
                f.convert(f.opticalPoint(u: u, v: v, depth: try f.sample(u: u, v: v, .nearest).depth), to: frame)
            }
            #expect(close(try point(k.cx, k.cy, .optical), SIMD3<Double>(0, 0, 1.25), 1e-6))
            #expect(close(try point(0, 0, .optical), SIMD3(kx * 1.25, ky * 1.25, 1.25), 2e-6))
            // (1919.5, 1439.5) in the camera frame: (K^-1 [u, v, 1] d) with y and z negated.
            let x = (kinv * 1919.5 + kx) * 1.25, y = (kinv * 1439.5 + ky) * 1.25
            #expect(close(try point(1919.5, 1439.5, .camera), SIMD3(x, -y, -1.25), 2e-6))
        }
    }
}
