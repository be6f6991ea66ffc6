// The batch trackers' eight-pose lanes (PoseLanes: eight column-major poses transposed into SIMD lanes, each lane's
// rigidity tested, the pose before each lane shifted in) against the scalar path and against hand-derived values, in
// every lane of a block and in the tail after the last whole block. The rigidity rule is the one
// Pose(columnMajor:tolerance:) applies to a single pose: every value finite, the bottom row within the tolerance
// (1e-3) of (0, 0, 0, 1), each entry of R^T R - I within it, no reflection. (The C ABI's fathom_pose_transform_points
// has no lane path: it maps point by point with Pose.apply, and Tests/c checks it against single calls.)
import FathomCore
import Glibc
import Testing

/// Poses as the C ABI lays them out: 16 floats each, column-major, one after the other.
private func flat(_ poses: [Pose]) -> [Float] { poses.flatMap(\.columnMajor) }

/// Pose i of `floats` through the single path's rigidity test.
private func pose(_ i: Int, of floats: [Float]) throws -> Pose { try Pose(columnMajor: Array(floats[(16 * i)..<(16 * i + 16)])) }

/// The states of a batch motion update of `count` poses, and its error if it stopped.
private func motionBatch(_ times: [Int64], _ floats: [Float], _ count: Int) throws -> (MotionTracker, [MotionState], FathomError?) {
    var tracker = try MotionTracker(options: MotionOptions())
    var states: [MotionState] = []
    var stopped: FathomError?
    times.withUnsafeBufferPointer { t in
        floats.withUnsafeBufferPointer { p in
            do throws(FathomError) {
                try tracker.update(timestamps: t.baseAddress!, poses: p.baseAddress!, count: count,
                                   poseName: { "poses[\($0)]" }) { _, s in states.append(s) }
            } catch { stopped = error }
        }
    }
    return (tracker, states, stopped)
}

/// The records of a batch coverage record of `count` views into `tracker` (99 where none was written), and its error.
private func coverageBatch(_ tracker: CoverageTracker, _ floats: [Float], _ count: Int) -> ([ViewRecord], FathomError?) {
    let unwritten = ViewRecord(status: 99, face: 0, cell: 0, bin: 0, distance: 0, completedFace: 0)
    var records = [ViewRecord](repeating: unwritten, count: count)
    var stopped: FathomError?
    floats.withUnsafeBufferPointer { p in
        records.withUnsafeMutableBufferPointer { out in
            do throws(FathomError) {
                try tracker.record(poses: p.baseAddress!, count: count, intrinsics: nil, poseName: { "poses[\($0)]" },
                                   into: out.baseAddress!)
            } catch { stopped = error }
        }
    }
    return (records, stopped)
}

/// 29 poses: three whole blocks of eight and a tail of five. Pose k is turned 0.005 k about +y at
/// (0.001 k, 1, -0.002 k), 16 + k % 3 ms after the one before: a walk whose optical axis (-z) stays on the box in front.
private let walkCount = 29
private let walkTimes: [Int64] = (0..<walkCount).reduce(into: [Int64]()) { times, k in
    let step = Int64(16 + k % 3) * 1_000_000
    times.append(k == 0 ? 5_000_000_000 : times[k - 1] + step)
}
private let walk: [Pose] = (0..<walkCount).map { k in
    Pose(rotation: DMatrix3.rotationY(0.005 * Double(k)).float, translation: SIMD3(0.001 * Float(k), 1, -0.002 * Float(k)))
}

/// A change to one pose's 16 floats, and whether the rigidity rule accepts the result.
private struct Deviation: Sendable {
    let name: String, accepted: Bool
    let apply: @Sendable (inout [Float]) -> Void
}

/// Scale column c (of the rotation) so that its squared length is 1 + e.
private func lengthen(_ c: Int, _ e: Float) -> @Sendable (inout [Float]) -> Void {
    { m in let s = (1 + e).squareRoot(); for r in 0..<3 { m[4 * c + r] *= s } }
}

