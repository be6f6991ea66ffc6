import CFathom
import FathomCore

// Least-squares and RANSAC fits — see include/fathom.h.

/// Validated double points from the C arguments.
func fitPoints(_ points: UnsafePointer<Double>?, _ count: Int, _ stride: Int, dimensions: Int) throws(FathomError) -> FitPoints {
    try FitPoints(base: required(points, "points"), count: size(count, "count"), strideBytes: size(stride, "stride"),
                  dimensions: dimensions)
}

/// Validated float points from the C arguments (the fits' `f` variants).
func fitPoints(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int, dimensions: Int) throws(FathomError) -> FitPoints {
    try FitPoints(floats: required(points, "points"), count: size(count, "count"), strideBytes: size(stride, "stride"),
                  dimensions: dimensions)
}

/// Validated RANSAC options from the C struct.
func ransacOptions(_ pointer: UnsafePointer<fathom_ransac_options>?, _ name: String = "options") throws(FathomError) -> RansacOptions {
    let o = try required(pointer, name).pointee
    try reserved(bytesOf: o.reserved, "\(name).reserved")
    return try RansacOptions(threshold: o.threshold, iterations: Int(o.iterations), seed: o.seed, confidence: o.confidence)
}

extension fathom_ransac_options {
    init(_ o: RansacOptions) {
        self.init()
        threshold = o.threshold
        confidence = o.confidence
        seed = o.seed
        iterations = UInt32(o.iterations)
    }
}

@_cdecl("fathom_ransac_options_init")
public func fathom_ransac_options_init(_ options: UnsafeMutablePointer<fathom_ransac_options>?) -> fathom_status {
    abiCall("fathom_ransac_options_init") { () throws(FathomError) in
        try required(options, "options").pointee = fathom_ransac_options(RansacOptions.defaults)
    }
}

extension fathom_line_fit {
    init(_ fit: LineFit) {
        self.init(point: (fit.point.x, fit.point.y, fit.point.z), direction: (fit.direction.x, fit.direction.y, fit.direction.z),
                  rms: fit.rms, max_residual: fit.maxResidual, t_min: fit.tMin, t_max: fit.tMax, used: UInt64(fit.used))
    }
}

extension fathom_plane_fit {
    init(_ fit: PlaneFit) {
        self.init(point: (fit.point.x, fit.point.y, fit.point.z), normal: (fit.normal.x, fit.normal.y, fit.normal.z),
                  rms: fit.rms, max_residual: fit.maxResidual, used: UInt64(fit.used))
    }
}

// Each fit is one function of validated points, exported twice: for double points and, with an `f`, for float points.
// The points are checked before the other arguments, as the header lists them.

private func line2(_ points: FitPoints, _ method: UInt32, _ out: UnsafeMutablePointer<fathom_line_fit>?) throws(FathomError) {
    guard let m = LineMethod(rawValue: method) else {
        throw FathomError(.outOfRange, "method must be 0 (ORDINARY) or 1 (TOTAL), got \(method)")
    }
    let result = try required(out, "out")
    result.pointee = fathom_line_fit(try LineFit.fit2D(points, method: m))
}

private func line3(_ points: FitPoints, _ out: UnsafeMutablePointer<fathom_line_fit>?) throws(FathomError) {
    let result = try required(out, "out")
    result.pointee = fathom_line_fit(try LineFit.fit3D(points))
}

private func lineRansac(_ points: FitPoints, _ options: UnsafePointer<fathom_ransac_options>?,
                        _ out: UnsafeMutablePointer<fathom_line_fit>?, _ inliers: UnsafeMutablePointer<UInt8>?) throws(FathomError) {
    let o = try ransacOptions(options)
    let result = try required(out, "out")
    result.pointee = fathom_line_fit(try LineFit.ransac(points, o, inliers: inliers))
}

private func plane(_ points: FitPoints, _ out: UnsafeMutablePointer<fathom_plane_fit>?) throws(FathomError) {
    let result = try required(out, "out")
    result.pointee = fathom_plane_fit(try PlaneFit.fit(points))
}

private func planeRansac(_ points: FitPoints, _ options: UnsafePointer<fathom_ransac_options>?,
                         _ out: UnsafeMutablePointer<fathom_plane_fit>?, _ inliers: UnsafeMutablePointer<UInt8>?) throws(FathomError) {
    let o = try ransacOptions(options)
    let result = try required(out, "out")
    result.pointee = fathom_plane_fit(try PlaneFit.ransac(points, o, inliers: inliers))
}

private func ransacDimensions(_ dimensions: UInt32) throws(FathomError) -> Int {
    guard dimensions == 2 || dimensions == 3 else { throw FathomError(.outOfRange, "dimensions must be 2 or 3, got \(dimensions)") }
    return Int(dimensions)
}

