// Camera intrinsics: validation and rescaling to another resolution of the same sensor.
import FathomCore
import Testing

@Suite("Intrinsics")
struct IntrinsicsTests {
    static let rgb = try! Intrinsics(fx: 1432.5, fy: 1431.75, cx: 959.25, cy: 719.5, width: 1920, height: 1440)

    @Test("the RGB intrinsics scaled to the 256 x 192 depth map: fx' = fx w'/w, cx' = cx w'/w, fy' = fy h'/h, cy' = cy h'/h")
    func rgbToDepth() throws {
        let depth = try Self.rgb.scaled(width: 256, height: 192)
        #expect(depth.width == 256 && depth.height == 192)
        // Two roundings (the ratio, then the product): within 2 ulps of the exact value.
        func check(_ got: Float, _ value: Float, _ ratio: Double) {
            let exact = Double(value) * ratio
            #expect(abs(Double(got) - exact) <= 2 * Double(got.ulp), "\(got) vs \(exact)")
        }
        check(depth.fx, Self.rgb.fx, 256.0 / 1920)
        check(depth.cx, Self.rgb.cx, 256.0 / 1920)
        check(depth.fy, Self.rgb.fy, 192.0 / 1440)
        check(depth.cy, Self.rgb.cy, 192.0 / 1440)
    }

    @Test("rescaling to random sizes against Double, to the same size exactly, and back and forth")
    func randomSizes() throws {
        var rng = SplitMix64(seed: 100)
        #expect(try Self.rgb.scaled(width: 1920, height: 1440) == Self.rgb)
        for _ in 0..<300 {
            let w = rng.int(1...8000), h = rng.int(1...8000)
            let s = try Self.rgb.scaled(width: w, height: h)
            #expect(s.width == w && s.height == h)
            let rx = Double(Float(w) / 1920), ry = Double(Float(h) / 1440)
            #expect(abs(Double(s.fx) - Double(Self.rgb.fx) * rx) <= Double(s.fx.ulp))
            #expect(abs(Double(s.fy) - Double(Self.rgb.fy) * ry) <= Double(s.fy.ulp))
            #expect(abs(Double(s.cx) - Double(Self.rgb.cx) * rx) <= Double(s.cx.ulp))
            #expect(abs(Double(s.cy) - Double(Self.rgb.cy) * ry) <= Double(s.cy.ulp))
            let back = try s.scaled(width: 1920, height: 1440)
            #expect(abs(back.fx - Self.rgb.fx) <= 8 * Self.rgb.fx.ulp)
            #expect(abs(back.cy - Self.rgb.cy) <= 8 * Self.rgb.cy.ulp)
        }
        // Halving and doubling are exact.
        let half = try Self.rgb.scaled(width: 960, height: 720)
        #expect(half.fx == 716.25 && half.fy == 715.875 && half.cx == 479.625 && half.cy == 359.75)
    }

    @Test("validation: focal lengths > 0, finite principal point, sizes >= 1; each named")
    func validation() throws {
        for bad: Float in [0, -0.0, -1] {
            expectError(.outOfRange, containing: ["fx"]) { () throws(FathomError) in
                _ = try Intrinsics(fx: bad, fy: 1, cx: 0, cy: 0, width: 1, height: 1)
            }
            expectError(.outOfRange, containing: ["fy"]) { () throws(FathomError) in
                _ = try Intrinsics(fx: 1, fy: bad, cx: 0, cy: 0, width: 1, height: 1)
            }
        }
        for bad: Float in [.nan, .infinity, -.infinity] {
            expectError(.notFinite, containing: ["fx"]) { () throws(FathomError) in
                _ = try Intrinsics(fx: bad, fy: 1, cx: 0, cy: 0, width: 1, height: 1)
            }
            expectError(.notFinite, containing: ["cx"]) { () throws(FathomError) in
                _ = try Intrinsics(fx: 1, fy: 1, cx: bad, cy: 0, width: 1, height: 1)
            }
            expectError(.notFinite, containing: ["cy"]) { () throws(FathomError) in
                _ = try Intrinsics(fx: 1, fy: 1, cx: 0, cy: bad, width: 1, height: 1)
            }
        }
        for bad in [0, -1, Int.min] {
            expectError(.outOfRange, containing: ["width"]) { () throws(FathomError) in
                _ = try Intrinsics(fx: 1, fy: 1, cx: 0, cy: 0, width: bad, height: 1)
            }
            expectError(.outOfRange, containing: ["height"]) { () throws(FathomError) in
                _ = try Intrinsics(fx: 1, fy: 1, cx: 0, cy: 0, width: 1, height: bad)
            }
            expectError(.outOfRange, containing: ["width"]) { () throws(FathomError) in _ = try Self.rgb.scaled(width: bad, height: 1) }
            expectError(.outOfRange, containing: ["height"]) { () throws(FathomError) in _ = try Self.rgb.scaled(width: 1, height: bad) }
        }
        // A principal point outside the image is allowed (only finiteness is required).
        _ = try Intrinsics(fx: 1, fy: 1, cx: -5, cy: 1e6, width: 1, height: 1)
    }
}
