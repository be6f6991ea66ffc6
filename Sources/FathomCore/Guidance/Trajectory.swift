/// Summaries of a whole recorded trajectory, and frame selection for a reconstruction.
public enum Trajectory {
    public struct Summary: Equatable, Sendable {
        public var duration: Double = 0, pathLength: Double = 0
        /// Nearest-rank percentiles of the per-step speeds, m/s.
        public var speedP10: Float = 0, speedP50: Float = 0, speedP90: Float = 0, speedMax: Float = 0
        /// Seconds of steps guided too slow / too fast.
        public var timeTooSlow: Double = 0, timeTooFast: Double = 0
        public var angularSpeedMax: Float = 0
        /// Pairs of consecutive poses used (not across gaps or repeated timestamps).
        public var steps = 0
    }

    /// Runs the poses through a motion tracker and summarizes the steps. Needs >= 2 poses with non-decreasing
    /// timestamps.
    public static func summarize(timestamps: [Int64], poses: [Pose], options: MotionOptions) throws(FathomError) -> Summary {
        guard poses.count >= 2, timestamps.count == poses.count else {
            throw FathomError(.outOfRange, "a trajectory needs at least 2 poses with one timestamp each, got \(poses.count)")
        }
        var tracker = try MotionTracker(options: options)
        var summary = Summary()
        var speeds: [Float] = []
        var previousTimestamp = timestamps[0]
        var previousPose = poses[0]  // the last accepted pose (a repeated timestamp's pose is ignored, as the tracker does)
        for i in 0..<poses.count {
            let state: MotionState
            do throws(FathomError) { state = try tracker.update(timestamp: timestamps[i], pose: poses[i]) } catch {
                throw FathomError(error.kind, "timestamps[\(i)]: \(error.message)")
            }
            defer {
                previousTimestamp = state.timestamp
                if !state.skipped { previousPose = poses[i] }
            }
            guard i > 0, !state.skipped, !state.restarted else { continue }
            let dt = secondsBetween(previousTimestamp, timestamps[i])
            summary.pathLength += Double(length(poses[i].translation - previousPose.translation))
            speeds.append(state.speed)
            summary.angularSpeedMax = Swift.max(summary.angularSpeedMax, state.angularSpeed)
            if state.guidance == .tooSlow { summary.timeTooSlow += dt }
            if state.guidance == .tooFast { summary.timeTooFast += dt }
        }
        summary.duration = secondsBetween(timestamps[0], timestamps[poses.count - 1])
        summary.steps = speeds.count
        if !speeds.isEmpty {
            speeds.sort()
            func rank(_ p: Double) -> Float { speeds[Swift.max(Int((p * Double(speeds.count)).rounded(.up)) - 1, 0)] }
            (summary.speedP10, summary.speedP50, summary.speedP90, summary.speedMax) = (rank(0.1), rank(0.5), rank(0.9), speeds.last!)
        }
        return summary
    }

    /// Indices of the poses to keep: 0, then each pose at least `minDistance` meters from, or turned at least
    /// `minAngle` radians from, the last one kept.
    public static func select(poses: [Pose], minDistance: Float, minAngle: Float) throws(FathomError) -> [Int] {
        for (name, value) in [("min_distance", minDistance), ("min_angle", minAngle)] where !(value > 0) {
            throw FathomError(value.isNaN ? .notFinite : .outOfRange, "\(name) must be > 0 (INFINITY to ignore it), got \(value)")
        }
        guard minDistance.isFinite || minAngle.isFinite else {
            throw FathomError(.outOfRange, "min_distance and min_angle cannot both be INFINITY")
        }
        guard let first = poses.first else { return [] }
        var kept = [0]
        var last = first
        for i in 1..<poses.count {
            let p = poses[i]
            if length(p.translation - last.translation) >= minDistance || rotationAngle(last.rotation, p.rotation) >= minAngle {
                kept.append(i)
                last = p
            }
        }
        return kept
    }
}
