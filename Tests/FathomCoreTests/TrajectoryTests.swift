// Trajectory summaries and frame selection against hand-derived values (the checks Tests/c/test_motion.c made across
// the C ABI, made here once against the core). A summary runs the poses through a motion tracker: a step is a pair of
// consecutive accepted poses (a repeated timestamp's pose is ignored, a gap longer than max_gap is not a step), its
// speed |p1 - p0| / dt and angular speed angle(R0^T R1) / dt; path length and the seconds guided too slow / too fast
// add up over the steps; the speed percentiles are nearest-rank (the ceil(p n)-th smallest). Selection keeps pose 0,
// then each pose at least min_distance from, or turned at least min_angle from, the last pose kept.
import FathomCore
import Glibc
import Testing

private let nsPerSecond: Int64 = 1_000_000_000

/// Milliseconds as nanoseconds.
private func ms(_ value: Int64) -> Int64 { value * 1_000_000 }

/// A pose at `position` turned `angle` about +y (or about +x when `aboutX`).
private func pose(_ x: Double, _ y: Double, _ z: Double, turned angle: Double = 0, aboutX: Bool = false) -> Pose {
    Pose(rotation: (aboutX ? DMatrix3.rotationX(angle) : DMatrix3.rotationY(angle)).float,
         translation: SIMD3<Float>(SIMD3(x, y, z)))
}

@Suite("Trajectory summary and frame selection (hand values)")
struct TrajectoryTests {
    /// Eight poses with a repeated timestamp (pose 3) and a gap (0.3 s -> 1.0 s), worked out by hand:
    ///   step 0 -> 1: (0.003, 0, 0.004) = 0.005 m in 0.1 s = 0.05 m/s (too slow: < 0.127), 0.01 rad about y -> 0.1 rad/s
    ///   step 1 -> 2: (0, 0.02, 0) = 0.02 m -> 0.2 m/s (ok: 0.1524 ... 0.2032), 0.02 rad -> 0.2 rad/s
    ///   pose 3 repeats 0.2 s: ignored, although it is 10 m away and turned 2 rad about x
    ///   step 2 -> 4: (0.018, 0, -0.024) = 0.03 m -> 0.3 m/s (too fast: > 0.254), no turn
    ///   4 -> 5: 0.7 s > max_gap 0.5 s: a restart, not a step (1 m and 1 rad left out)
    ///   step 5 -> 6: (0, 0, 0.014) -> 0.14 m/s (slightly slow: 0.127 ... 0.1524), no turn
    ///   step 6 -> 7: (0.026, 0, 0) -> 0.26 m/s (too fast), 0.08 rad -> 0.8 rad/s
    static let times: [Int64] = [0, ms(100), ms(200), ms(200), ms(300), ms(1000), ms(1100), ms(1200)]
    static let poses: [Pose] = [
        pose(0, 1, 0), pose(0.003, 1, 0.004, turned: 0.01), pose(0.003, 1.02, 0.004, turned: 0.03),
        pose(10, 10, 10, turned: 2, aboutX: true), pose(0.021, 1.02, -0.02, turned: 0.03),
        pose(1.021, 1.02, -0.02, turned: 1.03), pose(1.021, 1.02, -0.006, turned: 1.03), pose(1.047, 1.02, -0.006, turned: 1.11),
    ]

    @Test("a hand-made trajectory: steps, path, nearest-rank percentiles, time too slow / too fast, the fastest turn")
    func handMade() throws {
        let s = try Trajectory.summarize(timestamps: Self.times, poses: Self.poses, options: MotionOptions())
        #expect(s.steps == 5)
        #expect(abs(s.duration - 1.2) < 1e-12)
        // 0.005 + 0.02 + 0.03 + 0.014 + 0.026 (the ignored pose would add some 33 m, the gap 1 m).
        #expect(abs(s.pathLength - 0.095) < 1e-6, "\(s.pathLength)")
        // Speeds sorted: 0.05, 0.14, 0.2, 0.26, 0.3. Nearest rank ceil(p n) of 5: p10 -> 1st, p50 -> 3rd, p90 -> 5th
        // (an interpolated p50 would also be 0.2 here; the ten-step test below tells them apart).
        #expect(abs(s.speedP10 - 0.05) < 2e-5 && abs(s.speedP50 - 0.2) < 2e-5, "\(s)")
        #expect(abs(s.speedP90 - 0.3) < 2e-5 && abs(s.speedMax - 0.3) < 2e-5, "\(s)")
        // Too slow: step 0 -> 1 only (slightly slow 5 -> 6 is not too slow); too fast: 2 -> 4 and 6 -> 7.
        #expect(abs(s.timeTooSlow - 0.1) < 1e-9 && abs(s.timeTooFast - 0.2) < 1e-9, "\(s)")
        // 0.8 rad/s at 6 -> 7; the ignored pose (2 rad in 0 s) and the gap (1 rad / 0.7 s = 1.43 rad/s) do not count.
        #expect(abs(s.angularSpeedMax - 0.8) < 2e-4, "\(s.angularSpeedMax)")
    }

