// The batch entry points of capture guidance against the single calls they stand for: every state and view result,
// and the trackers' counts, must be the same bit for bit, for any count (whole blocks of eight lanes and a tail), with
// smoothing, gaps, repeated timestamps, every rule of the coverage options, and a refused pose in the middle.
import FathomCore
import Glibc
import Testing

/// Poses as the C ABI lays them out: 16 floats each, column-major, one after the other.
private func flat(_ poses: [Pose]) -> [Float] { poses.flatMap(\.columnMajor) }

/// A camera at `eye` looking along `forward` (its -z), level where it can be.
private func camera(at eye: SIMD3<Float>, looking forward: SIMD3<Float>) -> Pose {
    let z = -forward / length(forward)
    let up: SIMD3<Float> = abs(z.y) > 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
    let x = cross(up, z) / length(cross(up, z))
    return Pose(rotation: Matrix3(x, cross(z, x), z), translation: eye)
}

@Suite("Guidance batches")
struct GuidanceBatchTests {
    /// A walk: small turns and steps, with repeated timestamps, gaps and the odd jump to a random orientation.
    static func walk(_ n: Int) throws -> (times: [Int64], poses: [Pose]) {
        var rng = SplitMix64(seed: 11)
        var times: [Int64] = [], poses: [Pose] = []
        var t: Int64 = 5_000_000_000
        var pose = randomPose(&rng, range: 1)
        for _ in 0..<n {
            let event = rng.int(0...24)
            t += event == 0 ? 0 : (event == 1 ? 900_000_000 : Int64(rng.int(1_000_000...40_000_000)))
            if event == 2 {
                pose = randomPose(&rng, range: 1)
            } else {
                let turn = try Quaternion(axis: SIMD3(1, 2, 3) + rng.vector(-0.5...0.5), angle: rng.float(0...0.05)).matrix
                pose = Pose(rotation: pose.rotation * turn, translation: pose.translation + rng.vector(-0.01...0.01))
            }
            times.append(t)
            poses.append(pose)
        }
        return (times, poses)
    }

    /// The states of a batch update of `times`/`floats` (count values), and its error if it stopped.
    static func batch(_ tracker: inout MotionTracker, _ times: [Int64], _ floats: [Float], _ count: Int) -> ([MotionState], FathomError?) {
        var states: [MotionState] = []
        let error = times.withUnsafeBufferPointer { t in
            floats.withUnsafeBufferPointer { p in
                do throws(FathomError) {
                    try tracker.update(timestamps: t.baseAddress!, poses: p.baseAddress!, count: count, poseName: { "poses[\($0)]" }) { i, state in
                        #expect(i == states.count)
                        states.append(state)
                    }
                    return nil as FathomError?
                } catch { return error }
            }
        }
        return (states, error)
    }

