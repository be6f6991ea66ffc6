// Camera rays and projection against conventions.md: the screen-point ray formula (camera frame
// ((u - cx)/fx, -(v - cy)/fy, -1), normalized, rotated by the camera-to-world pose) evaluated in Double,
// pixel centres at +0.5, grids of rays laid out row by row in a RayBuffer, and projection round trips,
// with points behind the camera and outside the image.
import FathomCore
import Glibc
import Testing

/// The conventions.md ray direction in Double, from the pose's own Float rotation.
func referenceRayDirection(_ k: Intrinsics, _ pose: Pose, u: Double, v: Double) -> SIMD3<Double> {
    let d = SIMD3((u - Double(k.cx)) / Double(k.fx), -(v - Double(k.cy)) / Double(k.fy), -1)
    return DMatrix3(pose.rotation) * (d / length(d))
}

/// conventions.md projection in Double: camera point R^T (p - t); pixel (fx x / -z + cx, -fy y / -z + cy).
func referenceProjection(_ k: Intrinsics, _ pose: Pose, _ p: SIMD3<Float>) -> (u: Double, v: Double, camera: SIMD3<Double>) {
    let c = DMatrix3(pose.rotation).transposed * (SIMD3<Double>(p) - SIMD3<Double>(pose.translation))
    let depth = -c.z
    return (Double(k.fx) * c.x / depth + Double(k.cx), -Double(k.fy) * c.y / depth + Double(k.cy), c)
}

/// A random camera: focal lengths 150...2500 px, image 1...2000 px a side, principal point near the centre.
func randomIntrinsics(_ rng: inout SplitMix64) throws -> Intrinsics {
    let w = rng.int(1...2000), h = rng.int(1...2000)
    return try Intrinsics(fx: rng.float(150...2500), fy: rng.float(150...2500),
                          cx: Float(w) * rng.float(0.3...0.7), cy: Float(h) * rng.float(0.3...0.7), width: w, height: h)
}

@Suite("Camera rays and projection")
struct CameraRayTests {
    static let small = try! Intrinsics(fx: 128, fy: 128, cx: 64, cy: 48, width: 128, height: 96)

    @Test("ARKit axes by hand: the principal point looks down -z, right is +x, down in the image is -y")
    func axesByHand() throws {
        let k = Self.small, identity = Pose.identity
        let centre = try k.ray(camera: identity, u: 64, v: 48)
        #expect(centre.origin == .zero && centre.direction == SIMD3(0, 0, -1))
        let s = Float(0.5).squareRoot()
        let right = try k.ray(camera: identity, u: 64 + 128, v: 48)
        #expect(close(right.direction, SIMD3(s, 0, -s), 2 * ulp))
        let down = try k.ray(camera: identity, u: 64, v: 48 + 128)
        #expect(close(down.direction, SIMD3(0, -s, -s), 2 * ulp))
        // Pixel (0, 0)'s centre is (0.5, 0.5): ((0.5 - 64)/128, -(0.5 - 48)/128, -1) normalized.
        let corner = try k.ray(camera: identity, u: 0.5, v: 0.5)
        #expect(close(corner.direction, referenceRayDirection(k, identity, u: 0.5, v: 0.5), 2 * Double(ulp)))
        #expect(corner.direction.x < 0 && corner.direction.y > 0)
        // A camera at (1, 2, 3) looking along world +x (its -z axis is world +x), y still up.
        let pose = Pose(rotation: Matrix3(SIMD3(0, 0, 1), SIMD3(0, 1, 0), SIMD3(-1, 0, 0)), translation: SIMD3(1, 2, 3))
        let ahead = try k.ray(camera: pose, u: 64, v: 48)
        #expect(ahead.origin == SIMD3(1, 2, 3) && ahead.direction == SIMD3(1, 0, 0))
        // Image right is the camera's +x, world +z here.
        #expect(close(try k.ray(camera: pose, u: 64 + 128, v: 48).direction, SIMD3(s, 0, s), 2 * ulp))
    }