    @Test("the options apply: fast_speed moves the too-fast time; a longer max_gap makes the gap a step")
    func options() throws {
        var o = MotionOptions()
        o.fastSpeed = 0.35  // above every step: nothing too fast; too slow is unchanged
        var s = try Trajectory.summarize(timestamps: Self.times, poses: Self.poses, options: o)
        #expect(s.timeTooFast == 0 && abs(s.timeTooSlow - 0.1) < 1e-9 && s.steps == 5)
        // max_gap 1 s: 4 -> 5 is a step of 1 m and 1 rad in 0.7 s (1.4286 m/s, too fast even for 0.35).
        o.maxGap = 1
        s = try Trajectory.summarize(timestamps: Self.times, poses: Self.poses, options: o)
        #expect(s.steps == 6 && abs(s.pathLength - 1.095) < 1e-6, "\(s)")
        #expect(abs(s.timeTooFast - 0.7) < 1e-9, "\(s.timeTooFast)")
        // Speeds sorted 0.05, 0.14, 0.2, 0.26, 0.3, 1.4286: p10 -> ceil(0.6) = 1st, p50 -> 3rd, p90 -> ceil(5.4) = 6th.
        #expect(abs(s.speedP10 - 0.05) < 2e-5 && abs(s.speedP50 - 0.2) < 2e-5, "\(s)")
        #expect(abs(Double(s.speedP90) - 1 / 0.7) < 1e-4 && abs(Double(s.speedMax) - 1 / 0.7) < 1e-4, "\(s)")
        #expect(abs(Double(s.angularSpeedMax) - 1 / 0.7) < 1e-3, "\(s.angularSpeedMax)")
    }

    @Test("percentiles are nearest-rank, whatever the order of the steps")
    func nearestRank() throws {
        // 11 poses 0.1 s apart along x, the ten steps at 0.01 * (7, 3, 10, 1, 5, 9, 2, 8, 6, 4) m/s. Sorted 0.01 ... 0.10:
        // p10 = 1st = 0.01, p50 = 5th = 0.05, p90 = 9th = 0.09 (interpolated: 0.019, 0.055, 0.091), max 0.10.
        let order: [Double] = [7, 3, 10, 1, 5, 9, 2, 8, 6, 4]
        var x = 0.0, poses = [pose(0, 0, 0)], times: [Int64] = [0]
        for (k, v) in order.enumerated() {
            x += 0.01 * v * 0.1
            poses.append(pose(x, 0, 0))
            times.append(Int64(k + 1) * ms(100))
        }
        let s = try Trajectory.summarize(timestamps: times, poses: poses, options: MotionOptions())
        #expect(s.steps == 10 && abs(s.duration - 1) < 1e-12)
        #expect(abs(s.speedP10 - 0.01) < 1e-5 && abs(s.speedP50 - 0.05) < 1e-5, "\(s)")
        #expect(abs(s.speedP90 - 0.09) < 1e-5 && abs(s.speedMax - 0.10) < 1e-5, "\(s)")
        #expect(abs(s.pathLength - 0.055) < 1e-6)
        // Every step is below 0.127 m/s: the whole second too slow.
        #expect(abs(s.timeTooSlow - 1) < 1e-9 && s.timeTooFast == 0)
    }

    @Test("a summary needs two poses with non-decreasing timestamps; the options are checked")
    func summaryErrors() {
        expectError(.outOfRange) { () throws(FathomError) in
            _ = try Trajectory.summarize(timestamps: [0], poses: [pose(0, 0, 0)], options: MotionOptions())
        }
        var times = Self.times
        times[4] = times[2] - 1  // before the last accepted pose
        expectError(.outOfRange, containing: ["timestamps[4]"]) { () throws(FathomError) in
            _ = try Trajectory.summarize(timestamps: times, poses: Self.poses, options: MotionOptions())
        }
        var o = MotionOptions()
        o.slightly = 1
        expectError(.outOfRange, containing: ["slightly"]) { () throws(FathomError) in
            _ = try Trajectory.summarize(timestamps: Self.times, poses: Self.poses, options: o)
        }
    }