private let tolerance: Float = 1e-3
private let deviations: [Deviation] = [
    Deviation(name: "|c0|^2 - 1 = 0.9 tol", accepted: true, apply: lengthen(0, 0.9 * tolerance)),
    Deviation(name: "|c0|^2 - 1 = 1.1 tol", accepted: false, apply: lengthen(0, 1.1 * tolerance)),
    Deviation(name: "|c2|^2 - 1 = -1.1 tol", accepted: false, apply: lengthen(2, -1.1 * tolerance)),
    // c1 += k c0 makes c0 . c1 = k (and |c1|^2 = 1 + k^2, far inside).
    Deviation(name: "c0 . c1 = 0.9 tol", accepted: true, apply: { m in for r in 0..<3 { m[4 + r] += 0.9 * tolerance * m[r] } }),
    Deviation(name: "c0 . c1 = 1.1 tol", accepted: false, apply: { m in for r in 0..<3 { m[4 + r] += 1.1 * tolerance * m[r] } }),
    Deviation(name: "m[3] = 0.9 tol", accepted: true, apply: { $0[3] = 0.9 * tolerance }),
    Deviation(name: "m[7] = 1.1 tol", accepted: false, apply: { $0[7] = 1.1 * tolerance }),
    Deviation(name: "m[11] = -0.9 tol", accepted: true, apply: { $0[11] = -0.9 * tolerance }),
    Deviation(name: "m[15] = 1 - 1.1 tol", accepted: false, apply: { $0[15] = 1 - 1.1 * tolerance }),
    Deviation(name: "a reflection (c2 negated)", accepted: false, apply: { m in for r in 8..<11 { m[r] = -m[r] } }),
    Deviation(name: "a translation of 1e30 m (finite)", accepted: true, apply: { $0[12] = 1e30 }),
]