    @Test("random cameras, poses and pixels (inside and outside the image) against the formula in Double")
    func randomRays() throws {
        var rng = SplitMix64(seed: 5000)
        for _ in 0..<20000 {
            let k = try randomIntrinsics(&rng)
            let pose = randomPose(&rng, range: 50)
            let u = rng.float(-Float(k.width)...2 * Float(k.width)), v = rng.float(-Float(k.height)...2 * Float(k.height))
            let ray = try k.ray(camera: pose, u: u, v: v)
            #expect(ray.origin == pose.translation)
            let expected = referenceRayDirection(k, pose, u: Double(u), v: Double(v))
            // The pixel offsets, the division, the normalization and the rotation: a few ulps of a unit vector.
            #expect(close(ray.direction, expected, 8 * Double(ulp)), "\(ray.direction) vs \(expected)")
            #expect(abs(length(ray.direction) - 1) <= 4 * ulp)
        }
    }

    @Test("grid ray counts: ceil(width/step) * ceil(height/step), also for 32-bit sizes whose product passes Int.max",
          arguments: [(1, 1, 1), (1, 1, 5), (7, 5, 1), (7, 5, 2), (7, 5, 3), (7, 5, 5), (7, 5, 6), (7, 5, 7), (7, 5, 100),
                      (256, 192, 1), (256, 192, 4), (256, 192, 5), (256, 192, 7), (1920, 1440, 10), (1920, 1440, 13),
                      (Int(UInt32.max), Int(UInt32.max), 1), (Int(UInt32.max), 3, 2), (Int(UInt32.max), Int(UInt32.max), Int(UInt32.max))])
    func gridCounts(width: Int, height: Int, step: Int) throws {
        let k = try Intrinsics(fx: 200, fy: 210, cx: Float(width) / 2, cy: Float(height) / 2, width: width, height: height)
        let columns = (width + step - 1) / step, rows = (height + step - 1) / step
        #expect(k.gridCount(step: step) == UInt64(columns) * UInt64(rows))
        #expect(columns == Int((Double(width) / Double(step)).rounded(.up)) && rows == Int((Double(height) / Double(step)).rounded(.up)))
    }

    @Test("grid rays: row by row through pixel centres (column * step + 0.5, row * step + 0.5), nothing written past the end",
          arguments: [(7, 5, 1), (7, 5, 2), (7, 5, 3), (7, 5, 8), (256, 192, 4), (255, 191, 5), (64, 48, 1)])
    func gridLayout(width: Int, height: Int, step: Int) throws {
        var rng = SplitMix64(seed: 5001 + UInt64(width * 31 + step))
        let k = try Intrinsics(fx: rng.float(100...400), fy: rng.float(100...400), cx: Float(width) * 0.47, cy: Float(height) * 0.52,
                               width: width, height: height)
        let pose = randomPose(&rng)
        let count = Int(k.gridCount(step: step)), columns = (width + step - 1) / step
        // Sentinels after the last ray.
        var floats = [Float](repeating: .nan, count: 6 * count + 12)
        floats.replaceSubrange(6 * count..<6 * count + 12, with: [Float](repeating: 12345, count: 12))
        try floats.withUnsafeMutableBufferPointer { try k.gridRays(camera: pose, step: step, into: $0.baseAddress!) }
        #expect(floats[(6 * count)...].allSatisfy { $0 == 12345 }, "wrote past \(count) rays")
        try floats.withUnsafeBufferPointer { p throws in
            let rays = RayBuffer(base: p.baseAddress!, count: count)
            for i in 0..<count {
                let column = i % columns, row = i / columns
                let u = Float(column * step) + 0.5, v = Float(row * step) + 0.5
                #expect(u < Float(width) && v < Float(height))
                let ray = rays[i]
                #expect(ray.origin == pose.translation)
                #expect(close(ray.direction, referenceRayDirection(k, pose, u: Double(u), v: Double(v)), 8 * Double(ulp)), "ray \(i) = pixel (\(u), \(v))")
                #expect(close(ray.direction, try k.ray(camera: pose, u: u, v: v).direction, 4 * ulp))
            }
            // The first is pixel (0.5, 0.5); the last is the last grid pixel's centre.
            #expect(close(rays[0].direction, try k.ray(camera: pose, u: 0.5, v: 0.5).direction, 4 * ulp))
            let lastU = Float((columns - 1) * step) + 0.5, lastV = Float(((height + step - 1) / step - 1) * step) + 0.5
            #expect(close(rays[count - 1].direction, try k.ray(camera: pose, u: lastU, v: lastV).direction, 4 * ulp))
        }
    }

