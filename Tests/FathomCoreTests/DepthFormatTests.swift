// Depth storage formats against hand values (the checks Tests/c/test_depth.c makes across the C ABI, made here once
// against the core): float16 halves given as bit patterns and uint16 millimetres (scale 0.001) decode to the same
// meters as float32; invalid samples (0, negative, NaN, infinite) are skipped; rows `rowStride` bytes apart leave
// their padding unread. Points are the optical back-projection of sample (i, j) at depth d with the intrinsics of
// the depth grid's own size (so fx' = fx): ((i + 0.5 - cx) / fx d, (j + 0.5 - cy) / fy d, d), computed in Double.
import FathomCore
import Glibc
import Testing

/// A frame over `samples` (any trivial element type), with the depth grid's own intrinsics.
private func withFrame<T, R>(_ samples: [T], _ format: DepthFormat, width: Int, height: Int, rowStride: Int = 0,
                             scale: Float = 1, k: Intrinsics, _ body: (DepthFrame) throws -> R) throws -> R {
    try samples.withUnsafeBytes { raw in
        let frame = try DepthFrame(base: raw.baseAddress!, format: format, width: width, height: height, rowStride: rowStride,
                                   scale: scale, rgb: k)
        return try body(frame)
    }
}

/// Every valid sample's optical point and pixel, through the points-only path and the path with pixels; the two
/// must give the same points.
private func backprojected(_ frame: DepthFrame) -> (points: [SIMD3<Float>], pixels: [SIMD2<Int>]) {
    let n = frame.width * frame.height
    var fast = [Float](repeating: .nan, count: 3 * n), checked = [Float](repeating: .nan, count: 3 * n)
    var pixels = [UInt32](repeating: .max, count: 2 * n)
    let count = frame.backproject(.all(frame), to: .optical, points: &fast, pixels: nil, normals: nil, capacity: n)
    let again = frame.backproject(.all(frame), to: .optical, points: &checked, pixels: &pixels, normals: nil, capacity: n)
    #expect(count == again && Array(fast[0..<(3 * count)]) == Array(checked[0..<(3 * count)]))
    return ((0..<count).map { SIMD3(fast[3 * $0], fast[3 * $0 + 1], fast[3 * $0 + 2]) },
            (0..<count).map { SIMD2(Int(pixels[2 * $0]), Int(pixels[2 * $0 + 1])) })
}

/// The hand point of sample (i, j) at depth d (meters) for intrinsics k of the grid's size.
private func handPoint(_ i: Int, _ j: Int, _ d: Double, _ k: Intrinsics) -> SIMD3<Double> {
    SIMD3((Double(i) + 0.5 - Double(k.cx)) / Double(k.fx) * d, (Double(j) + 0.5 - Double(k.cy)) / Double(k.fy) * d, d)
}

@Suite("Depth formats (hand values)")
struct DepthFormatTests {
    @Test("float16 and uint16 millimetres decode to the same meters as float32: depths and points")
    func sameMeters() throws {
        let k = try Intrinsics(fx: 4, fy: 4, cx: 2, cy: 1, width: 4, height: 2)
        // Meters, row by row; sample (1, 0) is 0 (invalid) in every format.
        let meters: [Double] = [1.5, 0, 2.0, 0.25, 1.0, 3.0, 0.5, 4.0]
        let float32: [Float] = meters.map(Float.init)
        // IEEE halves: 1.5 = 0x3E00 (exponent 15, mantissa 0x200), 0 = 0x0000, 2 = 0x4000, 0.25 = 0x3400, 1 = 0x3C00,
        // 3 = 0x4200, 0.5 = 0x3800, 4 = 0x4400: all exact.
        let float16: [UInt16] = [0x3E00, 0x0000, 0x4000, 0x3400, 0x3C00, 0x4200, 0x3800, 0x4400]
        // Millimetres with scale 0.001 m per unit.
        let millimetres: [UInt16] = [1500, 0, 2000, 250, 1000, 3000, 500, 4000]
        // Valid samples in row order: (0,0) 1.5, (2,0) 2, (3,0) 0.25, (0,1) 1, (1,1) 3, (2,1) 0.5, (3,1) 4.
        let validPixels = [SIMD2(0, 0), SIMD2(2, 0), SIMD2(3, 0), SIMD2(0, 1), SIMD2(1, 1), SIMD2(2, 1), SIMD2(3, 1)]

        func check(_ frame: DepthFrame, tolerance: Double, _ name: String) {
            for j in 0..<2 {
                for i in 0..<4 {
                    let want = meters[j * 4 + i]
                    if want == 0 {
                        #expect(frame.depth(i, j) == nil, "\(name) (\(i), \(j))")
                    } else if let d = frame.depth(i, j) {
                        #expect(abs(Double(d) - want) <= tolerance * want, "\(name) (\(i), \(j)): \(d) vs \(want)")
                    } else {
                        Issue.record("\(name) (\(i), \(j)): no depth, want \(want)")
                    }
                }
            }
            #expect(frame.validCount(.all(frame)) == 7, "\(name)")
            let (points, pixels) = backprojected(frame)
            #expect(pixels == validPixels, "\(name)")
            for (p, px) in zip(points, pixels) {
                let want = handPoint(px.x, px.y, meters[px.y * 4 + px.x], k)
                #expect(close(p, want, Swift.max(tolerance * 4, 1e-6)), "\(name) \(px): \(p) vs \(want)")
            }
        }
        // float32 and float16 hold the meters exactly; millimetres times Float(0.001) round within an ulp or two.
        try withFrame(float32, .float32, width: 4, height: 2, k: k) { check($0, tolerance: 0, "float32") }
        try withFrame(float16, .float16, width: 4, height: 2, k: k) { check($0, tolerance: 0, "float16") }
        try withFrame(millimetres, .uint16, width: 4, height: 2, scale: 0.001, k: k) { check($0, tolerance: 3e-7, "uint16 mm") }
    }

