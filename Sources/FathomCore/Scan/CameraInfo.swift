/// One line of a scan's camera info (`<scan id>.jsonl`): a timestamp, the RGB intrinsics and the
/// camera-to-world pose. Other keys (`euler_angles`, `exposure_duration`, `quaternion`, ...) are ignored.
struct CameraInfo: Decodable {
    /// Nanoseconds since the device booted.
    var timestamp: Int64
    /// 3x3, column-major, pixels of the RGB image: [fx, 0, 0, 0, fy, 0, cx, cy, 1].
    var intrinsics: [Double]
    /// 4x4, column-major, camera-to-world in ARKit camera axes.
    var transform: [Double]

    /// Poses within this deviation from rigid are kept as written (so written scans read back bit for bit);
    /// beyond it, up to `repairable`, they are re-orthonormalized (ARKit's float32 matrices drift a little).
    static let exact: Float = 1e-5
    static let repairable: Float = 0.01

    /// Reads every line of the file at `path`. Blank lines are skipped; a bad line throws `.parse` or
    /// `.format` naming the file, the line and the key, except a last line without its newline that is not
    /// valid JSON: the file was cut while that line was written, and `cutLine` gives its number (it is
    /// dropped). `repaired` counts re-orthonormalized poses.
    /// `rgbSize` nil: the RGB image size is taken as twice the first line's principal point.
    static func load(_ path: String, rgbSize knownSize: (width: Int, height: Int)?)
        throws(FathomError) -> (timestamps: [Int64], intrinsics: [Intrinsics], poses: [Pose], repaired: Int, worst: Float,
                                cutLine: Int?) {
        var rgbSize = knownSize
        let bytes = try FileIO.read(path, limit: 1 << 30)
        var timestamps = [Int64](), intrinsics = [Intrinsics](), poses = [Pose]()
        var repaired = 0, worst: Float = 0
        var line = 0, start = 0
        while start < bytes.count {
            line += 1
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            defer { start = end + 1 }
            let text = bytes[start..<end]
            guard text.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            do throws(FathomError) {
                let info = try JSONText.decode(CameraInfo.self, from: text)
                let size: (width: Int, height: Int)
                if let rgbSize { size = rgbSize } else { size = try info.imageSizeFromPrincipalPoint() }
                rgbSize = size
                let k = try info.rgbIntrinsics(size)
                let (pose, deviation) = try info.pose()
                if deviation > exact { repaired += 1; worst = Swift.max(worst, deviation) }
                timestamps.append(info.timestamp)
                intrinsics.append(k)
                poses.append(pose)
            } catch {
                if error.kind == .parse, end == bytes.count { return (timestamps, intrinsics, poses, repaired, worst, line) }
                throw FathomError(error.kind, "'\(path)' line \(line): \(error.message)")
            }
        }
        return (timestamps, intrinsics, poses, repaired, worst, nil)
    }

    func rgbIntrinsics(_ size: (width: Int, height: Int)) throws(FathomError) -> Intrinsics {
        guard intrinsics.count == 9 else { throw FathomError(.format, "field intrinsics must hold 9 numbers, got \(intrinsics.count)") }
        let k = intrinsics.map { Float($0) }
        do {
            return try Intrinsics(fx: k[0], fy: k[4], cx: k[6], cy: k[7], width: size.width, height: size.height)
        } catch {
            throw FathomError(.format, "field intrinsics: \(error.message)")
        }
    }

    /// (2 cx, 2 cy) rounded: the image size when no stream states it.
    func imageSizeFromPrincipalPoint() throws(FathomError) -> (width: Int, height: Int) {
        guard intrinsics.count == 9, intrinsics[6] >= 0.5, intrinsics[6] < 32768, intrinsics[7] >= 0.5, intrinsics[7] < 32768 else {
            throw FathomError(.format, "field intrinsics: no stream gives the RGB image size, and the principal point does not give one either")
        }
        return (Int((2 * intrinsics[6]).rounded()), Int((2 * intrinsics[7]).rounded()))
    }

    /// The pose and its deviation from rigid before any repair.
    func pose() throws(FathomError) -> (Pose, Float) {
        guard transform.count == 16 else { throw FathomError(.format, "field transform must hold 16 numbers, got \(transform.count)") }
        let m = transform.map { Float($0) }
        let deviation = Pose.rigidDeviation(columnMajor: m)
        do {
            if deviation <= CameraInfo.exact { return (try Pose(columnMajor: m, name: "transform"), deviation) }
            return (try Pose.orthonormalized(columnMajor: m, maxDeviation: CameraInfo.repairable), deviation)
        } catch {
            throw FathomError(error.kind, "field transform: \(error.message)")
        }
    }
}
