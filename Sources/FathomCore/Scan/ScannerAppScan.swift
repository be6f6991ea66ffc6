import Glibc

/// The iOS scanner app's files (see `Scan`): `<id>.json` (metadata), `<id>.depth.zlib` and `<id>.confidence.zlib`
/// (raw DEFLATE or zlib-wrapped streams of every frame), `<id>.jsonl` (per frame: timestamp, RGB intrinsics,
/// camera-to-world pose in ARKit camera axes).
///
/// Opening reads the camera info and inflates each stream once to count its whole frames and index it
/// (`CompressedStream`). Damage keeps what is whole: a cut stream keeps its whole frames, a corrupt one the
/// frames before the block where inflate failed (see `CompressedStream` for damage that raw DEFLATE cannot
/// locate), a camera info file cut in its last line drops that line, and streams or metadata that disagree on
/// the frame count give the shorter count; each is said in the warnings. Indexed while read, the streams are
/// not inflated at opening but as frames are read: the frame count is the camera info's and the metadata's,
/// and damage is found by the read that reaches it.
enum ScannerAppScan {
    /// Opens the scan whose metadata is at `metadataPath`, its streams indexed at opening or while read.
    static func open(metadataPath: String, indexWhileReading: Bool = false) throws(FathomError) -> ScanContents {
        let directory = Scan.directoryName(metadataPath)
        let name = Scan.baseName(metadataPath)
        let scanID = String(name.dropLast(".json".count))
        let metadata = try ScanMetadata.load(metadataPath)
        // An extension names a file beside the metadata: a '/' would lead out of the folder, a NUL cut the name.
        func file(_ stream: ScanMetadata.Stream, _ fallback: String) throws(FathomError) -> String {
            let ext = stream.file_extension ?? fallback
            guard !ext.isEmpty, !ext.contains("/"), !ext.contains("\0") else {
                throw FathomError(.format, "'\(metadataPath)': stream \(stream.id ?? fallback) has file_extension \(ext.debugDescription): it must be non-empty, without '/' or NUL")
            }
            return "\(directory)/\(scanID).\(ext)"
        }

        guard let depthStream = metadata.depth else {
            throw FathomError(.format, "'\(metadataPath)' lists no depth stream (type lidar_sensor)")
        }
        guard let cameraStream = metadata.cameraInfo else {
            throw FathomError(.format, "'\(metadataPath)' lists no camera info stream (type camera_info, encoding jsonl)")
        }
        let (width, height) = try depthStream.size("\(depthStream.id ?? "depth")", in: metadataPath)
        guard width * height <= ScanMetadata.maxDepthPixels else {
            throw FathomError(.format, "'\(metadataPath)': the depth resolution \(width) x \(height) has more than \(ScanMetadata.maxDepthPixels) pixels")
        }
        let (format, scale) = try depthEncoding(depthStream, metadataPath)
        var warnings = [String]()
        var rgbSize: (width: Int, height: Int)?
        if let color = metadata.color { rgbSize = try color.size(color.id ?? "color", in: metadataPath) }
        if rgbSize == nil {
            warnings.append("the metadata gives no RGB image size (no color_camera stream with a resolution): taken as twice the principal point")
        }

        let frameBytes = width * height * format.sampleBytes
        let depthPath = try file(depthStream, "depth.zlib")
        let confidencePath = try metadata.confidence.map { (stream: ScanMetadata.Stream) throws(FathomError) in
            guard stream.encoding == nil || stream.encoding == "uint8_zlib" else {
                throw FathomError(.format, "'\(metadataPath)': confidence encoding '\(stream.encoding ?? "")' is not supported (uint8_zlib is)")
            }
            return try file(stream, "confidence.zlib")
        }
        // The most frames the scan can use: no more than the metadata says a stream holds, nor than its file can
        // inflate to. Camera info lines and stream frames past that are not read, so a small file that claims or
        // inflates to far more costs no more than the frames used.
        var usable: (count: Int, why: String) = (Int.max, "")
        for stream in [depthStream, cameraStream] + (metadata.confidence.map { [$0] } ?? []) {
            if let n = stream.number_of_frames, n >= 0, n < usable.count { usable = (n, "the metadata's number_of_frames of \(stream.id ?? "a stream")") }
        }
        for (path, bytes) in [(depthPath, frameBytes)] + (confidencePath.map { [($0, width * height)] } ?? []) {
            let n = ScannerAppScan.mostFrames(path, frameBytes: bytes)
            if n < usable.count { usable = (n, "what \(Scan.baseName(path)) can inflate to") }
        }

        let cameraPath = try file(cameraStream, "jsonl")
        let camera = try CameraInfo.load(cameraPath, rgbSize: rgbSize, maxLines: Swift.max(usable.count, 1))
        guard !camera.timestamps.isEmpty else {
            let cut = camera.cutLine.map { " (line \($0) is cut short)" } ?? ""
            throw FathomError(.format, "'\(cameraPath)' holds no camera info line\(cut)")
        }
        if let line = camera.cutLine {
            warnings.append("\(Scan.baseName(cameraPath)): the file is cut: its last line (\(line)) ends early and was dropped")
        }
        if let line = camera.stoppedAt {
            warnings.append("\(Scan.baseName(cameraPath)): holds more lines than the scan can use (\(usable.count) frames, \(usable.why)): "
                            + "lines from \(line) on were not read")
        }
        if camera.repaired > 0 {
            warnings.append("\(camera.repaired) camera poses were re-orthonormalized (largest deviation from rigid \(camera.worst))")
        }

        var metadataCounts: [(String, (Int, String))] = []
        for stream in [depthStream, cameraStream] + (metadata.confidence.map { [$0] } ?? []) {
            if let n = stream.number_of_frames, n >= 0 { metadataCounts.append(("metadata number_of_frames of \(stream.id ?? "a stream")", (n, "\(n)"))) }
        }
        // Indexed at opening, a stream is indexed as far as the camera info goes; indexed while read, it is
        // expected to hold the frames the camera info and the metadata list (its own count is not known).
        let listed = ([camera.timestamps.count] + metadataCounts.map(\.1.0)).min() ?? 0
        guard !indexWhileReading || listed > 0 else { throw FathomError(.format, "'\(metadataPath)': the scan has no frame in every stream") }
        func openStream(_ path: String, _ bytes: Int) throws(FathomError) -> CompressedStream {
            let stream = try CompressedStream(path: path, recordBytes: bytes, maxRecords: indexWhileReading ? listed : camera.timestamps.count,
                                              indexWhileReading: indexWhileReading)
            warnings += stream.problems.map { "\(Scan.baseName(path)): \($0)" }
            return stream
        }
        let depth = try openStream(depthPath, frameBytes)
        let confidence = try confidencePath.map { (path: String) throws(FathomError) in try openStream(path, width * height) }

        // Each count with its text: a stream whose indexing stopped at what the camera info can use holds more.
        func stated(_ stream: CompressedStream) -> [(String, (Int, String))] {
            guard !indexWhileReading else { return [] }
            return [(Scan.baseName(stream.path) + " frames",
                     (stream.recordCount, stream.holdsMore ? "more than \(stream.recordCount)" : "\(stream.recordCount)"))]
        }
        let counts = stated(depth) + [(Scan.baseName(cameraPath) + " lines", (camera.timestamps.count, "\(camera.timestamps.count)"))]
            + (confidence.map(stated) ?? []) + metadataCounts
        let count = counts.map(\.1.0).min() ?? 0
        if Set(counts.map(\.1.1)).count > 1 {
            warnings.append("frame counts disagree (" + counts.map { "\($0.0): \($0.1.1)" }.joined(separator: ", ") + "): \(count) frames are read")
        }
        guard count > 0 else { throw FathomError(.format, "'\(metadataPath)': the scan has no frame in every stream") }

        return ScanContents(format: .scanner, scanID: scanID, directory: directory, metadataPath: metadataPath,
                            width: width, height: height, depthFormat: format, depthScale: scale,
                            rgbWidth: camera.intrinsics[0].width, rgbHeight: camera.intrinsics[0].height,
                            timestamps: Array(camera.timestamps.prefix(count)), poses: Array(camera.poses.prefix(count)),
                            intrinsics: Array(camera.intrinsics.prefix(count)), frequency: depthStream.frequency,
                            warnings: warnings, storage: .streams(depth: depth, confidence: confidence))
    }