    @Test("float16: NaN, infinities, zeros and negatives are invalid; a subnormal is a depth; scale multiplies")
    func float16Specials() throws {
        let k = try Intrinsics(fx: 4, fy: 4, cx: 2, cy: 1, width: 4, height: 2)
        // 1.0, +Inf, 2.0, NaN / -1.0, 1.5, -0, 0.5: valid (0,0) 1, (2,0) 2, (1,1) 1.5, (3,1) 0.5.
        var halves: [UInt16] = [0x3C00, 0x7C00, 0x4000, 0x7E00, 0xBC00, 0x3E00, 0x8000, 0x3800]
        try withFrame(halves, .float16, width: 4, height: 2, k: k) { frame in
            #expect(frame.validCount(.all(frame)) == 4)
            let (points, pixels) = backprojected(frame)
            #expect(pixels == [SIMD2(0, 0), SIMD2(2, 0), SIMD2(1, 1), SIMD2(3, 1)])
            #expect(points.map(\.z) == [1, 2, 1.5, 0.5])
            // Sample (0, 0) at 1 m: ((0.5 - 2) / 4, (0.5 - 1) / 4, 1) = (-0.375, -0.125, 1), exact in binary.
            #expect(points.first == SIMD3<Float>(-0.375, -0.125, 1))
        }
        // Scale 0.5 m per unit: stored 2.0 is 1 m; the points halve: (0, 0) at 0.5 m -> (-0.1875, -0.0625, 0.5).
        try withFrame(halves, .float16, width: 4, height: 2, scale: 0.5, k: k) { frame in
            let (points, _) = backprojected(frame)
            #expect(points.map(\.z) == [0.5, 1, 0.75, 0.25])
            #expect(points.first == SIMD3<Float>(-0.1875, -0.0625, 0.5))
        }
        // The smallest subnormal half 0x0001 = 2^-24 m is a positive depth.
        halves[0] = 0x0001
        try withFrame(halves, .float16, width: 4, height: 2, k: k) { frame in
            #expect(frame.validCount(.all(frame)) == 4)
            #expect(frame.depth(0, 0) == 0x1p-24)
        }
    }

