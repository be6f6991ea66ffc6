import CFathom
import FathomCore

// NeRF-style transforms.json, read and written — see include/fathom.h.

/// The timestamps of `rate` (0: frame indices).
private func transformsRate(_ rate: Double) throws(FathomError) -> Double? {
    guard rate.isFinite else { throw FathomError(.notFinite, "rate must be finite, got \(rate)") }
    guard rate >= 0 else { throw FathomError(.outOfRange, "rate must be >= 0 frames per second (0: frame indices), got \(rate)") }
    return rate == 0 ? nil : rate
}

@_cdecl("fathom_transforms_load")
public func fathom_transforms_load(_ path: UnsafePointer<CChar>?, _ rate: Double, _ outTimestamps: UnsafeMutablePointer<Int64>?,
                                   _ outPoses: UnsafeMutablePointer<fathom_pose>?, _ outIntrinsics: UnsafeMutablePointer<fathom_intrinsics>?,
                                   _ capacity: Int, _ outCount: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_transforms_load") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        let rate = try transformsRate(rate)
        let count = try required(outCount, "out_count")
        if capacityLimit(capacity) > 0 {
            _ = try required(outTimestamps, "out_timestamps")
            _ = try required(outPoses, "out_poses")
            _ = try required(outIntrinsics, "out_intrinsics")
        }
        let file = try TransformsFile.load(path: path)
        let n = file.frames.count
        let timestamps = try TransformsFile.timestamps(count: n, rate: rate)
        count.pointee = n
        try requireCapacity(capacity, n, "frames needed")
        guard n > 0, let outTimestamps, let outPoses, let outIntrinsics else { return }
        for (i, frame) in file.frames.enumerated() {
            outTimestamps[i] = timestamps[i]
            outPoses[i] = fathom_pose(frame.pose)
            outIntrinsics[i] = fathom_intrinsics(frame.intrinsics)
        }
    }
}

@_cdecl("fathom_transforms_file_paths")
public func fathom_transforms_file_paths(_ path: UnsafePointer<CChar>?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                                         _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_transforms_file_paths") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        _ = try required(outLength, "out_length")
        let file = try TransformsFile.load(path: path)
        var bytes = [UInt8]()
        for frame in file.frames {
            bytes += (frame.filePath ?? "").utf8.map { $0 == 0 ? 0x3F : $0 }  // a NUL inside a path would split it: '?'
            bytes.append(0)
        }
        try writeBytes(bytes, terminated: false, buffer, capacity, outLength)
    }
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
