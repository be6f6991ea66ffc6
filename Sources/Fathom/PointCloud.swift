import CFathom
import FathomCore

// Point clouds and PLY — see include/fathom.h. A fathom_point_cloud * is a retained PointCloudHandle;
// fathom_point_cloud_destroy releases it.

/// The object behind a `fathom_point_cloud *`: an immutable cloud (so it may be read from many threads).
final class PointCloudHandle {
    let cloud: PointCloud
    init(_ cloud: PointCloud) { self.cloud = cloud }
}

/// A new `fathom_point_cloud *` holding `cloud` (retained: the caller frees it with fathom_point_cloud_destroy).
func pointCloudHandle(_ cloud: PointCloud) -> OpaquePointer { retainedHandle(PointCloudHandle(cloud)) }

private func pointCloud(_ handle: OpaquePointer?) throws(FathomError) -> PointCloud { try object(handle, "cloud", as: PointCloudHandle.self).cloud }

/// A point buffer (pointer, count, byte stride) as 3 * count packed floats, each point finite; count 0 allows NULL.
func packedPoints(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                  names: (points: String, count: String, stride: String) = ("points", "count", "stride")) throws(FathomError) -> [Float] {
    guard try size(count, names.count) > 0 else { return [] }
    let buffer = try pointBuffer(points, count, stride, names: names)
    let xyz = [Float](unsafeUninitializedCapacity: 3 * count) { out, initialized in
        for i in 0..<count {
            let p = buffer.base + i &* buffer.floatStride
            out[3 * i] = p[0]; out[3 * i + 1] = p[1]; out[3 * i + 2] = p[2]
        }
        initialized = 3 * count
    }
    try buffer.requireFinite(names.points)
    return xyz
}

/// The PLY encoding named by a `fathom_ply_format` value.
private func plyEncoding(_ format: UInt32) throws(FathomError) -> PointCloud.PLYEncoding {
    switch format {
    case 0: return .binary
    case 1: return .ascii
    default: throw FathomError(.outOfRange, "format must be FATHOM_PLY_BINARY (0) or FATHOM_PLY_ASCII (1), got \(format)")
    }
}


@_cdecl("fathom_point_cloud_load_ply")
public func fathom_point_cloud_load_ply(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_point_cloud_load_ply") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        let out = try required(out, "out")
        out.pointee = pointCloudHandle(try PointCloud.load(plyPath: path))
    }
}

@_cdecl("fathom_point_cloud_destroy")
public func fathom_point_cloud_destroy(_ handle: OpaquePointer?) { releaseHandle(handle, as: PointCloudHandle.self) }

@_cdecl("fathom_point_cloud_get_info")
public func fathom_point_cloud_get_info(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_point_cloud_info>?) -> fathom_status {
    abiCall("fathom_point_cloud_get_info") { () throws(FathomError) in
        let cloud = try pointCloud(handle)
        let out = try required(out, "out")
        var info = fathom_point_cloud_info()
        info.count = UInt64(cloud.count)
        info.has_normals = cloud.normals != nil
        info.has_colors = cloud.colors != nil
        info.has_confidence = cloud.confidence != nil
        out.pointee = info
    }
}

@_cdecl("fathom_point_cloud_points")
public func fathom_point_cloud_points(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_point_cloud_points") { () throws(FathomError) in
        let cloud = try pointCloud(handle)
        try copyOut(cloud.points, width: 3, to: out, capacity: capacity, what: "points")
    }
}

@_cdecl("fathom_point_cloud_normals")
public func fathom_point_cloud_normals(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_point_cloud_normals") { () throws(FathomError) in
        let cloud = try pointCloud(handle)
        guard let normals = cloud.normals else { throw FathomError(.noData, "the cloud has no normals") }
        try copyOut(normals, width: 3, to: out, capacity: capacity, what: "points")
    }
}

@_cdecl("fathom_point_cloud_colors")
public func fathom_point_cloud_colors(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_point_cloud_colors") { () throws(FathomError) in
        let cloud = try pointCloud(handle)
        guard let colors = cloud.colors else { throw FathomError(.noData, "the cloud has no colors") }
        try copyOut(colors, width: 3, to: out, capacity: capacity, what: "points")
    }
}

@_cdecl("fathom_point_cloud_confidence")
public func fathom_point_cloud_confidence(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_point_cloud_confidence") { () throws(FathomError) in
        let cloud = try pointCloud(handle)
        guard let confidence = cloud.confidence else { throw FathomError(.noData, "the cloud has no confidence") }
        try copyOut(confidence, to: out, capacity: capacity, what: "points")
    }
}

@_cdecl("fathom_point_cloud_save_ply")
public func fathom_point_cloud_save_ply(_ handle: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ format: UInt32) -> fathom_status {
    abiCall("fathom_point_cloud_save_ply") { () throws(FathomError) in
        let cloud = try pointCloud(handle)
        let path = try pathArgument(path, "path")
        try cloud.savePLY(path: path, encoding: plyEncoding(format))
    }
}

@_cdecl("fathom_ply_write_points")
public func fathom_ply_write_points(_ path: UnsafePointer<CChar>?, _ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                                    _ normals: UnsafePointer<Float>?, _ colors: UnsafePointer<UInt8>?,
                                    _ confidence: UnsafePointer<UInt8>?, _ format: UInt32) -> fathom_status {
    abiCall("fathom_ply_write_points") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        let encoding = try plyEncoding(format)
        let count = try size(count, "count")
        let xyz = try packedPoints(points, count, stride)
        if count > 0 {
            if let normals, Int(bitPattern: normals) % 4 != 0 {
                throw FathomError(.outOfRange, "normals must be 4-byte aligned")
            }
        }
        // count * stride did not overflow (stride >= 12), so neither do 3 * count floats or bytes.
        let cloud = try PointCloud(points: xyz,
                                   normals: normals.map { Array(UnsafeBufferPointer(start: $0, count: 3 * count)) },
                                   colors: colors.map { Array(UnsafeBufferPointer(start: $0, count: 3 * count)) },
                                   confidence: confidence.map { Array(UnsafeBufferPointer(start: $0, count: count)) })
        if let normals = cloud.normals {
            for i in 0..<count where !(normals[3 * i].isFinite && normals[3 * i + 1].isFinite && normals[3 * i + 2].isFinite) {
                throw FathomError(.notFinite, "normals[\(i)] = (\(normals[3 * i]), \(normals[3 * i + 1]), \(normals[3 * i + 2])) is not finite")
            }
        }
        try FileIO.write(cloud.plyBytes(encoding), to: path)
    }
}