@Suite("Pose lanes: the batch trackers' eight-pose blocks against the scalar path")
struct PoseLanesTests {
    @Test("rigidity: the lanes accept and refuse exactly what a single pose's test does, in every lane and in the tail")
    func rigidityPerLane() throws {
        let box = try Box(center: SIMD3(0, 1, -3), scale: SIMD3(1, 1, 1), rotY: 0)
        var coverageOptions = CoverageOptions()
        coverageOptions.minSeparationAngle = 0  // no similarity rule: the coverage batch takes its lane path
        for deviation in deviations {
            for bad in 0..<walkCount {
                var floats = flat(walk)
                var changed = Array(floats[(16 * bad)..<(16 * bad + 16)])
                deviation.apply(&changed)
                floats.replaceSubrange((16 * bad)..<(16 * bad + 16), with: changed)
                // The scalar rule on the changed pose agrees with the deviation's intent; the single path applies the
                // poses up to a refused one.
                #expect(((try? pose(bad, of: floats)) != nil) == deviation.accepted, "\(deviation.name): the scalar rule")
                let stop = deviation.accepted ? walkCount : bad
                let context = "\(deviation.name) at pose \(bad)"

                var one = try MotionTracker(options: MotionOptions())
                let expected = try (0..<stop).map { i in try one.update(timestamp: walkTimes[i], pose: pose(i, of: floats)) }
                let (many, states, motionError) = try motionBatch(walkTimes, floats, walkCount)
                #expect(states == expected && many.state == one.state, "motion, \(context)")
                #expect(deviation.accepted ? motionError == nil : motionError?.message.hasPrefix("poses[\(bad)]") == true,
                        "motion, \(context): \(String(describing: motionError))")

                let single = try CoverageTracker(box: box, options: coverageOptions)
                let results = try (0..<stop).map { i in ViewRecord(single.record(camera: try pose(i, of: floats), intrinsics: nil)) }
                let batched = try CoverageTracker(box: box, options: coverageOptions)
                let (records, coverageError) = coverageBatch(batched, floats, walkCount)
                #expect(Array(records.prefix(stop)) == results && batched.binCounts == single.binCounts
                        && batched.faceCounts == single.faceCounts && batched.views == single.views, "coverage, \(context)")
                #expect(deviation.accepted ? coverageError == nil : coverageError?.message.hasPrefix("poses[\(bad)]") == true,
                        "coverage, \(context): \(String(describing: coverageError))")
            }
        }
    }

    @Test("each lane reads its own pose and the one before it: hand-derived velocities and angular speeds of 19 steps")
    func motionSteps() throws {
        // 20 poses (two blocks, then a tail of four). Pose k at (0.002 k^2, -0.003 k, 0.001 k), (10 + k) ms after pose
        // k - 1, turned 0.01 k about +x (k even) or +y (k odd). Step k moves (0.002 (2k - 1), -0.003, 0.001) in (10 + k)
        // ms and turns by the rotation R_x(a)^T R_y(b) (or R_y^T R_x), a, b = 0.01 (k - 1), 0.01 k in some order: its
        // quaternion's real part is cos(a / 2) cos(b / 2) (perpendicular axes), so its angle is
        // 2 acos(cos(a / 2) cos(b / 2)).
        let n = 20
        var times: [Int64] = [1_000_000_000], poses: [Pose] = []
        for k in 0..<n {
            if k > 0 { times.append(times[k - 1] + Int64(10 + k) * 1_000_000) }
            let a = 0.01 * Double(k)
            let rotation = k % 2 == 0 ? DMatrix3.rotationX(a) : DMatrix3.rotationY(a)
            let position = SIMD3(0.002 * Double(k * k), -0.003 * Double(k), 0.001 * Double(k))
            poses.append(Pose(rotation: rotation.float, translation: SIMD3<Float>(position)))
        }
        let (_, states, stopped) = try motionBatch(times, flat(poses), n)
        #expect(stopped == nil && states.count == n)
        for k in 1..<min(n, states.count) {
            let dt = Double(10 + k) * 1e-3
            let velocity = SIMD3(0.002 * Double(2 * k - 1), -0.003, 0.001) / dt
            let turn = 2 * acos(cos(0.005 * Double(k - 1)) * cos(0.005 * Double(k)))
            let s = states[k]
            #expect(close(s.velocity, velocity, 1e-5 * (1 + length(velocity))), "step \(k): \(s.velocity) vs \(velocity)")
            #expect(abs(Double(s.speed) - length(velocity)) < 1e-5 * (1 + length(velocity)), "step \(k): \(s.speed)")
            #expect(abs(Double(s.angularSpeed) - turn / dt) < 2e-4, "step \(k): \(s.angularSpeed) vs \(turn / dt)")
        }
    }

    @Test("each lane reads its own camera axis: the face and distance of 19 hand-placed views")
    func coverageViews() throws {
        // The unit cube at (0, 0.5, 0). View k looks straight at face k % 6 (front -z, left -x, right +x, bottom -y,
        // top +y, back +z) from 1 + 0.1 k m in front of it, 0.1 m off the face's centre along one of its axes: that
        // face, at that distance. (A lane reading a pose's row instead of its column, or another lane's pose, would
        // look elsewhere.)
        let box = try Box(center: SIMD3(0, 0.5, 0), scale: SIMD3(1, 1, 1), rotY: 0)
        let outward: [SIMD3<Float>] = [SIMD3(0, 0, -1), SIMD3(-1, 0, 0), SIMD3(1, 0, 0),
                                       SIMD3(0, -1, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        let sideways: [SIMD3<Float>] = [SIMD3(0.1, 0, 0), SIMD3(0, 0.1, 0), SIMD3(0, 0, 0.1),
                                        SIMD3(0.1, 0, 0), SIMD3(0, 0, 0.1), SIMD3(0, 0.1, 0)]
        let n = 19
        let poses = (0..<n).map { k -> Pose in
            let f = k % 6, d = 1 + 0.1 * Float(k)
            // The camera's z is the outward normal (it looks along -z, into the face); x and y complete a rotation.
            let z = outward[f], x: SIMD3<Float> = abs(z.x) > 0.5 ? SIMD3(0, 0, -z.x) : SIMD3(1, 0, 0)
            return Pose(rotation: Matrix3(x, cross(z, x), z), translation: box.center + (0.5 + d) * z + sideways[f])
        }
        var options = CoverageOptions()
        options.minSeparationAngle = 0
        let tracker = try CoverageTracker(box: box, options: options)
        let (records, stopped) = coverageBatch(tracker, flat(poses), n)
        #expect(stopped == nil)
        for k in 0..<n {
            let r = records[k]
            #expect(r.status == ViewStatus.counted.rawValue && r.face == UInt32(k % 6), "view \(k): \(r)")
            #expect(abs(r.distance - (1 + 0.1 * Float(k))) < 1e-5, "view \(k): \(r.distance)")
        }
        #expect(tracker.faceCounts == [4, 3, 3, 3, 3, 3])
    }
}