@_cdecl("fathom_fit_line2")
public func fathom_fit_line2(_ points: UnsafePointer<Double>?, _ count: Int, _ stride: Int, _ method: UInt32,
                             _ out: UnsafeMutablePointer<fathom_line_fit>?) -> fathom_status {
    abiCall("fathom_fit_line2") { () throws(FathomError) in try line2(fitPoints(points, count, stride, dimensions: 2), method, out) }
}

@_cdecl("fathom_fit_line2f")
public func fathom_fit_line2f(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int, _ method: UInt32,
                              _ out: UnsafeMutablePointer<fathom_line_fit>?) -> fathom_status {
    abiCall("fathom_fit_line2f") { () throws(FathomError) in try line2(fitPoints(points, count, stride, dimensions: 2), method, out) }
}

@_cdecl("fathom_fit_line3")
public func fathom_fit_line3(_ points: UnsafePointer<Double>?, _ count: Int, _ stride: Int,
                             _ out: UnsafeMutablePointer<fathom_line_fit>?) -> fathom_status {
    abiCall("fathom_fit_line3") { () throws(FathomError) in try line3(fitPoints(points, count, stride, dimensions: 3), out) }
}

@_cdecl("fathom_fit_line3f")
public func fathom_fit_line3f(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                              _ out: UnsafeMutablePointer<fathom_line_fit>?) -> fathom_status {
    abiCall("fathom_fit_line3f") { () throws(FathomError) in try line3(fitPoints(points, count, stride, dimensions: 3), out) }
}

@_cdecl("fathom_fit_line_ransac")
public func fathom_fit_line_ransac(_ points: UnsafePointer<Double>?, _ count: Int, _ stride: Int, _ dimensions: UInt32,
                                   _ options: UnsafePointer<fathom_ransac_options>?,
                                   _ out: UnsafeMutablePointer<fathom_line_fit>?, _ outInliers: UnsafeMutablePointer<UInt8>?) -> fathom_status {
    abiCall("fathom_fit_line_ransac") { () throws(FathomError) in
        try lineRansac(fitPoints(points, count, stride, dimensions: ransacDimensions(dimensions)), options, out, outInliers)
    }
}

@_cdecl("fathom_fit_line_ransacf")
public func fathom_fit_line_ransacf(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int, _ dimensions: UInt32,
                                    _ options: UnsafePointer<fathom_ransac_options>?,
                                    _ out: UnsafeMutablePointer<fathom_line_fit>?, _ outInliers: UnsafeMutablePointer<UInt8>?) -> fathom_status {
    abiCall("fathom_fit_line_ransacf") { () throws(FathomError) in
        try lineRansac(fitPoints(points, count, stride, dimensions: ransacDimensions(dimensions)), options, out, outInliers)
    }
}

@_cdecl("fathom_fit_plane")
public func fathom_fit_plane(_ points: UnsafePointer<Double>?, _ count: Int, _ stride: Int,
                             _ out: UnsafeMutablePointer<fathom_plane_fit>?) -> fathom_status {
    abiCall("fathom_fit_plane") { () throws(FathomError) in try plane(fitPoints(points, count, stride, dimensions: 3), out) }
}

@_cdecl("fathom_fit_planef")
public func fathom_fit_planef(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                              _ out: UnsafeMutablePointer<fathom_plane_fit>?) -> fathom_status {
    abiCall("fathom_fit_planef") { () throws(FathomError) in try plane(fitPoints(points, count, stride, dimensions: 3), out) }
}

@_cdecl("fathom_fit_plane_ransac")
public func fathom_fit_plane_ransac(_ points: UnsafePointer<Double>?, _ count: Int, _ stride: Int,
                                    _ options: UnsafePointer<fathom_ransac_options>?,
                                    _ out: UnsafeMutablePointer<fathom_plane_fit>?, _ outInliers: UnsafeMutablePointer<UInt8>?) -> fathom_status {
    abiCall("fathom_fit_plane_ransac") { () throws(FathomError) in
        try planeRansac(fitPoints(points, count, stride, dimensions: 3), options, out, outInliers)
    }
}

@_cdecl("fathom_fit_plane_ransacf")
public func fathom_fit_plane_ransacf(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                                     _ options: UnsafePointer<fathom_ransac_options>?,
                                     _ out: UnsafeMutablePointer<fathom_plane_fit>?, _ outInliers: UnsafeMutablePointer<UInt8>?) -> fathom_status {
    abiCall("fathom_fit_plane_ransacf") { () throws(FathomError) in
        try planeRansac(fitPoints(points, count, stride, dimensions: 3), options, out, outInliers)
    }
}
