import CFathom
import FathomCore

// Camera speed from poses, and trajectory summaries — see include/fathom.h. A fathom_motion handle is a retained
// box around a MotionTracker; fathom_motion_destroy releases it.

/// The reference-typed home of a motion tracker behind a C handle.
final class MotionHandle {
    // One thread at a time uses a handle (documented), so the run-time exclusivity checks are skipped.
    @exclusivity(unchecked) var tracker: MotionTracker
    init(_ tracker: MotionTracker) { self.tracker = tracker }
}

private func motion(_ handle: OpaquePointer?) throws(FathomError) -> MotionHandle { try object(handle, "motion") }

extension fathom_motion_options {
    init(_ o: MotionOptions) {
        self.init(time_constant: o.timeConstant, slow_speed: o.slowSpeed, brisk_speed: o.briskSpeed, fast_speed: o.fastSpeed,
                  slightly: o.slightly, max_gap: o.maxGap, intervals: (o.intervals[0], o.intervals[1], o.intervals[2]), reserved: (0, 0, 0, 0))
    }
}

/// Validated motion options (NULL: the defaults).
func motionOptions(_ pointer: UnsafePointer<fathom_motion_options>?) throws(FathomError) -> MotionOptions {
    var options = MotionOptions()
    guard let o = pointer?.pointee else { return options }
    try reserved(bytesOf: o.reserved, "options.reserved")
    options.timeConstant = o.time_constant
    options.slowSpeed = o.slow_speed
    options.briskSpeed = o.brisk_speed
    options.fastSpeed = o.fast_speed
    options.slightly = o.slightly
    options.maxGap = o.max_gap
    options.intervals = SIMD3(o.intervals.0, o.intervals.1, o.intervals.2)
    try options.validate()
    return options
}

extension fathom_trajectory_summary {
    init(_ s: Trajectory.Summary) {
        self.init(duration: s.duration, path_length: s.pathLength, speed_p10: s.speedP10, speed_p50: s.speedP50, speed_p90: s.speedP90,
                  speed_max: s.speedMax, time_too_slow: s.timeTooSlow, time_too_fast: s.timeTooFast,
                  angular_speed_max: s.angularSpeedMax, steps: UInt64(clamping: s.steps), reserved: (0, 0, 0, 0))
    }
}

extension fathom_motion_state {
    init(_ s: MotionState) {
        self.init(timestamp: s.timestamp, velocity: fathom_vec3(s.velocity), speed: s.speed, angular_speed: s.angularSpeed,
                  guidance: s.guidance.rawValue, capture_interval: s.captureInterval, time_to_capture: s.timeToCapture,
                  captured: s.captured, skipped: s.skipped, restarted: s.restarted)
    }
}

@_cdecl("fathom_motion_options_init")
public func fathom_motion_options_init(_ options: UnsafeMutablePointer<fathom_motion_options>?) -> fathom_status {
    abiCall("fathom_motion_options_init") { () throws(FathomError) in
        try required(options, "options").pointee = fathom_motion_options(MotionOptions())
    }
}

@_cdecl("fathom_motion_create")
public func fathom_motion_create(_ options: UnsafePointer<fathom_motion_options>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_motion_create") { () throws(FathomError) in
        let tracker = try MotionTracker(options: motionOptions(options))
        try required(out, "out").pointee = retainedHandle(MotionHandle(tracker))
    }
}

@_cdecl("fathom_motion_destroy")
public func fathom_motion_destroy(_ handle: OpaquePointer?) { releaseHandle(handle, as: MotionHandle.self) }

@_cdecl("fathom_motion_update")
public func fathom_motion_update(_ handle: OpaquePointer?, _ timestamp: Int64, _ camera: UnsafePointer<fathom_pose>?,
                                 _ out: UnsafeMutablePointer<fathom_motion_state>?) -> fathom_status {
    abiCall("fathom_motion_update") { () throws(FathomError) in
        let m = try motion(handle)
        let pose = try rigidPose(at: required(camera, "camera_to_world"), "camera_to_world")
        let state = try m.tracker.update(timestamp: timestamp, pose: pose)
        out?.pointee = fathom_motion_state(state)
    }
}