    @Test("grid step must be >= 1")
    func gridStepValidation() throws {
        var out = [Float](repeating: 0, count: 6)
        for step in [0, -1, Int.min] {
            _ = out.withUnsafeMutableBufferPointer { p in
                expectError(.outOfRange, containing: ["step"]) { () throws(FathomError) in try Self.small.gridRays(camera: .identity, step: step, into: p.baseAddress!) }
            }
        }
    }

    @Test("projection round trip: a point on a pixel's ray projects back to that pixel; matches Double")
    func projectionRoundTrip() throws {
        var rng = SplitMix64(seed: 5002)
        for _ in 0..<20000 {
            let k = try randomIntrinsics(&rng)
            let pose = randomPose(&rng, range: 20)
            let u = rng.float(0...Float(k.width)), v = rng.float(0...Float(k.height))
            let ray = try k.ray(camera: pose, u: u, v: v)
            let s = rng.float(0.05...30)
            let p = ray.at(s)
            let projected = try k.project(p, camera: pose)
            #expect(!projected.behind)
            let ref = referenceProjection(k, pose, p)
            let depth = -ref.camera.z
            // The camera-frame point errs by a few ulps of |p| + |t|; the pixel by fx times that over the depth.
            let error3 = 16 * Double(ulp) * Double(maxAbs(p) + maxAbs(pose.translation))
            let reach = 1 + (abs(ref.camera.x) + abs(ref.camera.y)) / depth
            let tolU = Double(k.fx) * error3 / depth * reach + 8 * Double(ulp) * (abs(ref.u) + Double(k.cx))
            let tolV = Double(k.fy) * error3 / depth * reach + 8 * Double(ulp) * (abs(ref.v) + Double(k.cy))
            #expect(abs(Double(projected.u) - ref.u) <= tolU && abs(Double(projected.v) - ref.v) <= tolV,
                    "(\(projected.u), \(projected.v)) vs (\(ref.u), \(ref.v))")
            // Back to the pixel: also the ray's direction error (8 ulps) seen at the focal length.
            let roundU = tolU + 16 * Double(ulp) * Double(k.fx) * reach * reach, roundV = tolV + 16 * Double(ulp) * Double(k.fy) * reach * reach
            #expect(abs(Double(projected.u) - Double(u)) <= roundU && abs(Double(projected.v) - Double(v)) <= roundV,
                    "pixel (\(u), \(v)) came back as (\(projected.u), \(projected.v))")
            if ref.u > tolU && ref.u < Double(k.width) - tolU && ref.v > tolV && ref.v < Double(k.height) - tolV {
                #expect(!projected.outside)
            }
        }
    }

    @Test("points behind the camera or on its plane: behind, u = v = 0, not outside")
    func behind() throws {
        let k = Self.small
        for p in [SIMD3<Float>(0, 0, 1), SIMD3(1, 2, 0), SIMD3(0, 0, 0), SIMD3(-5, 3, 1e-6), SIMD3(100, -100, 0.5)] {
            let r = try k.project(p, camera: .identity)
            #expect(r.behind && r.u == 0 && r.v == 0 && !r.outside, "\(p): \(r)")
        }
        var rng = SplitMix64(seed: 5003)
        for _ in 0..<5000 {
            let pose = randomPose(&rng, range: 10)
            let local = SIMD3(rng.float(-5...5), rng.float(-5...5), rng.float(0.01...5))  // camera z >= 0.01
            let r = try k.project(pose.apply(point: local), camera: pose)
            #expect(r.behind && r.u == 0 && r.v == 0 && !r.outside)
        }
    }

    @Test("outside the image: u or v beyond [0, width] x [0, height] (edges inside), still reported")
    func outside() throws {
        let k = Self.small  // u = 128 x / -z + 64, v = -128 y / -z + 48 for the identity pose
        let cases: [(SIMD3<Float>, Float, Float, Bool)] = [
            (SIMD3(0, 0, -1), 64, 48, false),
            (SIMD3(-0.5, 0, -1), 0, 48, false),             // left edge
            (SIMD3(0.5, 0, -1), 128, 48, false),            // right edge
            (SIMD3(0, 0.375, -1), 64, 0, false),            // top edge
            (SIMD3(0, -0.375, -1), 64, 96, false),          // bottom edge
            (SIMD3(-0.5, 0.375, -2), 32, 24, false),        // farther away
            (SIMD3(0.5 + 0x1p-10, 0, -1), 128.125, 48, true),
            (SIMD3(-0.5 - 0x1p-10, 0, -1), -0.125, 48, true),
            (SIMD3(0, 0.375 + 0x1p-10, -1), 64, -0.125, true),
            (SIMD3(0, -0.4375, -1), 64, 104, true),
            (SIMD3(-3, 0, -1), -320, 48, true),
            (SIMD3(10, -10, -0.5), 2624, 2608, true),
        ]
        for (p, u, v, out) in cases {
            let r = try k.project(p, camera: .identity)
            #expect(!r.behind && r.u == u && r.v == v && r.outside == out, "\(p): \(r)")
        }
        // Random points: outside exactly when the Double projection is outside (away from the edges).
        var rng = SplitMix64(seed: 5004)
        var outsides = 0
        for _ in 0..<10000 {
            let pose = randomPose(&rng, range: 5)
            let local = SIMD3(rng.float(-3...3), rng.float(-3...3), -rng.float(0.2...5))
            let p = pose.apply(point: local)
            let r = try k.project(p, camera: pose)
            let ref = referenceProjection(k, pose, p)
            let margin = 1e-3
            let clearlyIn = ref.u > margin && ref.u < 128 - margin && ref.v > margin && ref.v < 96 - margin
            let clearlyOut = ref.u < -margin || ref.u > 128 + margin || ref.v < -margin || ref.v > 96 + margin
            #expect(!r.behind)
            if clearlyIn { #expect(!r.outside) }
            if clearlyOut { #expect(r.outside); outsides += 1 }
        }
        #expect(outsides > 3000)
    }

    @Test("validation: non-finite pixel coordinates and points are named")
    func validation() throws {
        for bad: Float in [.nan, .infinity, -.infinity] {
            expectError(.notFinite, containing: ["u"]) { () throws(FathomError) in _ = try Self.small.ray(camera: .identity, u: bad, v: 0) }
            expectError(.notFinite, containing: ["v"]) { () throws(FathomError) in _ = try Self.small.ray(camera: .identity, u: 0, v: bad) }
            expectError(.notFinite, containing: ["point.z"]) { () throws(FathomError) in _ = try Self.small.project(SIMD3(0, 0, bad), camera: .identity) }
        }
        // Far outside the image is allowed.
        let far = try Self.small.ray(camera: .identity, u: -1e6, v: 1e6)
        #expect(close(far.direction, referenceRayDirection(Self.small, .identity, u: -1e6, v: 1e6), 8 * Double(ulp)))
    }
}
