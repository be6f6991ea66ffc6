import CFathom
import FathomCore

// Capture reports — see include/fathom.h. A fathom_capture handle is a retained CaptureBuilder, a fathom_report a
// retained ReportHandle.

/// A finished report behind a C handle.
final class ReportHandle {
    let report: ScanReport
    init(_ report: ScanReport) { self.report = report }
}

private func capture(_ handle: OpaquePointer?) throws(FathomError) -> CaptureBuilder { try object(handle, "capture") }

private func report(_ handle: OpaquePointer?) throws(FathomError) -> ScanReport { try object(handle, "report", as: ReportHandle.self).report }

private func reportHandle(_ report: ScanReport) -> OpaquePointer { retainedHandle(ReportHandle(report)) }

extension fathom_capture_options {
    init(_ o: CaptureOptions) {
        self.init(min_confidence: UInt32(o.minConfidence), max_depth: o.maxDepth, plausible_depth: o.plausibleDepth, voxel: o.voxel, fuse_distance: o.fuseDistance,
                  fuse_angle: o.fuseAngle, min_voxel_points: UInt32(o.minVoxelPoints), floor_threshold: o.floorThreshold,
                  floor_iterations: UInt32(o.floorIterations), floor_max_tilt: o.floorMaxTilt, object_clearance: o.objectClearance,
                  floor_min_area: o.floorMinArea, orbit_min_span: o.orbitMinSpan, orbit_min_views: UInt32(o.orbitMinViews),
                  select_distance: o.selectDistance, select_angle: o.selectAngle, seed: o.seed,
                  motion: fathom_motion_options(o.motion), coverage: fathom_coverage_options(o.coverage), reserved: (0, 0, 0, 0))
    }
}

/// Validated capture options (NULL: the defaults).
func captureOptions(_ pointer: UnsafePointer<fathom_capture_options>?) throws(FathomError) -> CaptureOptions {
    var options = CaptureOptions()
    guard let p = pointer else { return options }
    let o = p.pointee
    try reserved(bytesOf: o.reserved, "options.reserved")
    guard o.min_confidence <= 255 else { throw FathomError(.outOfRange, "options.min_confidence must be 0...255, got \(o.min_confidence)") }
    options.minConfidence = UInt8(o.min_confidence)
    options.maxDepth = o.max_depth
    options.plausibleDepth = o.plausible_depth
    options.voxel = o.voxel
    options.fuseDistance = o.fuse_distance
    options.fuseAngle = o.fuse_angle
    options.minVoxelPoints = Int(o.min_voxel_points)
    options.floorThreshold = o.floor_threshold
    options.floorIterations = Int(o.floor_iterations)
    options.floorMaxTilt = o.floor_max_tilt
    options.objectClearance = o.object_clearance
    options.floorMinArea = o.floor_min_area
    options.orbitMinSpan = o.orbit_min_span
    options.orbitMinViews = Int(o.orbit_min_views)
    options.selectDistance = o.select_distance
    options.selectAngle = o.select_angle
    options.seed = o.seed
    do throws(FathomError) {
        options.motion = try withUnsafePointer(to: o.motion) { m throws(FathomError) in try motionOptions(m) }
    } catch {
        throw FathomError(error.kind, "options.motion: \(error.message)")
    }
    do throws(FathomError) {
        options.coverage = try withUnsafePointer(to: o.coverage) { c throws(FathomError) in try coverageOptions(c) }
    } catch {
        throw FathomError(error.kind, "options.coverage: \(error.message)")
    }
    do { try options.validate() } catch { throw FathomError(error.kind, "options.\(error.message)") }
    return options
}

@_cdecl("fathom_capture_options_init")
public func fathom_capture_options_init(_ options: UnsafeMutablePointer<fathom_capture_options>?) -> fathom_status {
    abiCall("fathom_capture_options_init") { () throws(FathomError) in
        try required(options, "options").pointee = fathom_capture_options(CaptureOptions())
    }
}

@_cdecl("fathom_capture_create")
public func fathom_capture_create(_ options: UnsafePointer<fathom_capture_options>?, _ box: UnsafePointer<fathom_box>?,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_capture_create") { () throws(FathomError) in
        let o = try captureOptions(options)
        let b = try box.map { b throws(FathomError) in try Box(b.pointee) }
        let out = try required(out, "out")
        out.pointee = retainedHandle(try CaptureBuilder(options: o, box: b))
    }
}

@_cdecl("fathom_capture_destroy")
public func fathom_capture_destroy(_ handle: OpaquePointer?) { releaseHandle(handle, as: CaptureBuilder.self) }

