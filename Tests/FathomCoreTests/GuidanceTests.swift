// Capture guidance against hand-derived values and independent computations: equal-area bins checked by
// the area of each bin (Archimedes: area = 2 pi * height step / sectors), rotation angles against a Double
// quaternion computation, the app's interval policy step by step, and coverage of a hand-placed camera.
import FathomCore
import Glibc
import Testing

@Suite("View bins")
struct ViewBinTests {
    @Test("bins are equal-area: a dense Fibonacci lattice of directions falls evenly into them")
    func equalArea() {
        for hemisphere in [false, true] {
            let bins = ViewBins(rings: 4, sectors: 12, hemisphere: hemisphere)
            var counts = [Int](repeating: 0, count: bins.count)
            let n = 200_000
            let golden = Double.pi * (3 - 5.0.squareRoot())
            for i in 0..<n {
                // Heights uniform in [-1, 1] (or [0, 1]) and golden-angle azimuths: uniform on the (hemi)sphere.
                let y = hemisphere ? (Double(i) + 0.5) / Double(n) : 1 - 2 * (Double(i) + 0.5) / Double(n)
                let r = (1 - y * y).squareRoot(), phi = golden * Double(i)
                counts[bins.bin(of: SIMD3(Float(r * cos(phi)), Float(y), Float(r * sin(phi))))] += 1
            }
            let expected = Double(n) / Double(bins.count)
            #expect(counts.allSatisfy { abs(Double($0) - expected) < 0.01 * expected }, "\(counts)")
        }
    }

    @Test("bin centres lie in their own bins; azimuth from +x toward +z")
    func centres() {
        let bins = ViewBins(rings: 3, sectors: 8, hemisphere: false)
        for b in 0..<bins.count { #expect(bins.bin(of: bins.centre(of: b)) == b) }
        #expect(bins.bin(of: SIMD3(0, 0, 1)) == 1 * 8 + 2)  // height 0: ring 1; azimuth 90 deg: sector 2
    }
}

@Suite("Motion")
struct MotionTests {
    @Test("rotation angle matches a Double quaternion computation, including tiny and near-pi angles")
    func angles() throws {
        for angle: Float in [1e-6, 1e-3, 0.3, 2, 3.14] {
            let a = try Quaternion(axis: SIMD3(1, 2, 3), angle: 0.4).matrix
            let b = try (Quaternion(axis: SIMD3(1, 2, 3), angle: 0.4) * Quaternion(axis: SIMD3(-2, 0.5, 1), angle: angle)).matrix
            #expect(abs(rotationAngle(a, b) - angle) <= 1e-6 + 2e-6 * angle, "angle \(angle): \(rotationAngle(a, b))")
        }
    }

