import Glibc

/// One line of a scan's camera info (`<scan id>.jsonl`): a timestamp, the RGB intrinsics and the
/// camera-to-world pose. Other keys (`euler_angles`, `exposure_duration`, `quaternion`, ...) are ignored; a key
/// given twice counts by its last value.
struct CameraInfo {
    /// Nanoseconds since the device booted.
    var timestamp: Int64
    /// 3x3, column-major, pixels of the RGB image: [fx, 0, 0, 0, fy, 0, cx, cy, 1].
    var intrinsics: [Float]
    /// 4x4, column-major, camera-to-world in ARKit camera axes.
    var transform: [Float]

    /// Poses within this deviation from rigid are kept as written (so written scans read back bit for bit);
    /// beyond it, up to `repairable`, they are re-orthonormalized (ARKit's float32 matrices drift a little).
    static let exact: Float = 1e-5
    static let repairable: Float = 0.01

    /// The lines read from a camera info file.
    struct Lines {
        var timestamps: [Int64] = [], intrinsics: [Intrinsics] = [], poses: [Pose] = []
        /// Poses re-orthonormalized, and the largest deviation from rigid among them.
        var repaired = 0, worst: Float = 0
        /// The number of the last line when the file was cut while it was written (it is dropped).
        var cutLine: Int?
        /// The line at which reading stopped with `maxLines` read, when more followed.
        var stoppedAt: Int?
    }

    /// Reads the lines of the file at `path`, at most `maxLines` of them. Blank lines are skipped; a bad line
    /// throws `.parse` or `.format` naming the file, the line, the byte and the key, except a last line without
    /// its newline that is not valid JSON: the file was cut while that line was written (`cutLine`).
    /// `rgbSize` nil: the RGB image size is taken as twice the first line's principal point.
    static func load(_ path: String, rgbSize knownSize: (width: Int, height: Int)?, maxLines: Int = .max) throws(FathomError) -> Lines {
        var rgbSize = knownSize
        let bytes = try FileIO.read(path, limit: 1 << 30)
        var lines = Lines()
        var line = 0, start = 0
        while start < bytes.count {
            line += 1
            let end = bytes.withUnsafeBytes { (all: UnsafeRawBufferPointer) -> Int in
                guard let base = all.baseAddress, let newline = memchr(base + start, 0x0A, all.count - start) else { return all.count }
                return UnsafeRawPointer(newline) - base
            }
            defer { start = end + 1 }
            guard bytes[start..<end].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            guard lines.timestamps.count < maxLines else { lines.stoppedAt = line; break }
            let info: CameraInfo
            do throws(FathomError) {
                info = try CameraInfo(bytes, line: start..<end)
            } catch {
                if error.kind == .parse, end == bytes.count { lines.cutLine = line; break }
                throw FathomError(error.kind, "'\(path)': \(error.message)")  // the reader's messages give the line and byte
            }
            do throws(FathomError) {
                let size: (width: Int, height: Int)
                if let rgbSize { size = rgbSize } else { size = try info.imageSizeFromPrincipalPoint() }
                rgbSize = size
                let k = try info.rgbIntrinsics(size)
                let (pose, deviation) = try info.pose()
                if deviation > exact { lines.repaired += 1; lines.worst = Swift.max(lines.worst, deviation) }
                lines.timestamps.append(info.timestamp)
                lines.intrinsics.append(k)
                lines.poses.append(pose)
            } catch {
                throw FathomError(error.kind, "'\(path)' line \(line): \(error.message)")
            }
        }
        return lines
    }

    func rgbIntrinsics(_ size: (width: Int, height: Int)) throws(FathomError) -> Intrinsics {
        let k = intrinsics
        do {
            return try Intrinsics(fx: k[0], fy: k[4], cx: k[6], cy: k[7], width: size.width, height: size.height)
        } catch {
            throw FathomError(.format, "field intrinsics: \(error.message)")
        }
    }

    /// (2 cx, 2 cy) rounded: the image size when no stream states it.
    func imageSizeFromPrincipalPoint() throws(FathomError) -> (width: Int, height: Int) {
        guard intrinsics[6] >= 0.5, intrinsics[6] < 32768, intrinsics[7] >= 0.5, intrinsics[7] < 32768 else {
            throw FathomError(.format, "field intrinsics: no stream gives the RGB image size, and the principal point does not give one either")
        }
        return (Int((2 * Double(intrinsics[6])).rounded()), Int((2 * Double(intrinsics[7])).rounded()))
    }

    /// The pose and its deviation from rigid before any repair.
    func pose() throws(FathomError) -> (Pose, Float) {
        let m = transform
        let deviation = Pose.rigidDeviation(columnMajor: m)
        do {
            if deviation <= CameraInfo.exact { return (try Pose(columnMajor: m, name: "transform"), deviation) }
            return (try Pose.orthonormalized(columnMajor: m, maxDeviation: CameraInfo.repairable), deviation)
        } catch {
            throw FathomError(error.kind, "field transform: \(error.message)")
        }
    }
}

extension CameraInfo {
    /// The camera info on `bytes[line]`; errors name the line and byte in `bytes`.
    init(_ bytes: [UInt8], line: Range<Int>) throws(FathomError) {
        self = try JSONReader.read(bytes, in: line) { (r: inout JSONReader) throws(FathomError) in
            var timestamp: Int64?, intrinsics: [Float]?, transform: [Float]?
            try r.object { (r: inout JSONReader, key: JSONKey) throws(FathomError) in
                switch key {
                case "timestamp": timestamp = try r.integer(in: Int64.min...Int64.max, "a whole number of nanoseconds")
                case "intrinsics": intrinsics = try r.floats(count: 9)
                case "transform": transform = try r.floats(count: 16)
                default: break
                }
            }
            guard let timestamp else { throw try r.formatError("missing field timestamp") }
            guard let intrinsics else { throw try r.formatError("missing field intrinsics") }
            guard let transform else { throw try r.formatError("missing field transform") }
            return CameraInfo(timestamp: timestamp, intrinsics: intrinsics, transform: transform)
        }
    }
}
