// The motion tracker's exponential smoothing against an independent Double computation (the checks
// Tests/c/test_motion.c makes across the C ABI, made here once against the core). With time constant tau each update
// blends v += alpha (v_raw - v) with alpha = 1 - exp(-dt / tau), the first velocity after the first pose (or after a
// gap) taken as it is. From rest (v = 0) at a constant raw velocity u the recurrence gives
//   v_k = u (1 - prod_j (1 - alpha_j)) = u (1 - prod_j exp(-dt_j / tau)) = u (1 - exp(-t_k / tau)),
// t_k the time since the motion began, whatever the steps: the tests check the engine against the recurrence run in
// Double on the poses' own Float positions, and the recurrence against that closed form.
import FathomCore
import Glibc
import Testing

private let nsPerSecond: Int64 = 1_000_000_000

/// A pose turned `angle` about +y at `position`.
private func pose(_ position: SIMD3<Double>, turnedY angle: Double = 0) -> Pose {
    Pose(rotation: DMatrix3.rotationY(angle).float, translation: SIMD3<Float>(position))
}

/// The hand guidance bands of the default options: < 5 in/s (0.127 m/s) too slow, < 6 in/s (0.1524) slightly slow,
/// <= 8 in/s (0.2032) ok, <= 10 in/s (0.254) slightly fast, above too fast; nil within 1e-5 of a boundary.
private func handGuidance(_ speed: Double) -> Guidance? {
    let bounds = [0.127, 0.127 * 1.2, 0.254 * 0.8, 0.254]
    if bounds.contains(where: { abs(speed - $0) < 1e-5 }) { return nil }
    if speed > 0.254 { return .tooFast }
    if speed < 0.127 { return .tooSlow }
    if speed < 0.1524 { return .slightlySlow }
    if speed > 0.2032 { return .slightlyFast }
    return .ok
}