@_cdecl("fathom_capture_add_frame")
public func fathom_capture_add_frame(_ handle: OpaquePointer?, _ timestamp: Int64, _ frame: UnsafePointer<fathom_depth_frame>?,
                                     _ out: UnsafeMutablePointer<fathom_motion_state>?) -> fathom_status {
    abiCall("fathom_capture_add_frame") { () throws(FathomError) in
        let c = try capture(handle)
        let f = try depthFrame(frame)
        guard let pose = f.pose else { throw FathomError(.invalidState, "frame.has_pose must be true: a capture needs each frame's pose") }
        let state = try c.add(timestamp: timestamp, pose: pose, rgb: f.rgb, depth: f)
        out?.pointee = fathom_motion_state(state)
    }
}

@_cdecl("fathom_capture_add_pose")
public func fathom_capture_add_pose(_ handle: OpaquePointer?, _ timestamp: Int64, _ camera: UnsafePointer<fathom_pose>?,
                                    _ rgb: UnsafePointer<fathom_intrinsics>?, _ out: UnsafeMutablePointer<fathom_motion_state>?) -> fathom_status {
    abiCall("fathom_capture_add_pose") { () throws(FathomError) in
        let c = try capture(handle)
        let pose = try rigidPose(camera, "camera_to_world")
        let k = try intrinsics(rgb, "rgb")
        let state = try c.add(timestamp: timestamp, pose: pose, rgb: k, depth: nil)
        out?.pointee = fathom_motion_state(state)
    }
}

@_cdecl("fathom_capture_wants_depth")
public func fathom_capture_wants_depth(_ handle: OpaquePointer?, _ camera: UnsafePointer<fathom_pose>?,
                                       _ out: UnsafeMutablePointer<Bool>?) -> fathom_status {
    abiCall("fathom_capture_wants_depth") { () throws(FathomError) in
        let c = try capture(handle)
        let pose = try rigidPose(camera, "camera_to_world")
        try required(out, "out").pointee = c.wantsDepth(at: pose)
    }
}

@_cdecl("fathom_capture_get_status")
public func fathom_capture_get_status(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_capture_status>?) -> fathom_status {
    abiCall("fathom_capture_get_status") { () throws(FathomError) in
        let c = try capture(handle)
        try required(out, "out").pointee = fathom_capture_status(
            frames: UInt64(c.frameCount), fused_frames: UInt64(c.fusedFrames.count), cloud_points: UInt64(c.cloudCount),
            captures: UInt64(c.captures.count), motion: fathom_motion_state(c.motionState), reserved: (0, 0, 0, 0))
    }
}

@_cdecl("fathom_capture_box")
public func fathom_capture_box(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_box>?) -> fathom_status {
    abiCall("fathom_capture_box") { () throws(FathomError) in
        let c = try capture(handle)
        let out = try required(out, "out")
        guard let box = try c.currentBox() else { throw FathomError(.noData, "no object found yet") }
        out.pointee = fathom_box(box)
    }
}

@_cdecl("fathom_capture_coverage")
public func fathom_capture_coverage(_ handle: OpaquePointer?, _ box: UnsafePointer<fathom_box>?,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_capture_coverage") { () throws(FathomError) in
        let c = try capture(handle)
        let out = try required(out, "out")
        let chosen: Box
        if let box { chosen = try Box(box.pointee) } else {
            guard let current = try c.currentBox() else { throw FathomError(.noData, "no box given and no object found yet") }
            chosen = current
        }
        out.pointee = retainedHandle(try c.coverage(of: chosen))
    }
}

@_cdecl("fathom_capture_cloud")
public func fathom_capture_cloud(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_capture_cloud") { () throws(FathomError) in
        let c = try capture(handle)
        try required(out, "out").pointee = pointCloudHandle(c.cloud())
    }
}

@_cdecl("fathom_capture_report")
public func fathom_capture_report(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_capture_report") { () throws(FathomError) in
        let c = try capture(handle)
        let out = try required(out, "out")
        out.pointee = reportHandle(try c.report())
    }
}

@_cdecl("fathom_scan_report")
public func fathom_scan_report(_ scanHandle: OpaquePointer?, _ options: UnsafePointer<fathom_capture_options>?,
                               _ box: UnsafePointer<fathom_box>?, _ progress: fathom_progress_fn?, _ user: UnsafeMutableRawPointer?,
                               _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_scan_report") { () throws(FathomError) in
        let scan = try scan(scanHandle)
        let o = try captureOptions(options)
        let b = try box.map { b throws(FathomError) in try Box(b.pointee) }
        let out = try required(out, "out")
        let callback = progress.map { fn in { (done: Int, total: Int) -> Bool in fn(user, UInt64(done), UInt64(total)) == 0 } }
        out.pointee = reportHandle(try scan.report(options: o, box: b, progress: callback))
    }
}