    @Test("motion: batch states equal the single updates', with and without smoothing, for any count")
    func motion() throws {
        let (times, poses) = try Self.walk(517)
        for timeConstant: Float in [0, 0.1] {
            var options = MotionOptions()
            options.timeConstant = timeConstant
            for count in [517, 64, 9, 8, 7, 1] {
                var single = try MotionTracker(options: options), batched = try MotionTracker(options: options)
                let expected = try (0..<count).map { try single.update(timestamp: times[$0], pose: poses[$0]) }
                let (states, error) = Self.batch(&batched, times, flat(poses), count)
                #expect(error == nil && states == expected, "time constant \(timeConstant), count \(count)")
                // The tracker carries on from the same last pose.
                let next = Pose(rotation: poses[0].rotation, translation: poses[count - 1].translation + SIMD3(0.003, 0, 0))
                #expect(try batched.update(timestamp: times[count - 1] + 16_000_000, pose: next)
                        == single.update(timestamp: times[count - 1] + 16_000_000, pose: next))
            }
        }
    }

    @Test("motion: a refused pose or timestamp stops the batch there, named, with the poses before it applied")
    func motionErrors() throws {
        var (times, poses) = try Self.walk(300)
        var floats = flat(poses)
        floats[16 * 205 + 5] *= 1.5  // not rigid
        times[117] = times[116] - 1  // earlier than the last accepted one
        var single = try MotionTracker(options: MotionOptions())
        let expected = try (0..<117).map { try single.update(timestamp: times[$0], pose: poses[$0]) }
        var batched = try MotionTracker(options: MotionOptions())
        var (states, error) = Self.batch(&batched, times, floats, 300)
        #expect(error?.kind == .outOfRange && error?.message.hasPrefix("timestamps[117]: ") == true && states == expected)
        #expect(batched.state == single.state)
        // With the timestamp repaired, the non-rigid pose stops it (named as the caller named it).
        times[117] = times[116] + 1
        poses[117] = poses[116]
        floats = flat(poses)
        floats[16 * 205 + 5] *= 1.5
        single = try MotionTracker(options: MotionOptions())
        let before = try (0..<205).map { try single.update(timestamp: times[$0], pose: poses[$0]) }
        batched = try MotionTracker(options: MotionOptions())
        (states, error) = Self.batch(&batched, times, floats, 300)
        #expect(error?.kind == .notRigid && error?.message.hasPrefix("poses[205] is not rigid") == true && states == before)
        #expect(batched.state == single.state)
    }

    /// Cameras around and inside the box: looking near its centre, straight along the world axes, or anywhere.
    static func cameras(_ n: Int, around centre: SIMD3<Float>) -> [Pose] {
        var rng = SplitMix64(seed: 23)
        return (0..<n).map { i in
            let eye = centre + (i % 10 == 0 ? rng.vector(-0.2...0.2) : rng.vector(-2.5...2.5))
            var forward = centre + rng.vector(-0.6...0.6) - eye
            if i % 5 == 1 {
                forward = .zero
                forward[rng.int(0...2)] = rng.int(0...1) == 0 ? -1 : 1
            }
            return camera(at: eye, looking: length(forward) > 1e-3 ? forward : SIMD3(0, 0, -1))
        }
    }

    /// The results of a batch record of `floats` (count views), and its error if it stopped.
    static func batch(_ tracker: CoverageTracker, _ floats: [Float], _ count: Int, _ k: Intrinsics?) -> ([ViewRecord], FathomError?) {
        let sentinel = ViewRecord(status: 99, face: 0, cell: 0, bin: 0, distance: 0, completedFace: 0)
        var results = [ViewRecord](repeating: sentinel, count: count)
        let error = floats.withUnsafeBufferPointer { p in
            results.withUnsafeMutableBufferPointer { out in
                do throws(FathomError) {
                    try tracker.record(poses: p.baseAddress!, count: count, intrinsics: k, poseName: { "poses[\($0)]" }, into: out.baseAddress!)
                    return nil as FathomError?
                } catch { return error }
            }
        }
        // The results written: those before the refused pose.
        return (Array(results.prefix { $0 != sentinel }), error)
    }

    /// Every count a tracker exposes.
    static func counts(_ t: CoverageTracker) -> [Int] {
        t.faceCounts + t.binCounts + (0..<6).flatMap { t.cellCounts(face: $0) } + [t.views, t.counted]
    }

    @Test("coverage: batch results and counts equal the single records', under every rule, for any count")
    func coverage() throws {
        let onFloor = try Box(center: SIMD3(0.2, 0.45, -1.5), scale: SIMD3(0.5, 0.9, 0.4), rotY: 0.4, floor: 0)
        let square = try Box(center: SIMD3(0, 0.5, 0), scale: SIMD3(1, 1, 1), rotY: 0)  // local axes = world axes
        let k = try Intrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
        var plain = CoverageOptions(), similar = CoverageOptions(), near = CoverageOptions(), framed = CoverageOptions()
        plain.minSeparationAngle = 0
        (plain.cells, plain.rings, plain.sectors, plain.goal) = (4, 4, 12, 3)
        near.minSeparationAngle = 0
        (near.minDistance, near.maxDistance, near.hemisphere, near.cells, near.rings, near.sectors) = (0.5, 1.5, false, 7, 5, 9)
        framed.minSeparationAngle = 0
        framed.minInView = 0.5
        for box in [onFloor, square] {
            let poses = Self.cameras(301, around: box.center)
            for (options, lens) in [(plain, nil), (similar, nil), (near, nil), (framed, k), (plain, k)] as [(CoverageOptions, Intrinsics?)] {
                for count in [301, 64, 65, 9, 8, 7, 1] {
                    let single = try CoverageTracker(box: box, options: options), batched = try CoverageTracker(box: box, options: options)
                    let expected = (0..<count).map { single.record(camera: poses[$0], intrinsics: lens) }
                    let (results, error) = Self.batch(batched, flat(poses), count, lens)
                    #expect(error == nil && results == expected.map(ViewRecord.init) && Self.counts(batched) == Self.counts(single)
                            && batched.lastDistance == single.lastDistance, "\(options), count \(count)")
                    // Without a results buffer: the same counts.
                    let unbuffered = try CoverageTracker(box: box, options: options)
                    try flat(poses).withUnsafeBufferPointer { p in
                        try unbuffered.record(poses: p.baseAddress!, count: count, intrinsics: lens, poseName: { "poses[\($0)]" }, into: nil)
                    }
                    #expect(Self.counts(unbuffered) == Self.counts(single) && unbuffered.lastDistance == single.lastDistance)
                }
            }
        }
    }

    @Test("coverage: a refused pose stops the batch there, named, with the views before it recorded")
    func coverageErrors() throws {
        let box = try Box(center: SIMD3(0, 0.5, 0), scale: SIMD3(1, 1, 1), rotY: 0.3, floor: 0)
        var options = CoverageOptions()
        options.minSeparationAngle = 0
        let poses = Self.cameras(200, around: box.center)
        // Every kind of entry (rotation, bottom row, translation), NaN and infinite, in every kind of lane.
        for (bad, element) in [(0, 14), (7, 0), (8, 5), (69, 10), (130, 3), (131, 15), (199, 12), (150, 9)] {
            var floats = flat(poses)
            floats[16 * bad + element] = bad % 2 == 0 ? .nan : -.infinity
            let single = try CoverageTracker(box: box, options: options), batched = try CoverageTracker(box: box, options: options)
            let expected = (0..<bad).map { single.record(camera: poses[$0], intrinsics: nil) }
            let (results, error) = Self.batch(batched, floats, 200, nil)
            #expect(error?.kind == .notFinite && error?.message.hasPrefix("poses[\(bad)][\(element)]") == true, "\(String(describing: error))")
            #expect(results == expected.map(ViewRecord.init) && Self.counts(batched) == Self.counts(single), "bad pose \(bad)")
        }
    }
}
