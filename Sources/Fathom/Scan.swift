import CFathom
import FathomCore

// Scans: captures in the scanner app's, Stray Scanner's and nerfstudio's formats, read, converted and written —
// see include/fathom.h.

func scan(_ handle: OpaquePointer?) throws(FathomError) -> Scan { try object(handle, "scan") }

@_cdecl("fathom_scan_open")
public func fathom_scan_open(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_scan_open") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        let out = try required(out, "out")
        out.pointee = retainedHandle(try Scan(path: path))
    }
}

extension fathom_scan_open_options {
    static var defaults: fathom_scan_open_options { fathom_scan_open_options(index_while_reading: false, reserved: (0, 0, 0, 0)) }
}

@_cdecl("fathom_scan_open_options_init")
public func fathom_scan_open_options_init(_ options: UnsafeMutablePointer<fathom_scan_open_options>?) -> fathom_status {
    abiCall("fathom_scan_open_options_init") { () throws(FathomError) in try required(options, "options").pointee = .defaults }
}

@_cdecl("fathom_scan_open_with")
public func fathom_scan_open_with(_ path: UnsafePointer<CChar>?, _ options: UnsafePointer<fathom_scan_open_options>?,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_scan_open_with") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        var lazy = false
        if let options {
            lazy = try boolField(at: options, \.index_while_reading, "options.index_while_reading")
            try reserved(bytesOf: options.pointee.reserved, "options.reserved")
        }
        let out = try required(out, "out")
        out.pointee = retainedHandle(try Scan(path: path, indexWhileReading: lazy))
    }
}

@_cdecl("fathom_scan_destroy")
public func fathom_scan_destroy(_ handle: OpaquePointer?) { releaseHandle(handle, as: Scan.self) }

@_cdecl("fathom_scan_get_info")
public func fathom_scan_get_info(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_scan_info>?) -> fathom_status {
    abiCall("fathom_scan_get_info") { () throws(FathomError) in
        let s = try scan(handle)
        try required(out, "out").pointee = fathom_scan_info(
            frame_count: UInt64(s.count), depth_width: UInt32(s.depthWidth), depth_height: UInt32(s.depthHeight),
            depth_format: s.depthFormat.rawValue, depth_scale: s.depthScale, rgb_width: UInt32(s.rgbWidth),
            rgb_height: UInt32(s.rgbHeight), has_confidence: s.hasConfidence,
            warning_count: UInt32(clamping: s.warnings.count), frequency: s.frequency ?? 0, format: s.format.rawValue,
            reserved: (0, 0, 0, 0))
    }
}

@_cdecl("fathom_scan_id")
public func fathom_scan_id(_ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                           _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_scan_id") { () throws(FathomError) in try writeText(scan(handle).scanID, buffer, capacity, outLength) }
}

@_cdecl("fathom_scan_warning")
public func fathom_scan_warning(_ handle: OpaquePointer?, _ index: UInt32, _ buffer: UnsafeMutablePointer<CChar>?,
                                _ capacity: Int, _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_scan_warning") { () throws(FathomError) in
        let warnings = try scan(handle).warnings
        guard Int(index) < warnings.count else {
            throw FathomError(.outOfRange, "index \(index) is out of range: there are \(warnings.count) warnings (0 to \(warnings.count - 1))")
        }
        try writeText(warnings[Int(index)], buffer, capacity, outLength)
    }
}

@_cdecl("fathom_scan_timestamps")
public func fathom_scan_timestamps(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<Int64>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_scan_timestamps") { () throws(FathomError) in
        let s = try scan(handle)
        try copyOut(s.timestamps, to: out, capacity: capacity, what: "elements")
    }
}

@_cdecl("fathom_scan_poses")
public func fathom_scan_poses(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_pose>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_scan_poses") { () throws(FathomError) in
        let s = try scan(handle)
        try copyOut(s.poses.map(fathom_pose.init), to: out, capacity: capacity, what: "elements")
    }
}

extension fathom_intrinsics {
    init(_ k: Intrinsics) {
        self.init(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: UInt32(k.width), height: UInt32(k.height))
    }
}

@_cdecl("fathom_scan_intrinsics")
public func fathom_scan_intrinsics(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_intrinsics>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_scan_intrinsics") { () throws(FathomError) in
        let s = try scan(handle)
        try copyOut(s.intrinsics.map(fathom_intrinsics.init), to: out, capacity: capacity, what: "elements")
    }
}

/// A frame index argument as Int (the range is checked by the scan).
private func frameIndex(_ index: UInt64) -> Int { index > UInt64(Int.max) ? Int.max : Int(index) }

@_cdecl("fathom_scan_read_depth")
public func fathom_scan_read_depth(_ handle: OpaquePointer?, _ index: UInt64, _ out: UnsafeMutableRawPointer?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_scan_read_depth") { () throws(FathomError) in
        let s = try scan(handle)
        try requireCapacity(capacity, s.depthFrameBytes, "bytes needed")
        let out = try required(out, "out")
        try s.readDepth(frameIndex(index), into: UnsafeMutableRawBufferPointer(start: out, count: s.depthFrameBytes))
    }
}