@_cdecl("fathom_motion_update_batch")
public func fathom_motion_update_batch(_ handle: OpaquePointer?, _ timestamps: UnsafePointer<Int64>?, _ cameras: UnsafePointer<fathom_pose>?,
                                       _ count: Int, _ out: UnsafeMutablePointer<fathom_motion_state>?) -> fathom_status {
    abiCall("fathom_motion_update_batch") { () throws(FathomError) in
        let m = try motion(handle)
        let n = try size(count, "count", minimum: 1)
        let times = try required(timestamps, "timestamps"), poses = try required(cameras, "cameras_to_world")
        let floats = UnsafeRawPointer(poses).assumingMemoryBound(to: Float.self)
        try m.tracker.update(timestamps: times, poses: floats, count: n, poseName: { "cameras_to_world[\($0)]" }) { i, state in
            out?[i] = fathom_motion_state(state)
        }
    }
}

@_cdecl("fathom_motion_get_state")
public func fathom_motion_get_state(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_motion_state>?) -> fathom_status {
    abiCall("fathom_motion_get_state") { () throws(FathomError) in
        let m = try motion(handle)
        try required(out, "out").pointee = fathom_motion_state(m.tracker.state)
    }
}

@_cdecl("fathom_motion_reset")
public func fathom_motion_reset(_ handle: OpaquePointer?) -> fathom_status {
    abiCall("fathom_motion_reset") { () throws(FathomError) in try motion(handle).tracker.reset() }
}

/// `count` validated poses read from a C array.
private func poses(_ pointer: UnsafePointer<fathom_pose>?, _ count: Int, _ name: String) throws(FathomError) -> [Pose] {
    let list = try elements(pointer, count, name, copiedAs: Pose.self)
    let base = list.baseAddress.unsafelyUnwrapped  // not NULL: `elements` checked it
    return try list.indices.map { i throws(FathomError) in try rigidPose(at: base + i, "\(name)[\(i)]") }
}

@_cdecl("fathom_trajectory_summarize")
public func fathom_trajectory_summarize(_ timestamps: UnsafePointer<Int64>?, _ cameras: UnsafePointer<fathom_pose>?, _ count: Int,
                                        _ options: UnsafePointer<fathom_motion_options>?,
                                        _ out: UnsafeMutablePointer<fathom_trajectory_summary>?) -> fathom_status {
    abiCall("fathom_trajectory_summarize") { () throws(FathomError) in
        let n = try size(count, "count", minimum: 2)
        let times = Array(try elements(timestamps, n, "timestamps", copiedAs: Int64.self))
        let list = try poses(cameras, n, "cameras_to_world")
        let o = try motionOptions(options)
        let result = try required(out, "out")
        let s = try Trajectory.summarize(timestamps: times, poses: list, options: o)
        result.pointee = fathom_trajectory_summary(s)
    }
}

@_cdecl("fathom_trajectory_select")
public func fathom_trajectory_select(_ cameras: UnsafePointer<fathom_pose>?, _ count: Int, _ minDistance: Float, _ minAngle: Float,
                                     _ outIndices: UnsafeMutablePointer<UInt32>?, _ capacity: Int,
                                     _ outCount: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_trajectory_select") { () throws(FathomError) in
        let n = try size(count, "count", minimum: 1)
        guard n <= Int(UInt32.max) else { throw FathomError(.outOfRange, "count must be < 2^32 (indices are uint32), got \(n)") }
        let list = try poses(cameras, n, "cameras_to_world")
        let capacity = try size(capacity, "capacity")
        let total = try required(outCount, "out_count")
        let kept = try Trajectory.select(poses: list, minDistance: minDistance, minAngle: minAngle)
        let out = capacity > 0 ? try required(outIndices, "out_indices") : nil
        total.pointee = kept.count
        if let out { for (i, index) in kept.prefix(capacity).enumerated() { out[i] = UInt32(index) } }
        try requireCapacity(capacity, kept.count, "selected poses (the first \(capacity) were written)")
    }
}
