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
    /// The state after the last update.
    public var state: MotionState { current }
    // Internal storage, usable from the inlinable batch update (MotionTracker+Batch.swift).
    @usableFromInline var current = MotionState()
    @usableFromInline var previous: Pose?
    /// Whether `current` holds a speed (not the first pose, not just after a gap).
    @usableFromInline var hasSpeed = false
    @usableFromInline var nextCapture: Int64 = 0
    /// The last smoothing step's dt (seconds) and its alpha = Float(1 - exp(-dt / time_constant)): at a steady frame
    /// rate every step reuses it instead of calling exp.
    @usableFromInline var alphaCache: (dt: Double, alpha: Float) = (.nan, 0)

    public init(options: MotionOptions) throws(FathomError) {
        try options.validate()
        self.options = options
    }

    /// Feeds one pose at `timestamp` nanoseconds. An earlier timestamp than the last is `.outOfRange` (no change);
    /// an equal one is skipped.
    public mutating func update(timestamp: Int64, pose: Pose) throws(FathomError) -> MotionState {
        // Checked before anything is touched: a refused pose leaves the whole state (its flags too) unchanged.
        guard accepts(timestamp) else { throw refusal(timestamp) }
        advance(timestamp: timestamp, pose: pose)
        return current
    }

    /// Whether `timestamp` may follow the last accepted one (not earlier).
    @inlinable @inline(__always)
    func accepts(_ timestamp: Int64) -> Bool { previous == nil || timestamp >= current.timestamp }

    /// The error for a timestamp that `accepts` refused.
    @usableFromInline
    func refusal(_ timestamp: Int64) -> FathomError {
        FathomError(.outOfRange, "timestamp \(timestamp) ns is before the last accepted one (\(current.timestamp) ns)")
    }

    /// One update after `accepts(timestamp)`: the step every path (single and batch) takes, so they agree bit for bit
    /// (the batch's lanes compute the raw velocity and angular speed with the same operations and call `move`).
    @inlinable @inline(__always)
    mutating func advance(timestamp: Int64, pose: Pose) {
        current.captured = false
        current.skipped = false
        current.restarted = false
        guard let last = previous else {
            start(timestamp: timestamp, pose: pose)
            return
        }
        guard timestamp > current.timestamp else {
            current.skipped = true
            return
        }
        let dt = secondsBetween(current.timestamp, timestamp), seconds = Float(dt)
        let velocity = (pose.translation - last.translation) / seconds
        move(to: timestamp, after: dt, velocity: velocity, speed: length(velocity),
             angularSpeed: rotationAngle(last.rotation, pose.rotation) / seconds)
        previous = pose
    }

    /// The rest of a step to a later timestamp, `dt` seconds after the last, given the raw velocity, its length `speed`
    /// and the raw angular speed from the last pose (ignored after a gap). A step whose velocity, raw or smoothed, is
    /// beyond the floats (poses 1e38 m apart) restarts as a gap does: smoothed on, it would leave NaN for good.
    @inlinable @inline(__always)
    mutating func move(to timestamp: Int64, after dt: Double, velocity: SIMD3<Float>, speed: Float, angularSpeed: Float) {
        var restart = dt > Double(options.maxGap) || !velocity.isFinite || !angularSpeed.isFinite
        if !restart {
            if hasSpeed, options.timeConstant > 0 {
                let alpha = smoothingWeight(dt)
                current.velocity += alpha * (velocity - current.velocity)
                current.angularSpeed += alpha * (angularSpeed - current.angularSpeed)
                current.speed = length(current.velocity)
                restart = !current.velocity.isFinite || !current.angularSpeed.isFinite
            } else {
                current.velocity = velocity
                current.angularSpeed = angularSpeed
                current.speed = speed
            }
            hasSpeed = true
            current.guidance = options.guidance(speed: current.speed)
        }
        if restart {
            hasSpeed = false
            current.restarted = true
            current.velocity = .zero
            current.speed = 0
            current.angularSpeed = 0
            current.guidance = .unknown
        }
        current.timestamp = timestamp
        if timestamp >= nextCapture { capture(at: timestamp) }
        current.timeToCapture = Float(secondsBetween(timestamp, nextCapture))
    }

    /// The first pose: starts the capture clock.
    @usableFromInline
    mutating func start(timestamp: Int64, pose: Pose) {
        previous = pose
        current.timestamp = timestamp
        current.captureInterval = options.intervals[2]
        current.timeToCapture = options.intervals[2]
        nextCapture = later(timestamp, nanoseconds(options.intervals[2]))
    }

    /// An automatic capture at `timestamp`: the app's interval policy sets the next one.
    @inlinable
    mutating func capture(at timestamp: Int64) {
        current.captured = true
        current.captureInterval = options.interval(afterCaptureAt: hasSpeed ? current.speed : nil, current: current.captureInterval)
        nextCapture = later(timestamp, nanoseconds(current.captureInterval))
    }

    /// alpha = 1 - exp(-dt / time_constant) as a Float, from the cache when dt repeats.
    @inlinable @inline(__always)
    mutating func smoothingWeight(_ dt: Double) -> Float {
        if dt != alphaCache.dt { alphaCache = (dt, Float(1 - exp(-dt / Double(options.timeConstant)))) }
        return alphaCache.alpha
    }

    /// Forgets every pose.
    public mutating func reset() {
        current = MotionState()
        previous = nil
        hasSpeed = false
        nextCapture = 0
    }

    /// Whole nanoseconds of a (positive, finite) interval, saturated at Int64.max (a capture that far away is never due).
    @inlinable
    func nanoseconds(_ seconds: Float) -> Int64 {
        let ns = (Double(seconds) * 1e9).rounded()
        return ns < 9.2e18 ? Int64(ns) : .max
    }

    /// t + ns (ns >= 0), saturated at Int64.max.
    @inlinable
    func later(_ t: Int64, _ ns: Int64) -> Int64 {
        let (sum, overflow) = t.addingReportingOverflow(ns)
        return overflow ? .max : sum
    }
}

/// Seconds from nanosecond timestamp `a` to `b`: exact when b - a fits Int64, else from the doubles (no overflow trap).
@inlinable @inline(__always)
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
