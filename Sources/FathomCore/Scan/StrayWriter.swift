import Glibc

/// Writes a Stray Scanner folder, as `StrayFolder` reads it: `camera_matrix.csv` (the first frame's RGB
/// intrinsics), `odometry.csv` in the newer layout (per frame timestamp in seconds with 9 decimals, so
/// nanoseconds read back exactly; frame number; position; quaternion in OpenCV camera axes; the frame's fx,
/// fy, cx, cy, scaled to the 1920 x 1440 video when the RGB image has another size), `depth/NNNNNN.png` (16-bit,
/// millimetres: depth rounded to the millimetre, 0 where there is none or it is beyond 65.535 m) and, with
/// confidence, `confidence/NNNNNN.png`. There is no video. Timestamps may repeat, not go back. Not thread-safe.
public final class StrayWriter {
    public let directory: String
    public let depthWidth: Int, depthHeight: Int
    public let hasConfidence: Bool
    public private(set) var count = 0
    private var odometry = "timestamp, frame, x, y, z, qx, qy, qz, qw, fx, fy, cx, cy\n"
    private var firstIntrinsics: Intrinsics?
    private var lastTimestamp: Int64?

    /// Creates `directory` and its `depth/` (and `confidence/`) folders if needed; files of the same names are
    /// replaced.
    public init(directory: String, depthWidth: Int, depthHeight: Int, withConfidence: Bool) throws(FathomError) {
        for (name, value) in [("depth width", depthWidth), ("depth height", depthHeight)] where !(1...PNGImage.maxSide).contains(value) {
            throw FathomError(.outOfRange, "\(name) must be in 1...\(PNGImage.maxSide), got \(value)")
        }
        for folder in [directory, "\(directory)/depth"] + (withConfidence ? ["\(directory)/confidence"] : []) {
            if mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw FathomError(.io, "cannot create '\(folder)': \(String(cString: strerror(errno)))")
            }
        }
        self.directory = directory
        self.depthWidth = depthWidth
        self.depthHeight = depthHeight
        hasConfidence = withConfidence
    }

    /// Appends a frame: `meters` holds depthWidth * depthHeight depths in meters (row by row), `confidence` as many
    /// bytes 0...2 (nil exactly when the writer has no confidence). Timestamps (nanoseconds) must not decrease.
    public func append(timestamp: Int64, rgb: Intrinsics, pose: Pose, meters: UnsafeBufferPointer<Float>,
                       confidence: UnsafeRawBufferPointer?) throws(FathomError) {
        let n = depthWidth * depthHeight
        guard meters.count == n else { throw FathomError(.outOfRange, "depth holds \(meters.count) samples, a frame is \(n)") }
        if let last = lastTimestamp, timestamp < last {
            throw FathomError(.outOfRange, "timestamp \(timestamp) is earlier than the previous frame's \(last)")
        }
        guard timestamp > -StrayWriter.timestampLimit, timestamp < StrayWriter.timestampLimit else {
            throw FathomError(.outOfRange, "timestamp \(timestamp) ns is beyond the +-9e18 ns a Stray odometry.csv is read with")
        }
        guard (confidence != nil) == hasConfidence else {
            throw FathomError(.invalidState, hasConfidence ? "confidence must be given" : "the writer was made without confidence")
        }
        if let confidence, let bad = confidence.firstIndex(where: { $0 > 2 }) {
            throw FathomError(.outOfRange, "confidence[\(bad)] is \(confidence[bad]), must be 0, 1 or 2")
        }
        // Stray's intrinsics are the 1920 x 1440 video's: another RGB size is scaled to it (checked before any file
        // is written: a focal length near the float limit can scale past it).
        let k = rgb.width == StrayFolder.rgbWidth && rgb.height == StrayFolder.rgbHeight
            ? rgb : try rgb.scaled(width: StrayFolder.rgbWidth, height: StrayFolder.rgbHeight)
        let millimetres = meters.map { m -> UInt16 in
            let mm = (m * 1000).rounded()
            return mm >= 1 && mm <= 65535 ? UInt16(mm) : 0
        }
        let name = StrayWriter.frameName(count)
        let png = try millimetres.withUnsafeBytes { b in
            Result { () throws(FathomError) in try PNGImage.encodeGray(b, width: depthWidth, height: depthHeight, bitDepth: 16) }
        }.get()
        try FileIO.write(png, to: "\(directory)/depth/\(name)")
        if let confidence {
            try FileIO.write(try PNGImage.encodeGray(confidence, width: depthWidth, height: depthHeight, bitDepth: 8),
                             to: "\(directory)/confidence/\(name)")
        }
        let opencv = try pose.converted(from: .arkit, to: .opencv)
        let q = Quaternion(rotation: opencv.rotation)
        let t = opencv.translation
        let cells = [StrayWriter.seconds(timestamp), String(name.dropLast(4))]
            + [t.x, t.y, t.z, q.vector.x, q.vector.y, q.vector.z, q.vector.w, k.fx, k.fy, k.cx, k.cy].map(NumberText.float)
        odometry += cells.joined(separator: ", ") + "\n"
        if firstIntrinsics == nil { firstIntrinsics = k }
        lastTimestamp = timestamp
        count += 1
    }

    /// Writes `odometry.csv` and `camera_matrix.csv`; `.noData` when no frame was appended.
    public func finish() throws(FathomError) {
        guard let k = firstIntrinsics else { throw FathomError(.noData, "no frame was appended: a Stray folder needs one") }
        try FileIO.write(Array(odometry.utf8), to: "\(directory)/\(StrayFolder.odometry)")
        let matrix = [[k.fx, 0, k.cx], [0, k.fy, k.cy], [0, 0, 1]].map { $0.map(NumberText.float).joined(separator: ",") }
        try FileIO.write(Array((matrix.joined(separator: "\n") + "\n").utf8), to: "\(directory)/\(StrayFolder.cameraMatrix)")
    }

    /// Timestamps (ns) a Stray folder holds: the reader takes seconds below 9e9.
    static let timestampLimit: Int64 = 9_000_000_000_000_000_000

    static func frameName(_ i: Int) -> String {
        let digits = String(i)
        return String(repeating: "0", count: Swift.max(0, 6 - digits.count)) + digits + ".png"
    }

    /// Nanoseconds as decimal seconds with 9 decimals, exactly.
    static func seconds(_ ns: Int64) -> String {
        let magnitude = ns.magnitude, whole = magnitude / 1_000_000_000, part = String(magnitude % 1_000_000_000)
        return (ns < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 9 - part.count) + part
    }
}
