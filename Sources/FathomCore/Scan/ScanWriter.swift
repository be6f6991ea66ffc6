import Glibc

/// Writes a scan in the iOS scanner app's files: `<id>.depth.zlib` and `<id>.confidence.zlib` (raw DEFLATE
/// streams of the frames, row by row), `<id>.jsonl` (one camera info line per frame) and, on `finish`,
/// `<id>.json` (the metadata, with the frame counts). The RGB video is not written; the metadata still
/// describes its size, which the intrinsics refer to. What it writes, `Scan` reads back bit for bit.
public final class ScanWriter {
    public let directory: String
    public let scanID: String
    public let depthWidth: Int, depthHeight: Int
    public let rgbWidth: Int, rgbHeight: Int
    public let depthFormat: DepthFormat
    public let frequency: Double
    public private(set) var count = 0

    private let depth: DeflateWriter
    private let confidence: DeflateWriter?
    private var cameraInfo: AtomicFile
    /// The metadata, started with the streams so that a target that cannot be replaced fails before any frame.
    private var metadata: AtomicFile
    private var lastTimestamp: Int64?
    private var finished = false

    /// Creates the folder if needed and starts the streams. `scanID` names the files (no '/' and no '.');
    /// depth is stored as `depthFormat` (float16 meters, as the app does; uint16 is written with
    /// `depth_unit` "mm"); `withConfidence` false writes no confidence stream; `wrapped` writes zlib-wrapped
    /// streams instead of raw DEFLATE.
    public init(directory: String, scanID: String, depthWidth: Int, depthHeight: Int, rgbWidth: Int, rgbHeight: Int,
                depthFormat: DepthFormat = .float16, frequency: Double = 60, withConfidence: Bool = true,
                wrapped: Bool = false) throws(FathomError) {
        guard !scanID.isEmpty, !scanID.contains("/"), !scanID.contains("."), !scanID.contains("\0") else {
            throw FathomError(.outOfRange, "scan_id must be a non-empty name without '/' or '.', got '\(scanID)'")
        }
        for (name, value) in [("depth width", depthWidth), ("depth height", depthHeight), ("rgb width", rgbWidth), ("rgb height", rgbHeight)]
        where !(1...65535).contains(value) {
            throw FathomError(.outOfRange, "\(name) must be in 1...65535, got \(value)")
        }
        guard depthWidth * depthHeight <= ScanMetadata.maxDepthPixels else {
            throw FathomError(.outOfRange, "depth width x height must be at most \(ScanMetadata.maxDepthPixels) pixels, got \(depthWidth) x \(depthHeight)")
        }
        guard frequency > 0, frequency.isFinite else { throw FathomError(.outOfRange, "frequency must be finite and > 0, got \(frequency)") }
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw FathomError(.io, "cannot create '\(directory)': \(String(cString: strerror(errno)))")
        }
        let stem = "\(directory)/\(scanID)"
        // A target that cannot be replaced fails here, and what was started before it is removed (the streams
        // remove themselves when dropped).
        var started: [AtomicFile] = []
        do throws(FathomError) {
            started.append(try AtomicFile(stem + ".json"))
            started.append(try AtomicFile(stem + ".jsonl"))
            depth = try DeflateWriter(path: stem + ".depth.zlib", wrapped: wrapped)
            confidence = withConfidence ? try DeflateWriter(path: stem + ".confidence.zlib", wrapped: wrapped) : nil
        } catch {
            for i in started.indices { started[i].discard() }
            throw error
        }
        metadata = started[0]
        cameraInfo = started[1]
        self.directory = directory
        self.scanID = scanID
        self.depthWidth = depthWidth
        self.depthHeight = depthHeight
        self.rgbWidth = rgbWidth
        self.rgbHeight = rgbHeight
        self.depthFormat = depthFormat
        self.frequency = frequency
    }

    /// A writer dropped before `finish` leaves none of its files (its streams remove themselves).
    deinit {
        if !finished {
            cameraInfo.discard()
            metadata.discard()
        }
    }

    public var depthFrameBytes: Int { depthWidth * depthHeight * depthFormat.sampleBytes }
    /// True when the writer writes a confidence stream (every frame then needs its confidence).
    public var hasConfidence: Bool { confidence != nil }

    /// Appends one frame: `depth` holds `depthFrameBytes` stored samples, `confidence` one byte (0, 1 or 2) per
    /// sample (nil when the writer has no confidence stream). Timestamps must not decrease. Nothing is
    /// written when an argument is refused.
    public func append(timestamp: Int64, rgb: Intrinsics, pose: Pose, depth samples: UnsafeRawBufferPointer,
                       confidence values: UnsafeRawBufferPointer?) throws(FathomError) {
        guard !finished else { throw FathomError(.invalidState, "the scan is already finished") }
        if let last = lastTimestamp, timestamp < last {
            throw FathomError(.outOfRange, "timestamp \(timestamp) is earlier than the previous frame's \(last)")
        }
        guard samples.count == depthFrameBytes else {
            throw FathomError(.outOfRange, "depth holds \(samples.count) bytes, a frame is \(depthFrameBytes)")
        }
        if let confidence {
            guard let values else { throw FathomError(.noData, "the scan has a confidence stream: confidence must be given") }
            guard values.count == depthWidth * depthHeight else {
                throw FathomError(.outOfRange, "confidence holds \(values.count) bytes, a frame is \(depthWidth * depthHeight)")
            }
            if let bad = values.firstIndex(where: { $0 > 2 }) {
                throw FathomError(.outOfRange, "confidence[\(bad)] is \(values[bad]), must be 0, 1 or 2")
            }
            try self.depth.write(samples)
            try confidence.write(values)
        } else {
            guard values == nil else { throw FathomError(.invalidState, "the writer was made without a confidence stream") }
            try self.depth.write(samples)
        }
        let k = [rgb.fx, 0, 0, 0, rgb.fy, 0, rgb.cx, rgb.cy, 1].map(NumberText.float).joined(separator: ",")
        let m = pose.columnMajor.map(NumberText.float).joined(separator: ",")
        let line = "{\"timestamp\":\(timestamp),\"intrinsics\":[\(k)],\"transform\":[\(m)]}\n"
        try cameraInfo.write(Array(line.utf8))
        lastTimestamp = timestamp
        count += 1
    }

    /// Ends the streams and writes the metadata. The writer takes no frame after this.
    public func finish() throws(FathomError) {
        guard !finished else { return }
        try depth.finish()
        try confidence?.finish()
        // Whole numbers print without a fraction; only those that fit an Int exactly go through Int.
        let f = NumberText.double(frequency)
        let depthEncoding: String
        switch depthFormat {
        case .float16: depthEncoding = "\"encoding\":\"float16_zlib\""
        case .float32: depthEncoding = "\"encoding\":\"float32_zlib\""
        case .uint16: depthEncoding = "\"encoding\":\"uint16_zlib\",\"depth_unit\":\"mm\""
        }
        var streams = [
            "{\"id\":\"color_back_1\",\"type\":\"color_camera\",\"encoding\":\"h264\",\"frequency\":\(f),\"number_of_frames\":\(count),\"resolution\":[\(rgbHeight),\(rgbWidth)],\"file_extension\":\"mp4\"}",
            "{\"id\":\"depth_back_1\",\"type\":\"lidar_sensor\",\(depthEncoding),\"frequency\":\(f),\"number_of_frames\":\(count),\"resolution\":[\(depthHeight),\(depthWidth)],\"intrinsics\":null,\"file_extension\":\"depth.zlib\"}",
        ]
        if confidence != nil {
            streams.append("{\"id\":\"confidence_map\",\"type\":\"confidence_map\",\"encoding\":\"uint8_zlib\",\"frequency\":\(f),\"number_of_frames\":\(count),\"resolution\":[\(depthHeight),\(depthWidth)],\"file_extension\":\"confidence.zlib\"}")
        }
        streams.append("{\"id\":\"camera_info_color_back_1\",\"type\":\"camera_info\",\"encoding\":\"jsonl\",\"frequency\":\(f),\"number_of_frames\":\(count),\"file_extension\":\"jsonl\"}")
        let files = confidence == nil ? 3 : 4
        let text = "{\"streams\":[\(streams.joined(separator: ","))],\"device\":{\"type\":\"fathom\",\"name\":\"Fathom ScanWriter\"},\"number_of_files\":\(files)}\n"
        // Everything is written before anything is put in place, the metadata last: a failure leaves the old
        // scan's files (or none), and a scan whose metadata is there is whole.
        try metadata.write(Array(text.utf8))
        try depth.commit()
        try confidence?.commit()
        try cameraInfo.commit()
        try metadata.commit()
        finished = true
    }
}
