/// A scan's metadata file (`<scan id>.json`): one entry per stream, naming its file and encoding. Other keys
/// (a stream's `intrinsics`, the file's `device`...) are ignored; null is taken as absent.
struct ScanMetadata {
    struct Stream {
        var id: String?
        var type: String?
        var encoding: String?
        var frequency: Double?
        var number_of_frames: Int?
        /// [height, width].
        var resolution: [Int]?
        var file_extension: String?
        var depth_unit: String?
    }

    var streams: [Stream] = []

    /// Reads `path`. Throws `.parse`/`.format` naming the file for text that is not a scan's metadata.
    static func load(_ path: String) throws(FathomError) -> ScanMetadata {
        let bytes = try FileIO.read(path, limit: 16 << 20)
        do {
            return try ScanMetadata(bytes)
        } catch {
            throw FathomError(error.kind, "'\(path)' is not a scan's metadata: \(error.message)")
        }
    }

    init(_ bytes: [UInt8]) throws(FathomError) {
        streams = try JSONReader.read(bytes) { (r: inout JSONReader) throws(FathomError) in
            var streams: [Stream]?
            try r.object { (r: inout JSONReader, key: JSONKey) throws(FathomError) in
                guard case "streams" = key else { return }
                var list = [Stream]()
                try r.array { (r: inout JSONReader, _: Int) throws(FathomError) in list.append(try Stream(&r)) }
                streams = list
            }
            guard let streams else { throw try r.formatError("missing field streams") }
            return streams
        }
    }

    /// The first stream that `matches`, by type, encoding or file extension.
    func stream(_ matches: (Stream) -> Bool) -> Stream? { streams.first(where: matches) }

    var depth: Stream? {
        stream { $0.type == "lidar_sensor" || $0.type == "depth" || $0.file_extension == "depth.zlib" }
    }
    var confidence: Stream? {
        stream { $0.type == "confidence_map" || $0.file_extension == "confidence.zlib" }
    }
    var cameraInfo: Stream? {
        stream { $0.type == "camera_info" || $0.encoding == "jsonl" || $0.file_extension == "jsonl" }
    }
    var color: Stream? {
        stream { $0.type == "color_camera" }
    }
}

extension ScanMetadata {
    /// The most pixels a depth or confidence frame may have (2048 x 2048; depth sensors have up to 640 x 480).
    /// A frame's buffers are sized by the metadata and a deflate stream of one constant frame is a thousandth of
    /// its size, so without a cap a small file could ask for gigabytes.
    public static let maxDepthPixels = 1 << 22
}

extension ScanMetadata.Stream {
    init(_ r: inout JSONReader) throws(FathomError) {
        var stream = ScanMetadata.Stream()
        try r.object { (r: inout JSONReader, key: JSONKey) throws(FathomError) in
            guard try !r.null() else { return }
            switch key {
            case "id": stream.id = try r.string()
            case "type": stream.type = try r.string()
            case "encoding": stream.encoding = try r.string()
            case "file_extension": stream.file_extension = try r.string()
            case "depth_unit": stream.depth_unit = try r.string()
            case "frequency": stream.frequency = try r.double()
            case "number_of_frames": stream.number_of_frames = Int(try r.integer())
            case "resolution":
                var sides = [Int]()
                try r.array { (r: inout JSONReader, _: Int) throws(FathomError) in
                    sides.append(Int(try r.integer()))
                }
                stream.resolution = sides
            default: break
            }
        }
        self = stream
    }

    /// (width, height) from `resolution` ([height, width]), checked to be 1...65535 each.
    func size(_ name: String, in path: String) throws(FathomError) -> (width: Int, height: Int) {
        guard let r = resolution, r.count == 2 else {
            throw FathomError(.format, "'\(path)': stream \(name) needs a resolution [height, width]")
        }
        guard (1...65535).contains(r[0]), (1...65535).contains(r[1]) else {
            throw FathomError(.format, "'\(path)': stream \(name) has resolution \(r), each side must be in 1...65535")
        }
        return (r[1], r[0])
    }
}