    /// The most whole frames of `frameBytes` the DEFLATE stream at `path` can inflate to (DEFLATE expands at most
    /// 1032-fold); `Int.max` when its size is unknown (the stream's own open reports why).
    static func mostFrames(_ path: String, frameBytes: Int) -> Int {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size >= 0 else { return .max }
        let (bytes, overflow) = Int(info.st_size).multipliedReportingOverflow(by: 1032)
        return overflow ? .max : bytes / frameBytes + 1
    }

    static func depthEncoding(_ stream: ScanMetadata.Stream, _ path: String) throws(FathomError) -> (DepthFormat, Float) {
        switch stream.encoding ?? "float16_zlib" {
        case "float16_zlib": return (.float16, 1)
        case "float32_zlib": return (.float32, 1)
        case "uint16_zlib":
            switch stream.depth_unit ?? "mm" {
            case "mm", "millimeter", "millimeters", "millimetre", "millimetres": return (.uint16, 0.001)
            case "m", "meter", "meters", "metre", "metres": return (.uint16, 1)
            case let unit: throw FathomError(.format, "'\(path)': depth_unit '\(unit)' is not supported (mm or m)")
            }
        case let encoding:
            throw FathomError(.format, "'\(path)': depth encoding '\(encoding)' is not supported (float16_zlib, uint16_zlib, float32_zlib)")
        }
    }

