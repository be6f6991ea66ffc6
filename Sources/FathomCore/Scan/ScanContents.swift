/// What opening a capture found, whatever its format: the fields of a `Scan`.
struct ScanContents {
    var format: ScanFormat
    var scanID: String, directory: String, metadataPath: String
    var width: Int, height: Int
    var depthFormat: DepthFormat, depthScale: Float
    var rgbWidth: Int, rgbHeight: Int
    var timestamps: [Int64], poses: [Pose], intrinsics: [Intrinsics]
    var frequency: Double?
    var warnings: [String]
    var storage: FrameStorage
}

/// Where a scan's frames are: compressed streams of every frame (the scanner app), or one PNG file per frame.
enum FrameStorage: Sendable {
    case streams(depth: CompressedStream, confidence: CompressedStream?)
    case png(PNGFrames)
}
