import CFathom
import FathomCore

// Depth frames, back-projection and sampling — see include/fathom.h.

/// A validated core depth frame from the C description.
func depthFrame(_ pointer: UnsafePointer<fathom_depth_frame>?) throws(FathomError) -> DepthFrame {
    let f = try required(pointer, "frame").pointee
    let depth = try required(f.depth, "frame.depth")
    guard let format = DepthFormat(rawValue: f.format) else {
        throw FathomError(.outOfRange, "frame.format must be 0 (FLOAT32), 1 (FLOAT16) or 2 (UINT16), got \(f.format)")
    }
    let hasPose = try boolField(f, \.has_pose, "frame.has_pose")
    try reserved(bytesOf: f.reserved, "frame.reserved")
    let k = f.intrinsics
    let rgb = try Intrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: Int(k.width), height: Int(k.height))
    let pose = hasPose ? try Pose(columnMajor: floats(f.camera_to_world), name: "frame.camera_to_world") : nil
    return try DepthFrame(base: depth, format: format, width: Int(f.width), height: Int(f.height),
                          rowStride: try size(f.row_stride, "frame.row_stride"), scale: f.scale,
                          confidence: f.confidence, confidenceStride: try size(f.confidence_stride, "frame.confidence_stride"),
                          minConfidence: f.min_confidence, minDepth: f.min_depth, maxDepth: f.max_depth, rgb: rgb, pose: pose)
}

/// A validated core mask from the C struct.
func mask(_ pointer: UnsafePointer<fathom_mask>?, _ name: String = "mask") throws(FathomError) -> Mask {
    let m = try required(pointer, name).pointee
    return try Mask(base: required(m.data, "\(name).data"), width: Int(m.width), height: Int(m.height),
                    rowStride: size(m.row_stride, "\(name).row_stride"))
}

/// The selection (NULL: every sample), validated against the frame.
func selection(_ pointer: UnsafePointer<fathom_depth_selection>?, _ frame: DepthFrame) throws(FathomError) -> DepthSelection {
    guard let s = pointer?.pointee else { return .all(frame) }
    let m = try s.mask.map { m throws(FathomError) in try mask(m, "selection.mask") }
    return try DepthSelection(x0: Int(s.x0), y0: Int(s.y0), x1: Int(s.x1), y1: Int(s.y1), step: Int(s.step), mask: m, frame: frame)
}

/// A fathom_frame value as the core's PointFrame.
func pointFrame(_ value: UInt32, _ name: String) throws(FathomError) -> PointFrame {
    guard let frame = PointFrame(rawValue: value) else {
        throw FathomError(.outOfRange, "\(name) must be 0 (OPTICAL), 1 (CAMERA) or 2 (WORLD), got \(value)")
    }
    return frame
}

@_cdecl("fathom_depth_frame_init")
public func fathom_depth_frame_init(_ frame: UnsafeMutablePointer<fathom_depth_frame>?, _ depth: UnsafeRawPointer?, _ format: UInt32,
                                    _ width: UInt32, _ height: UInt32, _ k: UnsafePointer<fathom_intrinsics>?) -> fathom_status {
    abiCall("fathom_depth_frame_init") { () throws(FathomError) in
        let out = try required(frame, "frame")
        let intrinsics = try required(k, "intrinsics").pointee
        var f = fathom_depth_frame()
        f.depth = depth
        f.format = format
        f.width = width
        f.height = height
        f.scale = format == UInt32(FATHOM_DEPTH_UINT16.rawValue) ? 0.001 : 1
        f.max_depth = .infinity
        f.intrinsics = intrinsics
        f.camera_to_world = fathom_pose(Pose.identity)
        out.pointee = f
    }
}

@_cdecl("fathom_depth_count")
public func fathom_depth_count(_ frame: UnsafePointer<fathom_depth_frame>?, _ sel: UnsafePointer<fathom_depth_selection>?,
                               _ outCount: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_depth_count") { () throws(FathomError) in
        let f = try depthFrame(frame)
        let s = try selection(sel, f)
        let out = try required(outCount, "out_count")
        out.pointee = f.validCount(s)
    }
}

@_cdecl("fathom_depth_backproject")
public func fathom_depth_backproject(_ frame: UnsafePointer<fathom_depth_frame>?, _ sel: UnsafePointer<fathom_depth_selection>?,
                                     _ outFrame: UInt32, _ outPoints: UnsafeMutablePointer<Float>?,
                                     _ outPixels: UnsafeMutablePointer<UInt32>?, _ outNormals: UnsafeMutablePointer<Float>?,
                                     _ capacity: Int, _ outCount: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_depth_backproject") { () throws(FathomError) in
        let f = try depthFrame(frame)
        let s = try selection(sel, f)
        let target = try pointFrame(outFrame, "out_frame")
        try f.require(target)
        let capacity = try size(capacity, "capacity")
        let points = capacity > 0 ? try required(outPoints, "out_points") : outPoints
        let count = try required(outCount, "out_count")
        let total = f.backproject(s, to: target, points: points, pixels: outPixels, normals: outNormals, capacity: capacity)
        count.pointee = total
        try requireCapacity(capacity, total, "valid samples (the first \(capacity) were written)")
    }
}

/// A validated sampling method and window.
func sampling(_ method: UInt32, _ window: UInt32) throws(FathomError) -> (DepthSampling, Int) {
    guard let m = DepthSampling(rawValue: method) else {
        throw FathomError(.outOfRange, "sampling must be 0 (NEAREST), 1 (BILINEAR) or 2 (MEDIAN), got \(method)")
    }
    return (m, m == .median ? Int(window) : 1)
}

@_cdecl("fathom_depth_sample")
public func fathom_depth_sample(_ frame: UnsafePointer<fathom_depth_frame>?, _ u: Float, _ v: Float, _ method: UInt32,
                                _ window: UInt32, _ outDepth: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_depth_sample") { () throws(FathomError) in
        let f = try depthFrame(frame)
        let (m, w) = try sampling(method, window)
        let out = try required(outDepth, "out_depth")
        out.pointee = try f.sample(u: u, v: v, m, window: w).depth
    }
}

@_cdecl("fathom_depth_point")
public func fathom_depth_point(_ frame: UnsafePointer<fathom_depth_frame>?, _ u: Float, _ v: Float, _ method: UInt32,
                               _ window: UInt32, _ outFrame: UInt32, _ out: UnsafeMutablePointer<fathom_vec3>?) -> fathom_status {
    abiCall("fathom_depth_point") { () throws(FathomError) in
        let f = try depthFrame(frame)
        let (m, w) = try sampling(method, window)
        let target = try pointFrame(outFrame, "out_frame")
        try f.require(target)
        let result = try required(out, "out")
        let d = try f.sample(u: u, v: v, m, window: w).depth
        result.pointee = fathom_vec3(f.convert(f.opticalPoint(u: u, v: v, depth: d), to: target))
    }
}