    /// The metadata file of the scan at `path` (a folder, the metadata, or another file of the scan).
    static func locateMetadata(_ path: String) throws(FathomError) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FathomError(.io, "cannot open '\(path)': \(String(cString: strerror(errno)))") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            let candidates = try metadataCandidates(in: path)
            guard let only = candidates.first, candidates.count == 1 else {
                throw FathomError(.format, candidates.isEmpty
                    ? "not a scan: '\(path)' holds no scanner-app scan (<scan id>.json beside <scan id>.jsonl), Stray Scanner folder "
                      + "(camera_matrix.csv and odometry.csv) or transforms.json"
                    : "'\(path)' holds several scans (\(candidates.map(Scan.baseName).joined(separator: ", "))): open one by its .json")
            }
            return only
        }
        let name = Scan.baseName(path)
        if name.hasSuffix(".json") { return path }
        guard let dot = name.firstIndex(of: "."), dot != name.startIndex else {
            throw FathomError(.format, "'\(path)' is not a scan file (<scan id>.<extension>)")
        }
        let metadata = "\(Scan.directoryName(path))/\(name[..<dot]).json"
        guard access(metadata, F_OK) == 0 else {
            // One of the app's own files without its metadata is an unfinished or damaged scan; anything else is
            // not a scan at all.
            let suffix = name[name.index(after: dot)...]
            if ["jsonl", "depth.zlib", "confidence.zlib"].contains(suffix) {
                throw FathomError(.io, "cannot open the scan of '\(path)': its metadata '\(Scan.baseName(metadata))' is missing "
                    + "(\(String(cString: strerror(errno)))): an unfinished scan?")
            }
            throw FathomError(.format, "not a scan: '\(path)' is none of a scan's files: no scanner-app metadata '\(Scan.baseName(metadata))' "
                + "beside it, no Stray Scanner folder (camera_matrix.csv and odometry.csv) and no transforms.json")
        }
        return metadata
    }

    /// Every `X.json` in `directory` with an `X.jsonl` beside it.
    private static func metadataCandidates(in directory: String) throws(FathomError) -> [String] {
        guard let dir = opendir(directory) else {
            throw FathomError(.io, "cannot list '\(directory)': \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        var names = Set<String>()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            names.insert(name)
        }
        return names.filter { $0.hasSuffix(".json") && names.contains($0 + "l") }.sorted().map { "\(directory)/\($0)" }
    }
}