    @Test("speed, guidance bands and the app's capture interval, step by step")
    func policy() throws {
        var options = MotionOptions()
        options.maxGap = 10  // steps of up to 2 s below are not gaps
        var tracker = try MotionTracker(options: options)
        func at(_ seconds: Double, _ x: Float) throws -> MotionState {
            try tracker.update(timestamp: Int64(seconds * 1e9), pose: Pose(rotation: Matrix3.identity, translation: SIMD3(x, 0, 0)))
        }
        var s = try at(0, 0)
        #expect(s.guidance == .unknown && s.captureInterval == 3 && s.timeToCapture == 3)
        s = try at(1, 0.1)  // 0.1 m/s = 3.9 in/s
        #expect(abs(s.speed - 0.1) < 1e-6 && s.guidance == .tooSlow)
        s = try at(1.5, 0.2)  // 0.2 m/s = 7.9 in/s
        #expect(s.guidance == .ok)
        s = try at(2, 0.32)  // 0.24 m/s = 9.4 in/s: within 20% of 10
        #expect(s.guidance == .slightlyFast)
        s = try at(3, 0.52)  // 0.2 m/s at the capture due at 3 s: [5, 8) in/s -> 2 s
        #expect(s.captured && s.captureInterval == 2 && s.timeToCapture == 2)
        s = try at(3, 0.6)  // the same timestamp: skipped, nothing changes
        #expect(s.skipped && abs(s.speed - 0.2) < 1e-6)
        #expect(throws: FathomError.self) { try at(2.5, 0) }
        s = try at(3.5, 0.6)  // 0.08 / 0.5 = 0.16 m/s = 6.3 in/s: ok (slightly slow ends at 6 in/s)
        #expect(!s.captured && s.guidance == .ok)
        s = try at(4, 0.675)  // 0.15 m/s = 5.9 in/s: slightly slow
        #expect(s.guidance == .slightlySlow)
        s = try at(5, 0.975)  // 0.3 m/s: too fast; the capture due at 5 s keeps the interval
        #expect(s.captured && s.guidance == .tooFast && s.captureInterval == 2)
        s = try at(7, 1.075)  // 0.05 m/s: too slow; the capture at 7 s sets 3 s
        #expect(s.captured && s.guidance == .tooSlow && s.captureInterval == 3)
    }
}

@Suite("Coverage")
struct CoverageTests {
    @Test("a hand-placed camera counts the face it looks at; goal, completion once, colours")
    func handPlaced() throws {
        var options = CoverageOptions()
        options.goal = 2
        options.minSeparationAngle = 0  // every view counts
        let box = try Box(center: SIMD3(0, 0.5, 0), scale: SIMD3(1, 1, 1), rotY: 0, floor: 0)
        let tracker = try CoverageTracker(box: box, options: options)
        // A camera at x = 3 looking along -x (its -z): rotation maps camera z to world +x.
        let camera = Pose(rotation: Matrix3(SIMD3(0, 0, -1), SIMD3(0, 1, 0), SIMD3(1, 0, 0)), translation: SIMD3(3, 0.5, 0.3))
        let first = tracker.record(camera: camera, intrinsics: nil)
        #expect(first.status == .counted && first.face == 2 && first.distance == 2.5 && first.completedFace == nil)
        // Right face cells run along (z, y): z = 0.3 -> a = floor(0.8 * 4) = 3; y = 0.5 -> b = 2.
        #expect(first.cell == 2 * 4 + 3)
        #expect(tracker.face(2).color == SIMD3(0.5, 1, 0.5) && tracker.face(2).opacity == 0.5)
        #expect(tracker.record(camera: camera, intrinsics: nil).completedFace == 2)
        #expect(tracker.record(camera: camera, intrinsics: nil).completedFace == nil)
        #expect(tracker.face(2).opacity == 0 && tracker.face(2).complete && tracker.face(2).count == 3)
        #expect(!tracker.face(3).needed && tracker.summary.facesNeeded == 5)
        tracker.reset()
        #expect(tracker.face(2).count == 0 && tracker.record(camera: camera, intrinsics: nil).completedFace == nil)
    }
}

@Suite("fastAtan2")
struct FastAtan2Tests {
    @Test("within 4e-7 rad of Double atan2 (under two float ulps of pi), over every quadrant, octant boundary and scale")
    func accuracy() {
        var rng = SplitMix64(seed: 5)
        var worst = 0.0
        for i in 0..<200_000 {
            let scale = Float(pow(10, rng.double(-6...6)))
            var y = rng.float(-1...1) * scale, x = rng.float(-1...1) * scale
            if i % 7 == 0 { y = x * Float([1, -1, 0.414_213_56, 2.414_213_6][i % 4]) }  // octant boundaries
            let exact = atan2(Double(y), Double(x)), result = fastAtan2(y, x)
            worst = Swift.max(worst, abs(Double(result) - exact))
        }
        #expect(worst < 4e-7, "worst error \(worst)")
        #expect(fastAtan2(0, 1) == 0 && fastAtan2(1, 0) == .pi / 2 && fastAtan2(0, -1) == .pi && fastAtan2(-1, 0) == -.pi / 2)
    }

    @Test("the eight-lane version gives the scalar results bit for bit, zeros and signed zeros included")
    func lanes() {
        var rng = SplitMix64(seed: 6)
        let special: [Float] = [0, -0.0, 1, -1, 0.414_213_56, 2.414_213_6, .leastNormalMagnitude]
        for i in 0..<20_000 {
            var y = SIMD8<Float>(), x = SIMD8<Float>()
            for j in 0..<8 {
                let scale = Float(pow(10, rng.double(-6...6)))
                y[j] = i % 3 == 0 ? special[rng.int(0...6)] : rng.float(-1...1) * scale
                x[j] = i % 5 == 0 ? special[rng.int(0...6)] : rng.float(-1...1) * scale
            }
            let lanes = fastAtan2(y, x)
            for j in 0..<8 where lanes[j].bitPattern != fastAtan2(y[j], x[j]).bitPattern {
                Issue.record("fastAtan2(\(y[j]), \(x[j])): lanes \(lanes[j]), scalar \(fastAtan2(y[j], x[j]))")
            }
        }
    }
}