    @Test("uint16: 0 is invalid, 65535 mm is 65.535 m, and other scales (TUM's 5000 units per meter)")
    func uint16Scales() throws {
        let k = try Intrinsics(fx: 4, fy: 4, cx: 2, cy: 1, width: 4, height: 2)
        let units: [UInt16] = [1500, 0, 2000, 65535, 1, 0, 250, 1000]
        try withFrame(units, .uint16, width: 4, height: 2, scale: 0.001, k: k) { frame in
            // Valid: (0,0) 1.5, (2,0) 2, (3,0) 65.535, (0,1) 0.001, (2,1) 0.25, (3,1) 1 m.
            let (points, pixels) = backprojected(frame)
            #expect(pixels == [SIMD2(0, 0), SIMD2(2, 0), SIMD2(3, 0), SIMD2(0, 1), SIMD2(2, 1), SIMD2(3, 1)])
            for (p, want) in zip(points.map(\.z), [1.5, 2.0, 65.535, 0.001, 0.25, 1.0]) {
                #expect(abs(Double(p) - want) <= 3e-7 * want, "\(p) vs \(want)")
            }
            // Sample (3, 0) at 65.535 m: ((3.5 - 2) / 4, (0.5 - 1) / 4, 1) * 65.535 = (24.575625, -8.191875, 65.535).
            #expect(close(points[2], SIMD3<Double>(24.575625, -8.191875, 65.535), 3e-5))
        }
        // 5000 units per meter: 1500 -> 0.3 m, 1000 -> 0.2 m.
        try withFrame(units, .uint16, width: 4, height: 2, scale: 1.0 / 5000, k: k) { frame in
            #expect(abs(Double(frame.depth(0, 0)!) - 0.3) < 1e-7 && abs(Double(frame.depth(3, 1)!) - 0.2) < 1e-7)
        }
    }

    @Test("row strides with padding that must not be read: float32, uint16 and float16 give the same points")
    func rowStrides() throws {
        // 3 x 2 samples, fx' 3, fy' 2, cx' 1.5, cy' 1. Valid: (0,0) 1, (1,0) 2, (2,0) 3, (0,1) 4, (2,1) 6 m
        // ((1,1) is 0 in float32 and uint16, +Inf in float16: invalid). The padding holds values that would be
        // valid depths (77, 88, 99, 11; 4444, 5555 mm; 4.0), so reading it would show.
        let k = try Intrinsics(fx: 3, fy: 2, cx: 1.5, cy: 1, width: 3, height: 2)
        let depths: [Double] = [1, 2, 3, 4, 0, 6]
        let valid = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(2, 0), SIMD2(0, 1), SIMD2(2, 1)]
        let padded32: [Float] = [1, 2, 3, 77, 88, 4, 0, 6, 99, 11]  // rows 5 floats (20 bytes) apart
        let padded16: [UInt16] = [1000, 2000, 3000, 4444, 4000, 0, 6000, 5555]  // rows 4 samples (8 bytes) apart
        // Halves 1, 2, 3, pad 4.0 / 4, +Inf, 6, pad 4.0 (6 = 0x4600: exponent 17, mantissa 0x200).
        let paddedHalves: [UInt16] = [0x3C00, 0x4000, 0x4200, 0x4400, 0x4400, 0x7C00, 0x4600, 0x4400]

        func check(_ frame: DepthFrame, tolerance: Double, _ name: String) {
            #expect(frame.validCount(.all(frame)) == 5, "\(name)")
            let (points, pixels) = backprojected(frame)
            #expect(pixels == valid, "\(name)")
            for (p, px) in zip(points, pixels) {
                let want = handPoint(px.x, px.y, depths[px.y * 3 + px.x], k)
                #expect(close(p, want, tolerance), "\(name) \(px): \(p) vs \(want)")
            }
            // Sample (2, 1) at 6 m: ((2.5 - 1.5) / 3, (1.5 - 1) / 2, 1) * 6 = (2, 1.5, 6).
            #expect(points.count == 5 && close(points[4], SIMD3<Double>(2, 1.5, 6), 6 * tolerance + 1e-6), "\(name)")
            for j in 0..<2 { for i in 0..<3 where depths[j * 3 + i] > 0 {
                #expect(abs(Double(frame.depth(i, j) ?? -1) - depths[j * 3 + i]) <= tolerance, "\(name) (\(i), \(j))")
            } }
            #expect(frame.depth(1, 1) == nil, "\(name)")
        }
        try withFrame(padded32, .float32, width: 3, height: 2, rowStride: 20, k: k) { check($0, tolerance: 1e-6, "float32") }
        try withFrame(padded16, .uint16, width: 3, height: 2, rowStride: 8, scale: 0.001, k: k) { check($0, tolerance: 3e-6, "uint16 mm") }
        try withFrame(paddedHalves, .float16, width: 3, height: 2, rowStride: 8, k: k) { check($0, tolerance: 1e-6, "float16") }

        // A stride shorter than a row (3 halves = 6 bytes), or not a multiple of the sample size, is refused.
        paddedHalves.withUnsafeBytes { raw in
            for stride in [4, 9] {
                expectError(.outOfRange, containing: ["row_stride"]) { () throws(FathomError) in
                    _ = try DepthFrame(base: raw.baseAddress!, format: .float16, width: 3, height: 2, rowStride: stride, rgb: k)
                }
            }
        }
    }
}