    @Test("selection by distance: measured from the last pose kept, a pose exactly min_distance away is kept")
    func selectByDistance() throws {
        // x = 0.04 i: 0 is kept; then the first at least 0.1 from 0 is 0.12 (i = 3); from 0.12, 0.24 (i = 6); then 0.36
        // (i = 9). (Measured from the previous pose, nothing after 0 would be kept; from pose 0, every pose from 3 on.)
        var poses = (0..<10).map { pose(0.04 * Double($0), 1, 0) }
        #expect(try Trajectory.select(poses: poses, minDistance: 0.1, minAngle: .infinity) == [0, 3, 6, 9])
        // x = 0.05 i (as floats, 0.1 and 0.2 are exactly twice and four times 0.05): 2 is exactly 0.1 from 0 and 4 exactly
        // 0.1 from 2, so both are kept (with a strict > it would be 0 and 3).
        poses = (0..<5).map { pose(0.05 * Double($0), 1, 0) }
        #expect(try Trajectory.select(poses: poses, minDistance: 0.1, minAngle: .infinity) == [0, 2, 4])
        // A single pose: itself; none: nothing.
        #expect(try Trajectory.select(poses: [poses[3]], minDistance: 0.1, minAngle: 0.5) == [0])
        #expect(try Trajectory.select(poses: [], minDistance: 0.1, minAngle: 0.5) == [])
    }

    @Test("selection by angle (the angle of the relative rotation), and by either threshold")
    func selectByAngle() throws {
        // Standing still, 0.15 i rad about y; min_angle 0.5: 0, then 4 (0.6 from 0), then 8 (1.2 - 0.6 = 0.6).
        var poses = (0..<10).map { pose(0, 1, 0, turned: 0.15 * Double($0)) }
        #expect(try Trajectory.select(poses: poses, minDistance: .infinity, minAngle: 0.5) == [0, 4, 8])
        // Turned 0.3 about x, then 0.3 about y: the relative rotation R_x(0.3)^T R_y(0.3) turns 2 acos(cos^2 0.15) =
        // 0.4235 rad (its quaternion's real part is cos 0.15 cos 0.15, the axes being perpendicular), more than the 0.3
        // a difference of headings or of single angles would give: kept at 0.42, not at 0.43.
        let turn = 2 * acos(cos(0.15) * cos(0.15))
        #expect(abs(turn - 0.42347) < 1e-5)
        poses = [pose(0, 1, 0, turned: 0.3, aboutX: true), pose(0, 1, 0, turned: 0.3)]
        #expect(try Trajectory.select(poses: poses, minDistance: .infinity, minAngle: 0.42) == [0, 1])
        #expect(try Trajectory.select(poses: poses, minDistance: .infinity, minAngle: 0.43) == [0])
        // Either threshold: x = 0.04 i for i < 5, then standing at 0.16 turning 0.3 rad per pose. Distance 0.1 keeps 3
        // (0.12); from 3, pose 5 (0.3 rad, 0.04 m) is not far enough either way, 6 (0.6 rad) is; from 6, 8 (0.6 rad).
        poses = (0..<10).map { i in pose(0.04 * Double(min(i, 4)), 1, 0, turned: i < 5 ? 0 : 0.3 * Double(i - 4)) }
        #expect(try Trajectory.select(poses: poses, minDistance: 0.1, minAngle: 0.5) == [0, 3, 6, 8])
    }

    @Test("selection needs thresholds > 0, not both infinite")
    func selectErrors() {
        let poses = [pose(0, 0, 0), pose(1, 0, 0)]
        for (distance, angle, kind, name): (Float, Float, FathomError.Kind, String) in [
            (.infinity, .infinity, .outOfRange, "min_distance and min_angle"), (.nan, 0.5, .notFinite, "min_distance"),
            (0.1, -1, .outOfRange, "min_angle"), (0, .infinity, .outOfRange, "min_distance"),
        ] {
            expectError(kind, containing: [name]) { () throws(FathomError) in
                _ = try Trajectory.select(poses: poses, minDistance: distance, minAngle: angle)
            }
        }
    }
}
