/// One frame of a scan, read into memory it owns: the stored depth and confidence, the timestamp, the
/// camera pose and the RGB intrinsics. `withDepthFrame` lends it as a `DepthFrame`, so back-projection,
/// sampling and lengths work on scan frames as on any depth map.
public struct ScanFrame: Sendable {
    public let index: Int
    /// Nanoseconds since the device booted.
    public let timestamp: Int64
    public let pose: Pose
    public let rgb: Intrinsics
    public let width: Int, height: Int
    public let format: DepthFormat
    /// Meters per stored depth unit.
    public let scale: Float
    /// The stored depth samples (float storage keeps them aligned for every format).
    public let depthStorage: [Float]
    public let confidence: [UInt8]?

    /// Reads frame `index` of `scan`.
    public init(_ scan: Scan, _ index: Int) throws(FathomError) {
        var storage = [Float](repeating: 0, count: (scan.depthFrameBytes + 3) / 4)
        try storage.withUnsafeMutableBytes { raw in Result { () throws(FathomError) in try scan.readDepth(index, into: raw) } }.get()
        var confidence: [UInt8]?
        if scan.hasConfidence {
            var values = [UInt8](repeating: 0, count: scan.confidenceFrameBytes)
            try values.withUnsafeMutableBytes { raw in Result { () throws(FathomError) in try scan.readConfidence(index, into: raw) } }.get()
            confidence = values
        }
        self.index = index
        timestamp = scan.timestamps[index]
        pose = scan.poses[index]
        rgb = scan.intrinsics[index]
        width = scan.depthWidth
        height = scan.depthHeight
        format = scan.depthFormat
        scale = scan.depthScale
        depthStorage = storage
        self.confidence = confidence
    }

    /// Calls `body` with the frame as a `DepthFrame` (with its pose), valid only inside `body`.
    public func withDepthFrame<R>(minConfidence: UInt8 = 0, minDepth: Float = 0, maxDepth: Float = .infinity,
                                  _ body: (DepthFrame) throws(FathomError) -> R) throws(FathomError) -> R {
        let result = depthStorage.withUnsafeBytes { depth in
            withConfidence { c in
                Result { () throws(FathomError) -> R in
                    let frame = try DepthFrame(base: depth.baseAddress!, format: format, width: width, height: height, scale: scale,
                                               confidence: c, minConfidence: c == nil ? 0 : minConfidence,
                                               minDepth: minDepth, maxDepth: maxDepth, rgb: rgb, pose: pose)
                    return try body(frame)
                }
            }
        }
        return try result.get()
    }

    private func withConfidence<R>(_ body: (UnsafePointer<UInt8>?) -> R) -> R {
        guard let confidence else { return body(nil) }
        return confidence.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