@_cdecl("fathom_scan_read_confidence")
public func fathom_scan_read_confidence(_ handle: OpaquePointer?, _ index: UInt64, _ out: UnsafeMutablePointer<UInt8>?,
                                        _ capacity: Int) -> fathom_status {
    abiCall("fathom_scan_read_confidence") { () throws(FathomError) in
        let s = try scan(handle)
        try requireCapacity(capacity, s.confidenceFrameBytes, "bytes needed")
        let out = try required(out, "out")
        try s.readConfidence(frameIndex(index), into: UnsafeMutableRawBufferPointer(start: out, count: s.confidenceFrameBytes))
    }
}

@_cdecl("fathom_scan_frame")
public func fathom_scan_frame(_ handle: OpaquePointer?, _ index: UInt64, _ depth: UnsafeMutableRawPointer?, _ depthCapacity: Int,
                              _ confidence: UnsafeMutablePointer<UInt8>?, _ confidenceCapacity: Int,
                              _ out: UnsafeMutablePointer<fathom_depth_frame>?) -> fathom_status {
    abiCall("fathom_scan_frame") { () throws(FathomError) in
        let s = try scan(handle)
        let i = frameIndex(index)
        guard i < s.count else { throw FathomError(.outOfRange, "index \(index) is out of range: there are \(s.count) (0 to \(s.count - 1))") }
        try requireCapacity(depthCapacity, s.depthFrameBytes, "depth bytes needed")
        let depth = try required(depth, "depth")
        guard Int(bitPattern: depth) % s.depthFormat.sampleBytes == 0 else {
            throw FathomError(.outOfRange, "depth must be aligned to \(s.depthFormat.sampleBytes) bytes")
        }
        let result = try required(out, "out")
        if confidence != nil { try requireCapacity(confidenceCapacity, s.confidenceFrameBytes, "confidence bytes needed") }
        // Confidence is read aside first, so a failed read leaves both buffers as they were.
        var confidenceValues: [UInt8]?
        if confidence != nil, s.hasConfidence {
            var values = [UInt8](repeating: 0, count: s.confidenceFrameBytes)
            try values.withUnsafeMutableBytes { bytes in Result { () throws(FathomError) in try s.readConfidence(i, into: bytes) } }.get()
            confidenceValues = values
        }
        try s.readDepth(i, into: UnsafeMutableRawBufferPointer(start: depth, count: s.depthFrameBytes))
        let hasConfidence = confidenceValues != nil
        if let confidence, let confidenceValues {
            confidenceValues.withUnsafeBufferPointer { confidence.update(from: $0.baseAddress!, count: $0.count) }
        }
        var f = fathom_depth_frame()
        f.depth = UnsafeRawPointer(depth)
        f.format = s.depthFormat.rawValue
        f.width = UInt32(s.depthWidth)
        f.height = UInt32(s.depthHeight)
        f.scale = s.depthScale
        f.confidence = hasConfidence ? UnsafePointer(confidence) : nil
        f.max_depth = .infinity
        f.intrinsics = fathom_intrinsics(s.intrinsics[i])
        f.camera_to_world = fathom_pose(s.poses[i])
        f.has_pose = true
        result.pointee = f
    }
}

// MARK: - Writer

extension fathom_scan_writer_options {
    static var defaults: fathom_scan_writer_options {
        fathom_scan_writer_options(depth_width: 256, depth_height: 192, rgb_width: 1920, rgb_height: 1440,
                                   depth_format: FATHOM_DEPTH_FLOAT16.rawValue, with_confidence: true, zlib_wrapped: false,
                                   frequency: 60, reserved: (0, 0, 0, 0))
    }
}

private func writer(_ handle: OpaquePointer?) throws(FathomError) -> ScanWriter { try object(handle, "writer") }

@_cdecl("fathom_scan_writer_options_init")
public func fathom_scan_writer_options_init(_ options: UnsafeMutablePointer<fathom_scan_writer_options>?) -> fathom_status {
    abiCall("fathom_scan_writer_options_init") { () throws(FathomError) in try required(options, "options").pointee = .defaults }
}

@_cdecl("fathom_scan_writer_create")
public func fathom_scan_writer_create(_ directory: UnsafePointer<CChar>?, _ scanID: UnsafePointer<CChar>?,
                                      _ options: UnsafePointer<fathom_scan_writer_options>?,
                                      _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_scan_writer_create") { () throws(FathomError) in
        let directory = try pathArgument(directory, "directory")
        let id = try pathArgument(scanID, "scan_id")
        let o = options?.pointee ?? .defaults
        guard let format = DepthFormat(rawValue: o.depth_format) else {
            throw FathomError(.outOfRange, "options.depth_format must be 0 (FLOAT32), 1 (FLOAT16) or 2 (UINT16), got \(o.depth_format)")
        }
        let withConfidence = try boolField(o, \.with_confidence, "options.with_confidence")
        let wrapped = try boolField(o, \.zlib_wrapped, "options.zlib_wrapped")
        try reserved(bytesOf: o.reserved, "options.reserved")
        let out = try required(out, "out")
        let w = try ScanWriter(directory: directory, scanID: id, depthWidth: Int(o.depth_width), depthHeight: Int(o.depth_height),
                               rgbWidth: Int(o.rgb_width), rgbHeight: Int(o.rgb_height), depthFormat: format,
                               frequency: o.frequency, withConfidence: withConfidence, wrapped: wrapped)
        out.pointee = retainedHandle(w)
    }
}

