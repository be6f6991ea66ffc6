import CLanes

extension MotionTracker {
    /// Feeds `count` timestamped poses in order, each exactly as `update(timestamp:pose:)` would (the states agree bit
    /// for bit), handing each state to `body` with its index. Poses are read in place: 16 floats each, column-major, one
    /// after the other.
    ///
    /// Stops at the first pose that is not rigid (`.notFinite` or `.notRigid`, named by `poseName(i)`) or whose
    /// timestamp is before the last accepted one (`.outOfRange`, "timestamps[i]: ..."); the poses before it stay
    /// applied, and the refused one changes nothing. Inlinable so that a caller's `body` (the C ABI's conversion into
    /// its state struct) is specialised into the loop.
    ///
    /// Eight poses at a time are transposed into lanes, which check rigidity and compute each pose's raw velocity, speed
    /// and angular speed from the pose before it in the array; then a scalar pass applies them in order (smoothing, gaps,
    /// guidance and the capture clock are sequential). A pose that does not simply follow the one before it (the first,
    /// one after a repeated timestamp, a refused pose) takes the single-update path instead.
    @inlinable @inline(__always)
    public mutating func update(timestamps: UnsafePointer<Int64>, poses: UnsafePointer<Float>, count: Int,
                                poseName: (Int) -> String, _ body: (Int, MotionState) -> Void) throws(FathomError) {
        // The loops run on a local copy (kept in registers), written back however they end.
        var tracker = self
        /// The index of the last accepted pose when it is in this batch (then `tracker.previous` may be stale), else -1.
        var last = -1
        defer {
            if last >= 0 { tracker.previous = Pose(unchecked: poses + 16 &* last) }
            self = tracker
        }
        let tolerance = rigidTolerance

        let blocks = count / 8
        if blocks > 0 {
            // The lanes' raw velocity (x, y, z), angular speed and speed, read back one pose at a time.
            try withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 5) { (raw) throws(FathomError) in
                let steps = raw.baseAddress!
                let scalars = UnsafeMutableRawPointer(steps).assumingMemoryBound(to: Float.self)
                for block in 0..<blocks {
                    let base = 8 &* block
                    let rigid = MotionTracker.rawSteps(poses, timestamps, base, tolerance, steps)
                    for j in 0..<8 {
                        let i = base &+ j, timestamp = timestamps[i]
                        // It simply follows pose i - 1 (accepted, so tracker.current.timestamp is its timestamp).
                        guard rigid & (1 << j) != 0, last == i &- 1, i > 0, timestamp > tracker.current.timestamp else {
                            // On a copy: the fast path's tracker never has its address taken, so it stays in registers.
                            var copy = tracker
                            defer { tracker = copy }
                            try copy.batchStep(i, timestamps, poses, tolerance, &last, poseName, body)
                            continue
                        }
                        tracker.current.captured = false
                        tracker.current.skipped = false
                        tracker.current.restarted = false
                        tracker.move(to: timestamp, after: secondsBetween(tracker.current.timestamp, timestamp),
                                     velocity: SIMD3(scalars[j], scalars[8 &+ j], scalars[16 &+ j]), speed: scalars[32 &+ j],
                                     angularSpeed: scalars[24 &+ j])
                        last = i
                        body(i, tracker.current)
                    }
                }
            }
        }
        for i in (8 &* blocks)..<count { try tracker.batchStep(i, timestamps, poses, tolerance, &last, poseName, body) }
    }

    /// Pose i of a batch through the single-update path; `last` as in the batch loop.
    @inlinable @inline(__always)
    mutating func batchStep(_ i: Int, _ timestamps: UnsafePointer<Int64>, _ poses: UnsafePointer<Float>, _ tolerance: Float,
                            _ last: inout Int, _ poseName: (Int) -> String, _ body: (Int, MotionState) -> Void) throws(FathomError) {
        if last >= 0 { previous = Pose(unchecked: poses + 16 &* last) }
        let timestamp = timestamps[i]
        let pose = try Pose(columnMajor: poses + 16 &* i, tolerance: tolerance, name: poseName(i))
        guard accepts(timestamp) else {
            let error = refusal(timestamp)
            throw FathomError(error.kind, "timestamps[\(i)]: \(error.message)")
        }
        advance(timestamp: timestamp, pose: pose)
        if !current.skipped { last = i }
        body(i, current)
    }

    /// Poses base..<base+8 in lanes: bit j of the result is set when pose base + j passes the rigidity test, and
    /// steps[0...4] get per lane the raw velocity (x, y, z), angular speed and speed from pose base + j - 1, with the
    /// single step's operations (lane 0 of block 0 has no predecessor; its values are not used).
    @inlinable @inline(__always)
    static func rawSteps(_ poses: UnsafePointer<Float>, _ timestamps: UnsafePointer<Int64>, _ base: Int,
                         _ tolerance: Float, _ steps: UnsafeMutablePointer<SIMD8<Float>>) -> UInt8 {
        // The poses and timestamps of the block eight ahead, asked for now (sequential reads the lanes otherwise
        // wait on when memory is busy).
        for line in 0..<8 { fathom_lanes_prefetch(poses, 64 &* (base &+ 64) &+ 64 &* line) }
        fathom_lanes_prefetch(timestamps, 8 &* (base &+ 64))
        let lanes = PoseLanes(poses + 16 &* base)
        let prior = lanes.shifted(after: poses + 16 &* Swift.max(base &- 1, 0))
        var seconds: SIMD8<Float>
        if base > 0, let lanes = secondsLanes(timestamps + base) { seconds = lanes } else {
            seconds = SIMD8()
            for j in 0..<8 {
                let i = base &+ j
                seconds[j] = Float(secondsBetween(timestamps[Swift.max(i &- 1, 0)], timestamps[i]))
            }
        }
        let delta = lanes.t - prior.t
        steps[0] = delta.x / seconds
        steps[1] = delta.y / seconds
        steps[2] = delta.z / seconds
        steps[3] = rotationAngle(prior, lanes) / seconds
        steps[4] = ((steps[0] * steps[0] + steps[1] * steps[1]) + steps[2] * steps[2]).squareRoot()
        return lanes.rigidMask(tolerance: tolerance)
    }

    /// Float(secondsBetween(t[j - 1], t[j])) for j in 0..<8 in lanes (reading t[-1...7]), or nil when a wrapped
    /// difference is negative or 2^52 ns or more (then the caller takes the scalar path). Below 2^52, 2^52 + d as a
    /// Double is exact and so is subtracting 2^52: Double(d) without a conversion instruction AVX2 lacks; then the same
    /// * 1e-9 and rounding to Float. Every lane whose timestamps increase is exact or makes the result nil (a lane of
    /// decreasing timestamps, which the batch never uses, may wrap into range). Built lane by lane instead, the vector
    /// would make the compiler divide by it one lane at a time.
    @inlinable @inline(__always)
    static func secondsLanes(_ t: UnsafePointer<Int64>) -> SIMD8<Float>? {
        let raw = UnsafeRawPointer(t)
        let low = raw.loadUnaligned(as: SIMD4<Int64>.self) &- raw.loadUnaligned(fromByteOffset: -8, as: SIMD4<Int64>.self)
        let high = raw.loadUnaligned(fromByteOffset: 32, as: SIMD4<Int64>.self) &- raw.loadUnaligned(fromByteOffset: 24, as: SIMD4<Int64>.self)
        guard (low | high) &>> 52 == SIMD4<Int64>.zero else { return nil }
        let exponent = SIMD4<Int64>(repeating: 0x4330_0000_0000_0000), shift = SIMD4<Double>(repeating: 0x1p52)
        @inline(__always) func seconds(_ d: SIMD4<Int64>) -> SIMD4<Float> {
            SIMD4<Float>((unsafeBitCast(d | exponent, to: SIMD4<Double>.self) - shift) * SIMD4<Double>(repeating: 1e-9))
        }
        return SIMD8(lowHalf: seconds(low), highHalf: seconds(high))
    }
}
