import Glibc

/// An RGB-D capture with camera poses, in any of the formats iPhone users have (`ScanFormat`): the scanner
/// app's files (`ScannerAppScan`), a Stray Scanner folder (`StrayFolder`) or a nerfstudio-style folder with
/// depth PNGs (`NerfstudioFolder`). The format is found from what is there; frames are then read in any order
/// in bounded memory (a PNG frame costs one decode). What was wrong but readable is in `warnings`: damage keeps
/// what is whole, and a frame that cannot be read is skipped with a warning, never a silent gap. Poses are
/// camera-to-world in ARKit camera axes whatever the format. Thread-safe.
public final class Scan: @unchecked Sendable {
    public let format: ScanFormat
    /// The scan id (the scanner app's file stem), or the capture folder's name.
    public let scanID: String
    public let directory: String
    /// The file that lists the frames: the scanner app's `.json`, Stray's `odometry.csv`, `transforms.json`.
    public let metadataPath: String
    /// Frames readable in every stream.
    public let count: Int
    public let depthWidth: Int, depthHeight: Int
    /// How depth is read: as stored by the scanner app (float16 meters, uint16 or float32), float32 meters for
    /// PNG formats (their uint16 millimetres converted); and meters per unit.
    public let depthFormat: DepthFormat
    public let depthScale: Float
    public let rgbWidth: Int, rgbHeight: Int
    /// Nanoseconds since the device booted, one per frame.
    public let timestamps: [Int64]
    /// Camera-to-world poses (ARKit camera axes), one per frame.
    public let poses: [Pose]
    /// RGB-image intrinsics, one per frame.
    public let intrinsics: [Intrinsics]
    /// Frames per second stated by the depth stream's metadata, if any.
    public let frequency: Double?
    /// What was wrong but readable, in words.
    public let warnings: [String]

    let storage: FrameStorage

    public var depthFrameBytes: Int { depthWidth * depthHeight * depthFormat.sampleBytes }
    public var confidenceFrameBytes: Int { depthWidth * depthHeight }
    public var hasConfidence: Bool {
        switch storage {
        case .streams(_, let confidence): return confidence != nil
        case .png(let frames): return frames.confidencePaths != nil
        }
    }

    /// True when the scanner app's streams are indexed as frames are read (`init(path:indexWhileReading:)`).
    public var indexesWhileReading: Bool {
        guard case .streams(let depth, _) = storage else { return false }
        return depth.indexesWhileReading
    }

    /// Opens the capture at `path`: its folder, or any one of its files (the scanner app's metadata or
    /// streams, a Stray folder's CSV or PNG files, `transforms.json`). With `indexWhileReading`, the scanner
    /// app's streams are not inflated at opening but as frames are read, so reading every frame in order
    /// inflates them once: `count` is then the frames the camera info and metadata list, and a read that
    /// meets damage throws `.format` naming it (`report` stops there with a warning). Other formats are read
    /// frame by frame either way.
    public convenience init(path: String, indexWhileReading: Bool = false) throws(FathomError) {
        self.init(try Scan.open(path, indexWhileReading: indexWhileReading))
    }

    init(_ c: ScanContents) {
        format = c.format
        scanID = c.scanID
        directory = c.directory
        metadataPath = c.metadataPath
        count = c.timestamps.count
        depthWidth = c.width
        depthHeight = c.height
        depthFormat = c.depthFormat
        depthScale = c.depthScale
        rgbWidth = c.rgbWidth
        rgbHeight = c.rgbHeight
        timestamps = c.timestamps
        poses = c.poses
        intrinsics = c.intrinsics
        frequency = c.frequency
        warnings = c.warnings
        storage = c.storage
    }

    /// The format found at `path` and what it holds.
    static func open(_ path: String, indexWhileReading: Bool = false) throws(FathomError) -> ScanContents {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FathomError(.io, "cannot open '\(path)': \(String(cString: strerror(errno)))") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            if StrayFolder.holdsCapture(path) { return try StrayFolder.open(path) }
            let transforms = "\(path)/\(NerfstudioFolder.fileName)"
            if access(transforms, F_OK) == 0, (try? ScannerAppScan.locateMetadata(path)) == nil {
                return try NerfstudioFolder.open(transforms)
            }
            return try ScannerAppScan.open(metadataPath: ScannerAppScan.locateMetadata(path), indexWhileReading: indexWhileReading)
        }
        // A file of a Stray folder, or in its depth/ or confidence/ folder.
        let folder = directoryName(path)
        if StrayFolder.holdsCapture(folder) { return try StrayFolder.open(folder) }
        let parent = directoryName(folder)
        if ["depth", "confidence"].contains(baseName(folder)), StrayFolder.holdsCapture(parent) { return try StrayFolder.open(parent) }
        let name = baseName(path)
        if name.hasSuffix(".json"), access(String(path.dropLast(".json".count)) + ".jsonl", F_OK) != 0,
           name == NerfstudioFolder.fileName || name.hasPrefix("transforms") {
            return try NerfstudioFolder.open(path)
        }
        return try ScannerAppScan.open(metadataPath: ScannerAppScan.locateMetadata(path), indexWhileReading: indexWhileReading)
    }

    /// The stored depth of frame `index` (row by row, width fastest) into `destination` (`depthFrameBytes`).
    public func readDepth(_ index: Int, into destination: UnsafeMutableRawBufferPointer) throws(FathomError) {
        try checkIndex(index)
        switch storage {
        case .streams(let depth, _): try depth.read(record: index, into: destination)
        case .png(let frames): try frames.readDepth(index, into: destination)
        }
    }

    /// The confidence (0 low, 1 medium, 2 high) of frame `index` into `destination` (`confidenceFrameBytes`).
    /// Throws `.noData` when the scan has no confidence stream.
    public func readConfidence(_ index: Int, into destination: UnsafeMutableRawBufferPointer) throws(FathomError) {
        try checkIndex(index)
        switch storage {
        case .streams(_, let confidence):
            guard let confidence else { throw FathomError(.noData, "the scan has no confidence stream") }
            try confidence.read(record: index, into: destination)
        case .png(let frames): try frames.readConfidence(index, into: destination)
        }
    }

    /// The intrinsics of frame `index` scaled to the depth grid.
    public func depthIntrinsics(_ index: Int) throws(FathomError) -> Intrinsics {
        try checkIndex(index)
        return try intrinsics[index].scaled(width: depthWidth, height: depthHeight)
    }

    /// Makes sure frame `index` is in every stream (`CompressedStream.check`): in streams indexed while read,
    /// inflates them up to its end unless done before.
    func checkStreams(_ index: Int) throws(FathomError) {
        guard case .streams(let depth, let confidence) = storage else { return }
        try depth.check(record: index)
        try confidence?.check(record: index)
    }

    /// The frames the streams hold as far as known (`count` unless a read found damage).
    var framesInStreams: Int {
        guard case .streams(let depth, let confidence) = storage else { return count }
        return Swift.min(count, depth.recordCount, confidence?.recordCount ?? .max)
    }

    private func checkIndex(_ index: Int) throws(FathomError) {
        guard index >= 0, index < count else { throw FathomError(.outOfRange, "frame \(index) is out of range: the scan has \(count) frames (0 to \(count - 1))") }
    }

    static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }

    static func directoryName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
