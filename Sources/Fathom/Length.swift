import CFathom
import FathomCore

// Object length from depth — see include/fathom.h.

extension fathom_length_options {
    init(_ o: LengthOptions) {
        self.init(keypoint_depth: o.keypointDepth.rawValue, window: UInt32(o.window), out_frame: o.frame.rawValue,
                  trim_points: UInt32(o.trimPoints), trim_fraction: o.trimFraction,
                  plane: fathom_ransac_options(o.plane),
                  depth_noise: o.depthNoise, depth_noise_growth: o.depthNoiseGrowth, pixel_noise: o.pixelNoise,
                  edge_noise: o.edgeNoise, reserved: (0, 0, 0, 0))
    }
}

/// Validated length options (NULL: the defaults).
func lengthOptions(_ pointer: UnsafePointer<fathom_length_options>?) throws(FathomError) -> LengthOptions {
    var options = LengthOptions()
    guard let o = pointer?.pointee else { return options }
    try reserved(bytesOf: o.reserved, "options.reserved")
    guard let depth = KeypointDepth(rawValue: o.keypoint_depth) else {
        throw FathomError(.outOfRange, "options.keypoint_depth must be 0 (NEAREST), 1 (MEDIAN) or 2 (PLANE), got \(o.keypoint_depth)")
    }
    options.keypointDepth = depth
    options.window = Int(o.window)
    options.frame = try pointFrame(o.out_frame, "options.out_frame")
    options.trimPoints = Int(o.trim_points)
    options.trimFraction = o.trim_fraction
    options.plane = try withUnsafePointer(to: o.plane) { p throws(FathomError) in try ransacOptions(p, "options.plane") }
    options.depthNoise = o.depth_noise
    options.depthNoiseGrowth = o.depth_noise_growth
    options.pixelNoise = o.pixel_noise
    options.edgeNoise = o.edge_noise
    try options.validate()
    return options
}

/// The optional mask of the keypoint and polyline lengths, required when keypoints take their depth from a plane.
private func keypointMask(_ pointer: UnsafePointer<fathom_mask>?, _ options: LengthOptions) throws(FathomError) -> Mask? {
    if options.keypointDepth == .plane { _ = try required(pointer, "mask", " for FATHOM_KEYPOINT_PLANE") }
    return try pointer.map { p throws(FathomError) in try mask(p) }
}

extension fathom_length {
    init(_ l: ObjectLength) {
        self.init(length: l.length, sigma: l.sigma, head: (l.head.x, l.head.y, l.head.z), tail: (l.tail.x, l.tail.y, l.tail.z),
                  head_pixel: (l.headPixel.x, l.headPixel.y), tail_pixel: (l.tailPixel.x, l.tailPixel.y), rms: l.rms,
                  samples: UInt64(l.samples), reserved: (0, 0, 0, 0))
    }
}

@_cdecl("fathom_length_options_init")
public func fathom_length_options_init(_ options: UnsafeMutablePointer<fathom_length_options>?) -> fathom_status {
    abiCall("fathom_length_options_init") { () throws(FathomError) in
        try required(options, "options").pointee = fathom_length_options(LengthOptions())
    }
}

@_cdecl("fathom_length_keypoints")
public func fathom_length_keypoints(_ frame: UnsafePointer<fathom_depth_frame>?, _ headU: Float, _ headV: Float,
                                    _ tailU: Float, _ tailV: Float, _ maskPointer: UnsafePointer<fathom_mask>?,
                                    _ options: UnsafePointer<fathom_length_options>?,
                                    _ out: UnsafeMutablePointer<fathom_length>?) -> fathom_status {
    abiCall("fathom_length_keypoints") { () throws(FathomError) in
        let f = try depthFrame(frame)
        let o = try lengthOptions(options)
        let m = try keypointMask(maskPointer, o)
        let result = try required(out, "out")
        result.pointee = fathom_length(try f.measure(head: SIMD2(headU, headV), tail: SIMD2(tailU, tailV), mask: m, options: o))
    }
}

