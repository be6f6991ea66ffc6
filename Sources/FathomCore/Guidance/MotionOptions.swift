/// Speed guidance: the app's "Speed Up" / "keep this speed" / "Slow Down", with "slightly" bands.
public enum Guidance: UInt32, Sendable {
    case unknown = 0, tooSlow = 1, slightlySlow = 2, ok = 3, slightlyFast = 4, tooFast = 5
}

/// Settings of a motion tracker (defaults: the app's thresholds in m/s; see the C header).
public struct MotionOptions: Equatable, Sendable {
    /// Exponential smoothing time constant of velocity and angular speed, seconds; 0: none.
    public var timeConstant: Float = 0
    /// 5, 8 and 10 inches per second.
    public var slowSpeed: Float = 0.127, briskSpeed: Float = 0.2032, fastSpeed: Float = 0.254
    /// Width of the "slightly" bands as a fraction of a threshold.
    public var slightly: Float = 0.2
    /// A longer gap between poses (seconds) restarts the speed.
    public var maxGap: Float = 0.5
    /// Capture interval after a capture at speed in [brisk, fast), [slow, brisk), below slow (also the first).
    public var intervals: SIMD3<Float> = SIMD3(1, 2, 3)

    public init() {}

    /// Throws naming the first setting outside its range.
    public func validate() throws(FathomError) {
        try Check.finite(timeConstant, "time_constant")
        guard timeConstant >= 0 else { throw FathomError(.outOfRange, "time_constant must be >= 0, got \(timeConstant)") }
        try Check.positive(slowSpeed, "slow_speed")
        try Check.finite(briskSpeed, "brisk_speed")
        try Check.finite(fastSpeed, "fast_speed")
        guard slowSpeed <= briskSpeed, briskSpeed <= fastSpeed else {
            throw FathomError(.outOfRange, "speeds must satisfy slow <= brisk <= fast, got \(slowSpeed), \(briskSpeed), \(fastSpeed)")
        }
        try Check.finite(slightly, "slightly")
        guard slightly >= 0, slightly < 1 else { throw FathomError(.outOfRange, "slightly must be in [0, 1), got \(slightly)") }
        try Check.positive(maxGap, "max_gap")
        try Check.positive(intervals, "intervals")
    }

    /// The guidance for a speed (m/s).
    @inlinable
    public func guidance(speed: Float) -> Guidance {
        if speed > fastSpeed { return .tooFast }
        if speed < slowSpeed { return .tooSlow }
        if speed < slowSpeed * (1 + slightly) { return .slightlySlow }
        if speed > fastSpeed * (1 - slightly) { return .slightlyFast }
        return .ok
    }

    /// The app's interval after a capture at `speed` (nil: unknown speed keeps the current one).
    @inlinable
    public func interval(afterCaptureAt speed: Float?, current: Float) -> Float {
        guard let speed else { return current }
        if speed >= fastSpeed { return current }
        if speed >= briskSpeed { return intervals[0] }
        if speed >= slowSpeed { return intervals[1] }
        return intervals[2]
    }
}