@Suite("Motion smoothing (Double reference)")
struct MotionSmoothingTests {
    @Test("constant velocity after a stop: smoothed speed u (1 - exp(-t / tau)), at steady and uneven frame rates")
    func rampFromRest() throws {
        let tau = 0.2
        var options = MotionOptions()
        options.timeConstant = Float(tau)
        // u = 0.2 m/s (7.9 in/s: ok) along (2, 1, -2) / 3; 0.3 rad/s about +y.
        let u = 0.2, direction = SIMD3<Double>(2, 1, -2) / 3, omega = 0.3
        // Step lengths in ms: a steady 10 Hz run, then an uneven one (all below max_gap 0.5 s).
        for stepsMs: [Int64] in [Array(repeating: 100, count: 20), [100, 50, 200, 80, 33, 17, 250, 100, 60, 140, 5, 300, 45]] {
            var tracker = try MotionTracker(options: options)
            let start = SIMD3<Double>(0.5, 1.2, -2), t0: Int64 = 3 * nsPerSecond + 17
            // At rest: the first pose, then two steps standing still: the first velocity (0) is taken as it is, and
            // blending 0 into 0 stays 0.
            var time = t0
            var s = try tracker.update(timestamp: time, pose: pose(start))
            #expect(s.guidance == .unknown && s.speed == 0)
            for _ in 0..<2 {
                time += 100_000_000
                s = try tracker.update(timestamp: time, pose: pose(start))
                #expect(s.speed == 0 && s.velocity == .zero && s.angularSpeed == 0 && s.guidance == .tooSlow)
            }
            // Moving: after t seconds the camera is at start + u t direction, turned omega t about +y.
            let motionStart = time
            var previous = SIMD3<Float>(start)
            var v = SIMD3<Double>.zero, w = 0.0  // the Double recurrence
            for (k, ms) in stepsMs.enumerated() {
                time += ms * 1_000_000
                let t = Double(time - motionStart) * 1e-9, dt = Double(ms) * 1e-3
                let p = pose(start + u * t * direction, turnedY: omega * t)
                s = try tracker.update(timestamp: time, pose: p)
                // The raw velocity from the poses' own Float positions, in Double; the raw angular speed omega.
                let raw = (SIMD3<Double>(p.translation) - SIMD3<Double>(previous)) / dt
                previous = p.translation
                let alpha = 1 - exp(-dt / tau)
                v += alpha * (raw - v)
                w += alpha * (omega - w)
                let speed = (v * v).sum().squareRoot()
                // The recurrence is the closed form u (1 - exp(-t / tau)) (up to the Float positions' rounding).
                #expect(abs(speed - u * (1 - exp(-t / tau))) < 1e-5, "step \(k): \(speed) vs closed form")
                #expect(abs(w - omega * (1 - exp(-t / tau))) < 1e-12, "step \(k): \(w) vs closed form")
                // The engine against the recurrence (Float: alpha and the blend in single precision).
                #expect(close(s.velocity, v, 2e-6), "step \(k): \(s.velocity) vs \(v)")
                #expect(abs(Double(s.speed) - speed) < 2e-6, "step \(k): \(s.speed) vs \(speed)")
                #expect(abs(Double(s.angularSpeed) - w) < 1e-4, "step \(k): \(s.angularSpeed) vs \(w)")
                #expect(!s.restarted && !s.skipped)
                if let g = handGuidance(speed) { #expect(s.guidance == g, "step \(k): speed \(speed)") }
            }
            // After t >= 1 s (5 tau) the smoothed speed is within exp(-5) = 0.7% of u: ok, like the raw speed.
            #expect(s.guidance == .ok)
        }
    }

    @Test("the first velocity after the first pose is taken as it is; the next one is blended by 1 - exp(-dt / tau)")
    func firstStepUnsmoothed() throws {
        var options = MotionOptions()
        options.timeConstant = 0.5
        var tracker = try MotionTracker(options: options)
        // (0, 0, 0) -> (0.03, 0, -0.04) in 0.2 s: (0.15, 0, -0.2) m/s, speed 0.25, taken as it is.
        _ = try tracker.update(timestamp: 0, pose: pose(.zero))
        var s = try tracker.update(timestamp: 200_000_000, pose: pose(SIMD3(0.03, 0, -0.04)))
        #expect(close(s.velocity, SIMD3<Double>(0.15, 0, -0.2), 2e-6) && abs(s.speed - 0.25) < 2e-6)
        // Then 0.1 s standing still: raw velocity 0; alpha = 1 - exp(-0.1 / 0.5) = 0.18127:
        // v = (1 - alpha) (0.15, 0, -0.2) = exp(-0.2) (0.15, 0, -0.2), speed 0.25 exp(-0.2) = 0.20468 (slightly fast).
        s = try tracker.update(timestamp: 300_000_000, pose: pose(SIMD3(0.03, 0, -0.04)))
        let decay = exp(-0.2)
        #expect(close(s.velocity, SIMD3<Double>(0.15 * decay, 0, -0.2 * decay), 2e-6))
        #expect(abs(Double(s.speed) - 0.25 * decay) < 2e-6 && s.guidance == .slightlyFast)
    }

    @Test("a gap longer than max_gap restarts: guidance unknown, then the next velocity taken as it is")
    func gapRestarts() throws {
        var options = MotionOptions()
        options.timeConstant = 0.2  // max_gap stays 0.5 s
        var tracker = try MotionTracker(options: options)
        // Moving at 0.1 m/s along x for 0.3 s in 0.1 s steps: smoothed v = 0.1 (first step as it is, then blending
        // 0.1 into 0.1).
        var time: Int64 = 0, x = 0.0
        _ = try tracker.update(timestamp: time, pose: pose(SIMD3(x, 0, 0)))
        for _ in 0..<3 {
            time += 100_000_000
            x += 0.01
            _ = try tracker.update(timestamp: time, pose: pose(SIMD3(x, 0, 0)))
        }
        // A 0.45 s step (not a gap) at 0.2 m/s: blended, alpha = 1 - exp(-0.45 / 0.2):
        // v = 0.1 + alpha (0.2 - 0.1) = 0.2 - 0.1 exp(-2.25).
        time += 450_000_000
        x += 0.09
        var s = try tracker.update(timestamp: time, pose: pose(SIMD3(x, 0, 0)))
        #expect(!s.restarted && abs(Double(s.speed) - (0.2 - 0.1 * exp(-2.25))) < 2e-6, "\(s.speed)")
        // A 0.6 s step (> 0.5 s): restarted, velocity, speed and angular speed 0, guidance unknown, whatever moved.
        time += 600_000_000
        x += 0.3
        s = try tracker.update(timestamp: time, pose: pose(SIMD3(x, 0, 0), turnedY: 0.5))
        #expect(s.restarted && s.guidance == .unknown)
        #expect(s.velocity == .zero && s.speed == 0 && s.angularSpeed == 0)
        // The next 0.1 s from the pose at the gap: (0, 0, 0.018) m in 0.1 s = 0.18 m/s (7.1 in/s: ok), taken as it
        // is (the smoothing from before the gap is forgotten; blended it would be 0 + alpha 0.18 = 0.071).
        time += 100_000_000
        s = try tracker.update(timestamp: time, pose: pose(SIMD3(x, 0, 0.018), turnedY: 0.5))
        #expect(!s.restarted && s.guidance == .ok)
        #expect(close(s.velocity, SIMD3<Double>(0, 0, 0.18), 2e-6) && s.angularSpeed < 1e-4)
        // And the step after that blends again: raw 0 for 0.1 s -> 0.18 exp(-0.5).
        time += 100_000_000
        s = try tracker.update(timestamp: time, pose: pose(SIMD3(x, 0, 0.018), turnedY: 0.5))
        #expect(abs(Double(s.speed) - 0.18 * exp(-0.5)) < 2e-6, "\(s.speed)")
    }
}