@_cdecl("fathom_length_mask")
public func fathom_length_mask(_ frame: UnsafePointer<fathom_depth_frame>?, _ maskPointer: UnsafePointer<fathom_mask>?,
                               _ options: UnsafePointer<fathom_length_options>?,
                               _ out: UnsafeMutablePointer<fathom_length>?) -> fathom_status {
    abiCall("fathom_length_mask") { () throws(FathomError) in
        let f = try depthFrame(frame)
        let m = try mask(maskPointer)
        let o = try lengthOptions(options)
        let result = try required(out, "out")
        result.pointee = fathom_length(try f.measure(mask: m, options: o))
    }
}

@_cdecl("fathom_length_midline")
public func fathom_length_midline(_ frame: UnsafePointer<fathom_depth_frame>?, _ maskPointer: UnsafePointer<fathom_mask>?,
                                  _ options: UnsafePointer<fathom_length_options>?,
                                  _ out: UnsafeMutablePointer<fathom_length>?, _ curve: UnsafeMutablePointer<Double>?,
                                  _ curveCount: Int) -> fathom_status {
    abiCall("fathom_length_midline") { () throws(FathomError) in
        let f = try depthFrame(frame)
        let m = try mask(maskPointer)
        let o = try lengthOptions(options)
        let result = try required(out, "out")
        if curve != nil {
            // Not `size(minimum: 2)`: a curve_count above Int.max (arriving negative) is out of range here, not an overflow.
            guard curveCount >= 2 else { throw FathomError(.outOfRange, "curve_count must be >= 2, got \(UInt(bitPattern: curveCount))") }
            _ = try size(curveCount, "curve_count", elementBytes: 24)
        }
        let midline = try f.measureMidline(mask: m, options: o)
        result.pointee = fathom_length(midline.length)
        if let curve {
            midline.forEachCurvePoint(curveCount) { k, p in
                curve[3 * k] = p.x; curve[3 * k + 1] = p.y; curve[3 * k + 2] = p.z
            }
        }
    }
}

@_cdecl("fathom_length_polyline")
public func fathom_length_polyline(_ frame: UnsafePointer<fathom_depth_frame>?, _ pixels: UnsafePointer<Float>?, _ count: Int,
                                   _ maskPointer: UnsafePointer<fathom_mask>?, _ options: UnsafePointer<fathom_length_options>?,
                                   _ out: UnsafeMutablePointer<fathom_length>?) -> fathom_status {
    abiCall("fathom_length_polyline") { () throws(FathomError) in
        let f = try depthFrame(frame)
        let n = try size(count, "count", elementBytes: 8, minimum: 1)
        let base = try required(pixels, "pixels")
        let o = try lengthOptions(options)
        let m = try keypointMask(maskPointer, o)
        let result = try required(out, "out")
        let points = (0..<n).map { SIMD2(base[2 * $0], base[2 * $0 + 1]) }
        result.pointee = fathom_length(try f.measure(polyline: points, mask: m, options: o))
    }
}

@_cdecl("fathom_mask_endpoints")
public func fathom_mask_endpoints(_ maskPointer: UnsafePointer<fathom_mask>?, _ outEnd0: UnsafeMutablePointer<Float>?,
                                  _ outEnd1: UnsafeMutablePointer<Float>?,
                                  _ outAxis: UnsafeMutablePointer<fathom_line_fit>?) -> fathom_status {
    abiCall("fathom_mask_endpoints") { () throws(FathomError) in
        let m = try mask(maskPointer)
        let end0 = try required(outEnd0, "out_end0"), end1 = try required(outEnd1, "out_end1")
        let ends = try m.endpoints()
        end0[0] = ends.end0.x; end0[1] = ends.end0.y
        end1[0] = ends.end1.x; end1[1] = ends.end1.y
        outAxis?.pointee = fathom_line_fit(ends.axis)
    }
}
