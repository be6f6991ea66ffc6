import Glibc

/// A NeRF-style `transforms.json` (instant-ngp, nerfstudio): camera intrinsics and per-frame camera-to-world
/// poses, read and written.
///
/// Layout: shared intrinsics `w`, `h` (pixels), `fl_x`, `fl_y`, `cx`, `cy` at the top level, and `frames`, each
/// with `file_path` and `transform_matrix` (4 nested rows: ROW-major, camera-to-world, in ARKit / OpenGL camera
/// axes: +x right, +y up, looking along -z). A frame may carry its own intrinsics keys, which override the
/// shared ones. The file has no timestamps (see `timestamps(count:rate:)`). Other keys (`camera_model`,
/// distortion `k1`..., `aabb_scale`, a frame's `sharpness`...) are ignored.
public struct TransformsFile: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        /// Camera-to-world.
        public var pose: Pose
        public var intrinsics: Intrinsics
        /// The image's path as written (relative to the file, usually); nil when the frame has none.
        public var filePath: String?
        /// The frame's depth map (`depth_file_path`: a 16-bit PNG, nerfstudio), as written; nil when none.
        public var depthPath: String?

        public init(pose: Pose, intrinsics: Intrinsics, filePath: String? = nil, depthPath: String? = nil) {
            self.pose = pose
            self.intrinsics = intrinsics
            self.filePath = filePath
            self.depthPath = depthPath
        }
    }

    public var frames: [Frame]
    /// Meters per unit of the depth PNGs, when the file says (`depth_unit_scale_factor`, nerfstudio's name, or
    /// `integer_depth_scale`, instant-ngp's, at the top level); nil: not said (millimetres are then assumed).
    public var depthScale: Double?
    /// How many poses were re-orthonormalized on reading (deviating from rigid by more than 1e-5, at most 0.01).
    public var repaired: Int

    public init(frames: [Frame]) {
        self.frames = frames
        repaired = 0
    }

    /// The largest file read (bytes): about a million frames.
    public static let sizeLimit = 1 << 30

    /// Reads the file at `path` (see `parse`); `.io` when it cannot be read, `.format` when it is larger than
    /// `sizeLimit`; parse and format errors are prefixed with the path.
    public static func load(path: String) throws(FathomError) -> TransformsFile {
        // The file's bytes are dropped once parsed: read into memory of their own (see `FileIO.withContents`).
        try FileIO.withContents(of: path, limit: sizeLimit) { (bytes) throws(FathomError) in
            do throws(FathomError) {
                return try parse(bytes)
            } catch {
                throw FathomError(error.kind, "'\(path)': \(error.message)")
            }
        }
    }

    /// Reads `transforms.json` text.
    ///
    /// Intrinsics of frame i, each key taken from the frame if it has it, else from the top level:
    /// `w`, `h` (required; whole pixels in 1...1000000); `fl_x`, or from `camera_angle_x` (horizontal field of
    /// view, radians) fl_x = 0.5 w / tan(camera_angle_x / 2); `fl_y`, or from `camera_angle_y` likewise with h,
    /// else fl_x; `cx` and `cy`, else w / 2 and h / 2.
    ///
    /// Poses: a matrix within 1e-5 of rigid is kept as written (as float); up to 0.01 off (rounding in the
    /// writer) it is re-orthonormalized like a scan's (nearest rotation, `repaired` counts them); beyond, or a
    /// reflection, is `.notRigid`.
    ///
    /// Errors name the frame and the key: `.parse` for text that is not JSON, `.format` for a missing or mistyped
    /// key ("missing field frames[3].transform_matrix"), a matrix that is not 4 rows of 4 numbers, missing or
    /// invalid intrinsics; `.notRigid` / `.notFinite` for a bad pose ("frame 3 (frames[3].transform_matrix): ...").
    public static func parse(_ bytes: [UInt8]) throws(FathomError) -> TransformsFile {
        let result: Result<TransformsFile, FathomError> = bytes.withUnsafeBufferPointer { all in
            do throws(FathomError) { return .success(try parse(all)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `parse` of bytes in memory the caller holds.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(FathomError) -> TransformsFile {
        var document = try TransformsDocument(bytes)
        // Taken out of the document, so that the frames are set in place (the array is not shared).
        var frames = document.frames
        document.frames = []
        var cameras = document.frameCameras.makeIterator()
        var nextOwn = cameras.next()
        // Frames without intrinsics keys of their own all have the top level's: resolved once.
        var shared: Intrinsics?
        // In frame order, a frame's intrinsics checked before its pose (the first refused pose was kept, not thrown).
        for i in frames.indices {
            let intrinsics: Intrinsics
            if let own = nextOwn, own.frame == i {
                intrinsics = try resolveIntrinsics(own.camera, document.camera, frame: i)
                nextOwn = cameras.next()
            } else if let shared {
                intrinsics = shared
            } else {
                intrinsics = try resolveIntrinsics(TransformsCamera(), document.camera, frame: i)
                shared = intrinsics
            }
            frames[i].intrinsics = intrinsics
            if let failure = document.poseFailure, failure.frame == i { throw failure.error }
        }
        var file = TransformsFile(frames: frames)
        file.repaired = document.repaired
        if let scale = document.depthScale {
            guard scale.value.isFinite, scale.value > 0 else {
                throw FathomError(.format, "field \(scale.key) must be finite and > 0 (meters per depth unit), got \(scale.value)")
            }
            file.depthScale = scale.value
        }
        return file
    }

    /// Frame timestamps in nanoseconds, since the file has none: the frame index i when `rate` is nil, else
    /// round(i * 1e9 / rate) for `rate` frames per second (finite, > 0; `.overflow` if the last one does not fit
    /// Int64).
    public static func timestamps(count: Int, rate: Double?) throws(FathomError) -> [Int64] {
        guard let rate else { return (0..<Swift.max(count, 0)).map { Int64($0) } }
        guard rate.isFinite else { throw FathomError(.notFinite, "rate must be finite, got \(rate)") }
        guard rate > 0 else { throw FathomError(.outOfRange, "rate must be > 0 frames per second (or 0 for frame indices), got \(rate)") }
        guard count > 0 else { return [] }
        let last = (Double(count - 1) * 1e9 / rate).rounded()
        guard last < 0x1p63 else { throw FathomError(.overflow, "timestamps at \(rate) frames per second overflow int64 nanoseconds by frame \(count - 1)") }
        return (0..<count).map { Int64((Double($0) * 1e9 / rate).rounded()) }
    }

    /// The file's text: row-major `transform_matrix` rows; the intrinsics once at the top level (with
    /// `camera_angle_x` for readers that need it) when every frame has the same, else in every frame; floats in
    /// the shortest text that reads back as the same float. `file_path` is written for frames that have one.
    public func jsonBytes() -> [UInt8] {
        func camera(_ k: Intrinsics, indent: String) -> String {
            "\(indent)\"w\": \(k.width),\n\(indent)\"h\": \(k.height),\n\(indent)\"fl_x\": \(NumberText.float(k.fx)),\n"
                + "\(indent)\"fl_y\": \(NumberText.float(k.fy)),\n\(indent)\"cx\": \(NumberText.float(k.cx)),\n\(indent)\"cy\": \(NumberText.float(k.cy)),\n"
        }
        let shared = frames.first.map { first in frames.allSatisfy { $0.intrinsics == first.intrinsics } ? first.intrinsics : nil } ?? nil
        var text = "{\n"
        if let k = shared {
            text += camera(k, indent: "  ")
            let angle = 2 * atan(Double(k.width) / (2 * Double(k.fx)))
            text += "  \"camera_angle_x\": \(angle),\n"
        }
        if let depthScale { text += "  \"depth_unit_scale_factor\": \(NumberText.double(depthScale)),\n" }
        text += "  \"frames\": ["
        for (i, frame) in frames.enumerated() {
            text += i == 0 ? "\n    {\n" : ",\n    {\n"
            if let path = frame.filePath { text += "      \"file_path\": \(JSONObject.string(path)),\n" }
            if let path = frame.depthPath { text += "      \"depth_file_path\": \(JSONObject.string(path)),\n" }
            if shared == nil { text += camera(frame.intrinsics, indent: "      ") }
            let m = frame.pose.rowMajor
            text += "      \"transform_matrix\": [\n"
            for r in 0..<4 {
                text += "        [" + (0..<4).map { NumberText.float(m[4 * r + $0]) }.joined(separator: ", ") + (r < 3 ? "],\n" : "]\n")
            }
            text += "      ]\n    }"
        }
        text += frames.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return Array(text.utf8)
    }

    /// Writes `jsonBytes()` to `path`; `.io` when the file cannot be written.
    public func save(path: String) throws(FathomError) {
        try FileIO.write(jsonBytes(), to: path)
    }

    // MARK: - Reading

    static func resolveIntrinsics(_ own: TransformsCamera, _ shared: TransformsCamera, frame i: Int) throws(FathomError) -> Intrinsics {
        /// The key's value from the frame, else the top level, with the name it had in the file.
        func value(_ key: KeyPath<TransformsCamera, Double?>, _ name: String) -> (value: Double, name: String)? {
            if let v = own[keyPath: key] { return (v, "frames[\(i)].\(name)") }
            if let v = shared[keyPath: key] { return (v, name) }
            return nil
        }
        func size(_ key: KeyPath<TransformsCamera, Double?>, _ name: String, _ what: String) throws(FathomError) -> Int {
            guard let (v, field) = value(key, name) else {
                throw FathomError(.format, "frame \(i): no \(name) (\(what) in pixels) in the frame or at the top level")
            }
            guard v.rounded() == v, v >= 1, v <= 1_000_000 else {
                throw FathomError(.format, "frame \(i): field \(field) must be a whole number of pixels in 1...1000000, got \(v)")
            }
            return Int(v)
        }
        func focal(_ angle: (value: Double, name: String), _ side: Int) throws(FathomError) -> Double {
            guard angle.value > 0, angle.value < .pi else {
                throw FathomError(.format, "frame \(i): field \(angle.name) must be a field of view in (0, pi) radians, got \(angle.value)")
            }
            return 0.5 * Double(side) / tan(angle.value / 2)
        }
        let w = try size(\.w, "w", "image width"), h = try size(\.h, "h", "image height")
        // The frame's own keys first (fl_x, then camera_angle_x), then the top level's.
        let fx: Double
        if let v = own.fl_x { fx = v } else if let a = own.camera_angle_x { fx = try focal((a, "frames[\(i)].camera_angle_x"), w) }
        else if let v = shared.fl_x { fx = v } else if let a = shared.camera_angle_x { fx = try focal((a, "camera_angle_x"), w) }
        else { throw FathomError(.format, "frame \(i): no fl_x (or camera_angle_x) in the frame or at the top level") }
        let fy: Double
        if let v = own.fl_y { fy = v } else if let a = own.camera_angle_y { fy = try focal((a, "frames[\(i)].camera_angle_y"), h) }
        else if let v = shared.fl_y { fy = v } else if let a = shared.camera_angle_y { fy = try focal((a, "camera_angle_y"), h) }
        else { fy = fx }
        let cx = value(\.cx, "cx")?.value ?? Double(w) / 2, cy = value(\.cy, "cy")?.value ?? Double(h) / 2
        do {
            return try Intrinsics(fx: Float(fx), fy: Float(fy), cx: Float(cx), cy: Float(cy), width: w, height: h)
        } catch {
            let message = error.message.replacingFirst("fx", with: "fl_x").replacingFirst("fy", with: "fl_y")
            throw FathomError(.format, "frame \(i): \(message)")
        }
    }

    /// The pose of a row-major 4x4 and whether it was re-orthonormalized (more than `CameraInfo.exact` from rigid).
    static func pose(_ rows: MatrixRows, frame i: Int) throws(FathomError) -> (Pose, repaired: Bool) {
        // Column-major for Pose: column c is element c of every row.
        var columns = (SIMD4(rows.0[0], rows.1[0], rows.2[0], rows.3[0]), SIMD4(rows.0[1], rows.1[1], rows.2[1], rows.3[1]),
                       SIMD4(rows.0[2], rows.1[2], rows.2[2], rows.3[2]), SIMD4(rows.0[3], rows.1[3], rows.2[3], rows.3[3]))
        let rigid = withUnsafeBytes(of: &columns) { Pose(ifRigid: $0.assumingMemoryBound(to: Float.self).baseAddress.unsafelyUnwrapped, tolerance: CameraInfo.exact) }
        if let rigid { return (rigid, false) }
        let m = withUnsafeBytes(of: &columns) { Array($0.assumingMemoryBound(to: Float.self)) }
        do {
            return (try Pose.orthonormalized(columnMajor: m, maxDeviation: CameraInfo.repairable), true)
        } catch {
            throw FathomError(error.kind, "frame \(i) (frames[\(i)].transform_matrix): \(error.message)")
        }
    }
}

/// A 4x4 matrix as written in the file: its four rows.
typealias MatrixRows = (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

/// The intrinsics keys, at the top level or in a frame.
struct TransformsCamera {
    var w, h, fl_x, fl_y, cx, cy, camera_angle_x, camera_angle_y: Double?

    var isEmpty: Bool {
        w == nil && h == nil && fl_x == nil && fl_y == nil && cx == nil && cy == nil && camera_angle_x == nil && camera_angle_y == nil
    }

    /// Reads `key`'s value into its field and returns true when `key` is one of the intrinsics keys (null
    /// leaves it unset).
    mutating func read(_ key: JSONKey, _ reader: inout JSONReader) throws(FathomError) -> Bool {
        let field: WritableKeyPath<TransformsCamera, Double?>
        switch key {
        case "w": field = \.w
        case "h": field = \.h
        case "fl_x": field = \.fl_x
        case "fl_y": field = \.fl_y
        case "cx": field = \.cx
        case "cy": field = \.cy
        case "camera_angle_x": field = \.camera_angle_x
        case "camera_angle_y": field = \.camera_angle_y
        default: return false
        }
        self[keyPath: field] = try reader.null() ? nil : try reader.double()
        return true
    }
}

/// The file as read, in one pass: the frames, their poses checked as they are read, and the intrinsics keys of the
/// top level and of the frames that have their own (the intrinsics are resolved once the whole file is read, since
/// the top level's keys may come after the frames).
struct TransformsDocument {
    /// A frame's keys as written.
    struct FrameEntry {
        var file_path: String?
        var depth_file_path: String?
        var transform_matrix: MatrixRows
        var camera: TransformsCamera
    }

    /// The frames, their intrinsics not set yet (a placeholder).
    var frames: [TransformsFile.Frame] = []
    var camera = TransformsCamera()
    /// The frames with intrinsics keys of their own (few files have any), in frame order.
    var frameCameras: [(frame: Int, camera: TransformsCamera)] = []
    /// The first frame whose pose was refused, and why: thrown once the intrinsics of the frames before it are
    /// known to be good, as errors come in frame order (later poses are not checked).
    var poseFailure: (frame: Int, error: FathomError)?
    /// How many poses were re-orthonormalized.
    var repaired = 0
    /// Meters per depth unit and the key that said so (nerfstudio's name first).
    var depthScale: (key: String, value: Double)?

    init(_ bytes: UnsafeBufferPointer<UInt8>) throws(FathomError) {
        self = try JSONReader.read(bytes) { (r: inout JSONReader) throws(FathomError) in
            var document = TransformsDocument()
            var hasFrames = false
            var scales: [String: Double] = [:]
            // Any valid value: each frame's is replaced by `TransformsFile.parse`.
            let unset = try Intrinsics(fx: 1, fy: 1, cx: 0, cy: 0, width: 1, height: 1)
            try r.object { (r: inout JSONReader, key: JSONKey) throws(FathomError) in
                if try document.camera.read(key, &r) { return }
                switch key {
                case "frames":
                    hasFrames = true
                    document.frames = []
                    document.frameCameras = []
                    document.poseFailure = nil
                    document.repaired = 0
                    try r.array { (r: inout JSONReader, i: Int) throws(FathomError) in
                        try document.append(try FrameEntry(&r), index: i, intrinsics: unset)
                    }
                case "depth_unit_scale_factor", "integer_depth_scale":
                    if try !r.null() { scales[key.text] = try r.double() }
                default: break
                }
            }
            guard hasFrames else { throw try r.formatError("missing field frames") }
            document.depthScale = ["depth_unit_scale_factor", "integer_depth_scale"].lazy.compactMap { key in scales[key].map { (key, $0) } }.first
            return document
        }
    }

    private init() {}

    /// Adds frame `i`, its pose checked (or its error kept) and its intrinsics set to `unset`.
    private mutating func append(_ entry: FrameEntry, index i: Int, intrinsics unset: Intrinsics) throws(FathomError) {
        if !entry.camera.isEmpty { frameCameras.append((i, entry.camera)) }
        var pose = Pose.identity
        if poseFailure == nil {
            do throws(FathomError) {
                let (checked, wasRepaired) = try TransformsFile.pose(entry.transform_matrix, frame: i)
                pose = checked
                if wasRepaired { repaired += 1 }
            } catch {
                poseFailure = (i, error)
            }
        }
        frames.append(TransformsFile.Frame(pose: pose, intrinsics: unset, filePath: entry.file_path, depthPath: entry.depth_file_path))
    }
}

extension TransformsDocument.FrameEntry {
    init(_ r: inout JSONReader) throws(FathomError) {
        var filePath: String?, depthPath: String?, matrix: MatrixRows?, camera = TransformsCamera()
        try r.object { (r: inout JSONReader, key: JSONKey) throws(FathomError) in
            if try camera.read(key, &r) { return }
            switch key {
            case "file_path", "depth_file_path":
                let path = try r.null() ? nil : try r.string()
                // A path holds no NUL: "\u0000" would name another file once handed to the system.
                if path?.holdsNUL == true { throw try r.formatError("field \(r.pathText): a path holds no NUL character (\\u0000)") }
                if case "file_path" = key { filePath = path } else { depthPath = path }
            case "transform_matrix":
                var count = 0
                let start = r.offset
                // Read in place (no array per frame): the rows of a frame's matrix.
                var rows: MatrixRows = (.zero, .zero, .zero, .zero)
                var failure: FathomError?
                withUnsafeMutableBytes(of: &rows) { raw in
                    let floats = raw.assumingMemoryBound(to: Float.self).baseAddress.unsafelyUnwrapped
                    do throws(FathomError) {
                        try r.array { (r: inout JSONReader, row: Int) throws(FathomError) in
                            if row < 4 { try r.floats(count: 4, into: floats + 4 * row) } else { try r.skip() }
                            count = row + 1
                        }
                    } catch {
                        failure = error
                    }
                }
                if let failure { throw failure }
                guard count == 4 else {
                    throw try r.formatError("field \(r.pathText) must be 4 rows of 4 numbers, found \(count) rows", at: start)
                }
                matrix = rows
            default: break
            }
        }
        guard let matrix else { throw try r.formatError("missing field \(r.pathText).transform_matrix") }
        self.init(file_path: filePath, depth_file_path: depthPath, transform_matrix: matrix, camera: camera)
    }
}

private extension String {
    /// Whether the text holds a NUL (its UTF-8 searched in place: `utf8.contains` goes byte by byte through the view).
    var holdsNUL: Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? utf8.contains(0)
    }

    /// The string with the first occurrence of `word` (as a whole word at the start) replaced.
    func replacingFirst(_ word: String, with replacement: String) -> String {
        hasPrefix(word + " ") ? replacement + dropFirst(word.count) : self
    }
}