@_cdecl("fathom_report_destroy")
public func fathom_report_destroy(_ handle: OpaquePointer?) { releaseHandle(handle, as: ReportHandle.self) }

@_cdecl("fathom_report_get_summary")
public func fathom_report_get_summary(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_report_summary>?) -> fathom_status {
    abiCall("fathom_report_get_summary") { () throws(FathomError) in
        let r = try report(handle)
        let out = try required(out, "out")
        var s = fathom_report_summary()
        s.frames = UInt64(r.frames)
        s.fused_frames = UInt64(r.fusedFrames)
        s.duration = r.duration
        if let box = r.box { s.box = fathom_box(box) }
        s.box_source = r.boxSource.rawValue
        if let floor = r.floor {
            s.has_floor = true
            s.floor_height = floor.height
            s.floor_normal = fathom_vec3(floor.normal)
        }
        if let orbit = r.orbit {
            s.has_focus = true
            s.focus = fathom_vec3(orbit.focus)
            s.orbit_views = UInt32(clamping: orbit.views)
            s.orbit_span = orbit.span
        }
        if let support = r.support { s.has_support = true; s.support_height = support.height }
        if let ceiling = r.ceiling { s.has_ceiling = true; s.ceiling_height = ceiling.height }
        s.object_capture = r.objectCapture
        s.object_voxels = UInt64(clamping: r.objectVoxels)
        s.cloud_points = UInt64(r.cloud.count)
        s.object_points = UInt64(r.object.count)
        if let t = r.trajectory {
            s.has_trajectory = true
            s.trajectory = fathom_trajectory_summary(t)
        }
        if let c = r.coverage {
            s.has_coverage = true
            s.coverage = fathom_coverage_summary(views: UInt64(clamping: c.views), counted: UInt64(clamping: c.counted), faces_complete: UInt32(clamping: c.facesComplete),
                                                 faces_needed: UInt32(clamping: c.facesNeeded), complete: c.complete, angular_score: c.angularScore, reserved: (0, 0, 0, 0))
            let counts = c.faces.map { UInt32(clamping: $0.count) }
            s.face_counts = (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
        }
        s.captures = UInt64(r.captures.count)
        s.selected_frames = UInt64(r.selected.count)
        s.warning_count = UInt32(r.warnings.count)
        out.pointee = s
    }
}

@_cdecl("fathom_report_json")
public func fathom_report_json(_ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                               _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_report_json") { () throws(FathomError) in try writeText(report(handle).json(), buffer, capacity, outLength) }
}

@_cdecl("fathom_report_cloud")
public func fathom_report_cloud(_ handle: OpaquePointer?, _ which: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_report_cloud") { () throws(FathomError) in
        let r = try report(handle)
        guard which <= 1 else { throw FathomError(.outOfRange, "which must be 0 (FATHOM_REPORT_CLOUD) or 1 (FATHOM_REPORT_OBJECT), got \(which)") }
        try required(out, "out").pointee = pointCloudHandle(which == 0 ? r.cloud : r.object)
    }
}

@_cdecl("fathom_report_html")
public func fathom_report_html(_ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                               _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_report_html") { () throws(FathomError) in try writeText(report(handle).html(), buffer, capacity, outLength) }
}

@_cdecl("fathom_report_from_json")
public func fathom_report_from_json(_ json: UnsafePointer<CChar>?, _ length: Int, _ cloud: UnsafePointer<Float>?, _ cloudCount: Int,
                                    _ cloudStride: Int, _ object: UnsafePointer<Float>?, _ objectCount: Int, _ objectStride: Int,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_report_from_json") { () throws(FathomError) in
        let out = try required(out, "out")
        let text = try required(json, "json")
        let length = try size(length, "length")
        let bytes = text.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
        let cloudPoints = try packedPoints(cloud, cloudCount, cloudStride, names: ("cloud", "cloud_count", "cloud_stride"))
        let objectPoints = try packedPoints(object, objectCount, objectStride, names: ("object", "object_count", "object_stride"))
        let r = try ScanReport(json: bytes, cloud: PointCloud(points: cloudPoints), object: PointCloud(points: objectPoints))
        out.pointee = reportHandle(r)
    }
}

@_cdecl("fathom_report_save")
public func fathom_report_save(_ handle: OpaquePointer?, _ directory: UnsafePointer<CChar>?) -> fathom_status {
    abiCall("fathom_report_save") { () throws(FathomError) in
        let r = try report(handle)
        try r.save(to: try pathArgument(directory, "directory"))
    }
}