@_cdecl("fathom_scan_writer_append")
public func fathom_scan_writer_append(_ handle: OpaquePointer?, _ timestamp: Int64, _ rgb: UnsafePointer<fathom_intrinsics>?,
                                      _ camera: UnsafePointer<fathom_pose>?, _ depth: UnsafeRawPointer?, _ depthBytes: Int,
                                      _ confidence: UnsafePointer<UInt8>?, _ confidenceBytes: Int) -> fathom_status {
    abiCall("fathom_scan_writer_append") { () throws(FathomError) in
        let w = try writer(handle)
        let k = try intrinsics(required(rgb, "rgb"))
        let pose = try rigidPose(camera, "camera_to_world")
        let depth = try required(depth, "depth")
        let depthCount = try size(depthBytes, "depth_bytes")
        if w.hasConfidence { _ = try required(confidence, "confidence", ": the writer has a confidence stream") }
        let values = try confidence.map { c throws(FathomError) in
            UnsafeRawBufferPointer(start: c, count: try size(confidenceBytes, "confidence_bytes"))
        }
        try w.append(timestamp: timestamp, rgb: k, pose: pose, depth: UnsafeRawBufferPointer(start: depth, count: depthCount),
                     confidence: values)
    }
}

@_cdecl("fathom_scan_writer_finish")
public func fathom_scan_writer_finish(_ handle: OpaquePointer?) -> fathom_status {
    abiCall("fathom_scan_writer_finish") { () throws(FathomError) in try writer(handle).finish() }
}

@_cdecl("fathom_scan_writer_destroy")
public func fathom_scan_writer_destroy(_ handle: OpaquePointer?) { releaseHandle(handle, as: ScanWriter.self) }

// MARK: - Point cloud

extension fathom_scan_cloud_options {
    static var defaults: fathom_scan_cloud_options {
        fathom_scan_cloud_options(min_confidence: 2, max_depth: .infinity, voxel: 0, frame_step: 1, reserved: (0, 0, 0, 0))
    }
}

@_cdecl("fathom_scan_cloud_options_init")
public func fathom_scan_cloud_options_init(_ options: UnsafeMutablePointer<fathom_scan_cloud_options>?) -> fathom_status {
    abiCall("fathom_scan_cloud_options_init") { () throws(FathomError) in try required(options, "options").pointee = .defaults }
}

@_cdecl("fathom_scan_point_cloud")
public func fathom_scan_point_cloud(_ handle: OpaquePointer?, _ options: UnsafePointer<fathom_scan_cloud_options>?,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_scan_point_cloud") { () throws(FathomError) in
        let s = try scan(handle)
        let o = options?.pointee ?? .defaults
        try reserved(bytesOf: o.reserved, "options.reserved")
        guard o.min_confidence <= 255 else { throw FathomError(.outOfRange, "options.min_confidence must be 0...255, got \(o.min_confidence)") }
        guard o.voxel == 0 || (o.voxel >= 1e-4 && o.voxel <= 10) else {
            throw FathomError(o.voxel.isNaN ? .notFinite : .outOfRange, "options.voxel must be 0 (none) or in [1e-4, 10] m, got \(o.voxel)")
        }
        let out = try required(out, "out")
        guard o.frame_step >= 1 else { throw FathomError(.outOfRange, "options.frame_step must be >= 1, got \(o.frame_step)") }
        guard o.max_depth > 0 else {
            throw FathomError(o.max_depth.isNaN ? .notFinite : .outOfRange, "options.max_depth must be > 0, got \(o.max_depth)")
        }
        let cloud = try s.pointCloud(minConfidence: UInt8(o.min_confidence), maxDepth: o.max_depth,
                                     voxel: o.voxel == 0 ? nil : o.voxel, step: Int(clamping: o.frame_step))
        out.pointee = pointCloudHandle(cloud)
    }
}

@_cdecl("fathom_scan_write")
public func fathom_scan_write(_ handle: OpaquePointer?, _ directory: UnsafePointer<CChar>?, _ format: UInt32,
                              _ progress: fathom_progress_fn?, _ user: UnsafeMutableRawPointer?) -> fathom_status {
    abiCall("fathom_scan_write") { () throws(FathomError) in
        let s = try scan(handle)
        let directory = try pathArgument(directory, "directory")
        guard let target = ScanFormat(rawValue: format), target != .nerfstudio else {
            throw FathomError(.outOfRange, "format must be FATHOM_SCAN_SCANNER (0) or FATHOM_SCAN_STRAY (1), got \(format)")
        }
        let callback = progress.map { fn in { (done: Int, total: Int) -> Bool in fn(user, UInt64(done), UInt64(total)) == 0 } }
        try s.write(to: directory, format: target, progress: callback)
    }
}
