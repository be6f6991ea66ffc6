import CFathom
import FathomCore

// NeRF-style transforms.json, read and written — see include/fathom.h.

/// The timestamps of `rate` (0: frame indices).
private func transformsRate(_ rate: Double) throws(FathomError) -> Double? {
    guard rate.isFinite else { throw FathomError(.notFinite, "rate must be finite, got \(rate)") }
    guard rate >= 0 else { throw FathomError(.outOfRange, "rate must be >= 0 frames per second (0: frame indices), got \(rate)") }
    return rate == 0 ? nil : rate
}

/// A transforms.json read once, behind a C handle: its frames and their timestamps.
final class TransformsHandle {
    let file: TransformsFile
    let timestamps: [Int64]

    /// Reads `path` (checked by `pathArgument`), with timestamps at `rate` (checked by `transformsRate`).
    init(path: String, rate: Double?) throws(FathomError) {
        file = try TransformsFile.load(path: path)
        timestamps = try TransformsFile.timestamps(count: file.frames.count, rate: rate)
    }

    /// Size-then-fill of the frames (fathom_transforms_frames).
    func frames(_ outTimestamps: UnsafeMutablePointer<Int64>?, _ outPoses: UnsafeMutablePointer<fathom_pose>?,
                _ outIntrinsics: UnsafeMutablePointer<fathom_intrinsics>?, _ capacity: Int,
                _ outCount: UnsafeMutablePointer<Int>?) throws(FathomError) {
        let count = try required(outCount, "out_count")
        if capacityLimit(capacity) > 0 {
            _ = try required(outTimestamps, "out_timestamps")
            _ = try required(outPoses, "out_poses")
            _ = try required(outIntrinsics, "out_intrinsics")
        }
        let n = file.frames.count
        count.pointee = n
        try requireCapacity(capacity, n, "frames needed")
        guard n > 0, let outTimestamps, let outPoses, let outIntrinsics else { return }
        for (i, frame) in file.frames.enumerated() {
            outTimestamps[i] = timestamps[i]
            outPoses[i] = fathom_pose(frame.pose)
            outIntrinsics[i] = fathom_intrinsics(frame.intrinsics)
        }
    }

    /// Size-then-fill of the file paths (fathom_transforms_paths).
    func paths(_ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ outLength: UnsafeMutablePointer<Int>?) throws(FathomError) {
        _ = try required(outLength, "out_length")
        var bytes = [UInt8]()
        for frame in file.frames {
            // The reader refuses a path holding a NUL, so each one ends at its own.
            bytes += (frame.filePath ?? "").utf8
            bytes.append(0)
        }
        try writeBytes(bytes, terminated: false, buffer, capacity, outLength)
    }
}

private func transforms(_ handle: OpaquePointer?) throws(FathomError) -> TransformsHandle { try object(handle, "transforms") }

@_cdecl("fathom_transforms_read")
public func fathom_transforms_read(_ path: UnsafePointer<CChar>?, _ rate: Double, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_transforms_read") { () throws(FathomError) in
        out?.pointee = nil
        let path = try pathArgument(path, "path")
        let rate = try transformsRate(rate)
        let out = try required(out, "out")
        out.pointee = retainedHandle(try TransformsHandle(path: path, rate: rate))
    }
}

@_cdecl("fathom_transforms_frames")
public func fathom_transforms_frames(_ handle: OpaquePointer?, _ outTimestamps: UnsafeMutablePointer<Int64>?,
                                     _ outPoses: UnsafeMutablePointer<fathom_pose>?, _ outIntrinsics: UnsafeMutablePointer<fathom_intrinsics>?,
                                     _ capacity: Int, _ outCount: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_transforms_frames") { () throws(FathomError) in
        try transforms(handle).frames(outTimestamps, outPoses, outIntrinsics, capacity, outCount)
    }
}

@_cdecl("fathom_transforms_paths")
public func fathom_transforms_paths(_ handle: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                                    _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_transforms_paths") { () throws(FathomError) in
        try transforms(handle).paths(buffer, capacity, outLength)
    }
}

@_cdecl("fathom_transforms_destroy")
public func fathom_transforms_destroy(_ handle: OpaquePointer?) {
    releaseHandle(handle, as: TransformsHandle.self)
}

@_cdecl("fathom_transforms_save")
public func fathom_transforms_save(_ path: UnsafePointer<CChar>?, _ poses: UnsafePointer<fathom_pose>?,
                                   _ intrinsics: UnsafePointer<fathom_intrinsics>?, _ count: Int,
                                   _ filePaths: UnsafePointer<UnsafePointer<CChar>?>?) -> fathom_status {
    abiCall("fathom_transforms_save") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        let count = try size(count, "count", elementBytes: MemoryLayout<TransformsFile.Frame>.stride)
        var frames = [TransformsFile.Frame]()
        if count > 0 {
            let poses = try elements(poses, count, "poses", copiedAs: TransformsFile.Frame.self)
            let intrinsicsArray = try elements(intrinsics, count, "intrinsics", copiedAs: TransformsFile.Frame.self)
            frames.reserveCapacity(count)
            for i in 0..<count {
                let pose = try Pose(columnMajor: floats(poses[i]), name: "poses[\(i)]")
                let k = intrinsicsArray[i]
                let camera: Intrinsics
                do throws(FathomError) {
                    camera = try Intrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: Int(k.width), height: Int(k.height))
                } catch {
                    throw FathomError(error.kind, "intrinsics[\(i)].\(error.message)")
                }
                var name: String?
                if let filePaths {
                    let entry = try required(filePaths[i], "file_paths[\(i)]")
                    guard let text = String(validatingCString: entry) else {
                        throw FathomError(.outOfRange, "file_paths[\(i)] is not valid UTF-8")
                    }
                    name = text
                }
                frames.append(TransformsFile.Frame(pose: pose, intrinsics: camera, filePath: name))
            }
        }
        try TransformsFile(frames: frames).save(path: path)
    }
}
