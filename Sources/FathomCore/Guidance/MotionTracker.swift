import Glibc

/// The state of a motion tracker after an update.
public struct MotionState: Equatable, Sendable {
    /// Of the last accepted pose, nanoseconds.
    public var timestamp: Int64 = 0
    /// World, m/s (smoothed if the options say so).
    public var velocity: SIMD3<Float> = .zero
    public var speed: Float = 0
    /// rad/s.
    public var angularSpeed: Float = 0
    public var guidance: Guidance = .unknown
    /// Seconds, the app's automatic policy, and the time left until the next capture.
    public var captureInterval: Float = 0, timeToCapture: Float = 0
    /// This update took an automatic capture; repeated its timestamp (ignored); restarted after a gap.
    public var captured = false, skipped = false, restarted = false

    public init() {}
}

/// Camera speed from timestamped poses: velocity, speed, angular speed, smoothing, guidance, and the capture app's
/// automatic capture interval.
public struct MotionTracker: Sendable {
    public let options: MotionOptions
    public private(set) var state = MotionState()
    private var previous: Pose?
    /// Whether `state` holds a speed (not the first pose, not just after a gap).
    private var hasSpeed = false
    private var nextCapture: Int64 = 0

    public init(options: MotionOptions) throws(FathomError) {
        try options.validate()
        self.options = options
    }

    /// Feeds one pose at `timestamp` nanoseconds. An earlier timestamp than the last is `.outOfRange` (no change);
    /// an equal one is skipped.
    public mutating func update(timestamp: Int64, pose: Pose) throws(FathomError) -> MotionState {
        // Checked before anything is touched: a refused pose leaves the whole state (its flags too) unchanged.
        guard previous == nil || timestamp >= state.timestamp else {
            throw FathomError(.outOfRange, "timestamp \(timestamp) ns is before the last accepted one (\(state.timestamp) ns)")
        }
        state.captured = false
        state.skipped = false
        state.restarted = false
        guard let last = previous else {
            previous = pose
            state.timestamp = timestamp
            state.captureInterval = options.intervals[2]
            state.timeToCapture = options.intervals[2]
            nextCapture = later(timestamp, nanoseconds(options.intervals[2]))
            return state
        }
        guard timestamp > state.timestamp else {
            state.skipped = true
            return state
        }
        let dt = secondsBetween(state.timestamp, timestamp)
        if dt > Double(options.maxGap) {
            hasSpeed = false
            state.restarted = true
            state.velocity = .zero
            state.speed = 0
            state.angularSpeed = 0
            state.guidance = .unknown
        } else {
            let velocity = (pose.translation - last.translation) / Float(dt)
            let angular = rotationAngle(last.rotation, pose.rotation) / Float(dt)
            if hasSpeed, options.timeConstant > 0 {
                let alpha = Float(1 - exp(-dt / Double(options.timeConstant)))
                state.velocity += alpha * (velocity - state.velocity)
                state.angularSpeed += alpha * (angular - state.angularSpeed)
            } else {
                state.velocity = velocity
                state.angularSpeed = angular
            }
            hasSpeed = true
            state.speed = length(state.velocity)
            state.guidance = options.guidance(speed: state.speed)
        }
        previous = pose
        state.timestamp = timestamp
        if timestamp >= nextCapture {
            state.captured = true
            state.captureInterval = options.interval(afterCaptureAt: hasSpeed ? state.speed : nil, current: state.captureInterval)
            nextCapture = later(timestamp, nanoseconds(state.captureInterval))
        }
        state.timeToCapture = Float(secondsBetween(timestamp, nextCapture))
        return state
    }

    /// Forgets every pose.
    public mutating func reset() {
        state = MotionState()
        previous = nil
        hasSpeed = false
        nextCapture = 0
    }

    /// Whole nanoseconds of a (positive, finite) interval, saturated at Int64.max (a capture that far away is never due).
    private func nanoseconds(_ seconds: Float) -> Int64 {
        let ns = (Double(seconds) * 1e9).rounded()
        return ns < 9.2e18 ? Int64(ns) : .max
    }

    /// t + ns (ns >= 0), saturated at Int64.max.
    private func later(_ t: Int64, _ ns: Int64) -> Int64 {
        let (sum, overflow) = t.addingReportingOverflow(ns)
        return overflow ? .max : sum
    }
}

/// Seconds from nanosecond timestamp `a` to `b`: exact when b - a fits Int64, else from the doubles (no overflow trap).
func secondsBetween(_ a: Int64, _ b: Int64) -> Double {
    let (difference, overflow) = b.subtractingReportingOverflow(a)
    return overflow ? (Double(b) - Double(a)) * 1e-9 : Double(difference) * 1e-9
}

/// The angle (radians, [0, pi]) of the rotation from `a` to `b`: atan2 of the axis part |v| = 2 sin(theta) and
/// trace - 1 = 2 cos(theta) of a^T b, accurate for small and large angles alike.
@inlinable @inline(__always)
public func rotationAngle(_ a: Matrix3, _ b: Matrix3) -> Float {
    let trace = dot(a.c0, b.c0) + dot(a.c1, b.c1) + dot(a.c2, b.c2)
    let v = SIMD3(dot(a.c2, b.c1) - dot(a.c1, b.c2), dot(a.c0, b.c2) - dot(a.c2, b.c0), dot(a.c1, b.c0) - dot(a.c0, b.c1))
    return fastAtan2(length(v), trace - 1)
}
