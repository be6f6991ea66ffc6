/// How depth values are stored.
public enum DepthFormat: UInt32, Sendable {
    case float32 = 0, float16 = 1, uint16 = 2

    /// Bytes per sample.
    public var sampleBytes: Int { self == .float32 ? 4 : 2 }
}

/// The frame of back-projected points.
public enum PointFrame: UInt32, Sendable {
    /// x right, y down, z forward (the depth).
    case optical = 0
    /// ARKit camera: x right, y up, looking along -z.
    case camera = 1
    /// camera_to_world applied to the camera-frame point.
    case world = 2
}

/// A caller-owned depth map (z-depth), borrowed for the duration of a query, with the rules that make
/// a sample valid. Sample (column i, row j) sits at continuous depth-grid coordinates (i + 0.5, j + 0.5).
public struct DepthFrame: @unchecked Sendable {
    public let base: UnsafeRawPointer
    public let format: DepthFormat
    public let width: Int, height: Int
    /// Bytes from one row to the next.
    public let rowStride: Int
    /// Meters per stored unit.
    public let scale: Float
    public let confidence: UnsafePointer<UInt8>?
    public let confidenceStride: Int
    public let minConfidence: UInt8
    public let minDepth: Float, maxDepth: Float
    /// Intrinsics of the RGB image, and the same scaled to the depth grid.
    public let rgb: Intrinsics, grid: Intrinsics
    public let pose: Pose?

    /// Validates the description: size >= 1, strides that hold a row, alignment of the samples,
    /// scale > 0, 0 <= minDepth <= maxDepth, and rgb intrinsics (already valid as a type).
    public init(base: UnsafeRawPointer, format: DepthFormat, width: Int, height: Int, rowStride: Int = 0, scale: Float = 1,
                confidence: UnsafePointer<UInt8>? = nil, confidenceStride: Int = 0, minConfidence: UInt8 = 0,
                minDepth: Float = 0, maxDepth: Float = .infinity, rgb: Intrinsics, pose: Pose? = nil) throws(FathomError) {
        guard width >= 1, height >= 1 else {
            throw FathomError(.outOfRange, "depth size must be at least 1x1, got \(width)x\(height)")
        }
        let packed = width * format.sampleBytes
        let stride = rowStride == 0 ? packed : rowStride
        guard stride >= packed else {
            throw FathomError(.outOfRange, "row_stride \(rowStride) is less than a row of \(width) samples (\(packed) bytes)")
        }
        guard stride % format.sampleBytes == 0, Int(bitPattern: base) % format.sampleBytes == 0 else {
            throw FathomError(.outOfRange, "depth samples must be aligned to \(format.sampleBytes) bytes (pointer and row_stride)")
        }
        let (bytes, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow, bytes < Int.max / 2 else { throw FathomError(.overflow, "row_stride * height overflows") }
        let confidenceRow = confidenceStride == 0 ? width : confidenceStride
        if confidence != nil {
            guard confidenceRow >= width else {
                throw FathomError(.outOfRange, "confidence_stride \(confidenceStride) is less than the width \(width)")
            }
            guard !confidenceRow.multipliedReportingOverflow(by: height).overflow else {
                throw FathomError(.overflow, "confidence_stride * height overflows")
            }
        }
        try Check.positive(scale, "scale")
        guard minDepth >= 0, !minDepth.isNaN, minDepth < .infinity else {
            throw FathomError(minDepth.isNaN || minDepth.isInfinite ? .notFinite : .outOfRange, "min_depth must be finite and >= 0, got \(minDepth)")
        }
        guard maxDepth >= minDepth else {
            throw FathomError(maxDepth.isNaN ? .notFinite : .outOfRange, "max_depth must be >= min_depth (\(minDepth)), got \(maxDepth)")
        }
        self.base = base
        self.format = format
        self.width = width
        self.height = height
        self.rowStride = stride
        self.scale = scale
        self.confidence = confidence
        self.confidenceStride = confidenceRow
        self.minConfidence = minConfidence
        self.minDepth = minDepth
        self.maxDepth = maxDepth
        self.rgb = rgb
        // The depth grid covers the RGB image's field of view, each axis scaled by its own factor (sensors keep the
        // image's shape). A grid with the image's shape transposed (an array passed as [x][y]), or scaled more than
        // twice as much along one axis as along the other, would give points from the wrong rays.
        let sx = Double(width) / Double(rgb.width), sy = Double(height) / Double(rgb.height)
        let transposed = abs(Double(height) / Double(rgb.width) - Double(width) / Double(rgb.height)) <= 0.02 * max(sx, sy)
        guard !(transposed && abs(sx - sy) > 0.02 * max(sx, sy)), sx <= 2 * sy, sy <= 2 * sx else {
            throw FathomError(.outOfRange, "the \(width)x\(height) depth grid (width x height) does not have the shape of the \(rgb.width)x\(rgb.height) image "
                + "the intrinsics are for" + (transposed ? " (is the array transposed?)" : ""))
        }
        let grid = try rgb.scaled(width: width, height: height)
        // Every sample's ray slope (i + 0.5 - cx') / fx' must be a float: a focal length near 0 makes it infinite,
        // and the samples' points NaN.
        for (c, f, n, axis) in [(grid.cx, grid.fx, width, "x"), (grid.cy, grid.fy, height, "y")]
        where !((0.5 - c) / f).isFinite || !((Float(n) - 0.5 - c) / f).isFinite {
            throw FathomError(.outOfRange, "the intrinsics scaled to the \(width)x\(height) depth grid give rays whose \(axis) slope overflows (f\(axis)' = \(f), c\(axis)' = \(c))")
        }
        self.grid = grid
        self.pose = pose
    }

    /// The stored values of row `j` as meters into `out[0..<width]` (invalid samples as 0).
    @inlinable
    func readRow(_ j: Int, into out: UnsafeMutablePointer<Float>) {
        let row = base + j &* rowStride
        let lo = Swift.max(minDepth, Float.leastNonzeroMagnitude), hi = Swift.min(maxDepth, .greatestFiniteMagnitude)
        switch format {
        case .float32:
            let p = row.assumingMemoryBound(to: Float.self)
            for i in 0..<width { out[i] = p[i] * scale }
        case .float16:
            let p = row.assumingMemoryBound(to: Float16.self)
            for i in 0..<width { out[i] = Float(p[i]) * scale }
        case .uint16:
            let p = row.assumingMemoryBound(to: UInt16.self)
            for i in 0..<width { out[i] = Float(p[i]) * scale }
        }
        for i in 0..<width {
            let d = out[i]
            out[i] = d >= lo && d <= hi ? d : 0
        }
        if let confidence, minConfidence > 0 {
            let c = confidence + j &* confidenceStride
            for i in 0..<width where c[i] < minConfidence { out[i] = 0 }
        }
    }

    /// The depth of sample (i, j) in meters, or nil when it is invalid. i, j must be inside the grid.
    @inlinable
    public func depth(_ i: Int, _ j: Int) -> Float? {
        let row = base + j &* rowStride
        let raw: Float
        switch format {
        case .float32: raw = row.assumingMemoryBound(to: Float.self)[i]
        case .float16: raw = Float(row.assumingMemoryBound(to: Float16.self)[i])
        case .uint16: raw = Float(row.assumingMemoryBound(to: UInt16.self)[i])
        }
        let d = raw * scale
        guard d > 0, d >= minDepth, d <= maxDepth, d < .infinity else { return nil }
        if let confidence, confidence[j &* confidenceStride &+ i] < minConfidence { return nil }
        return d
    }

    /// Throws `.invalidState` unless the frame can give points in `frame` (world needs a pose).
    public func require(_ frame: PointFrame) throws(FathomError) {
        if frame == .world, pose == nil {
            throw FathomError(.invalidState, "world-frame points need the frame's camera pose (has_pose = 0)")
        }
    }

    /// An optical-frame point in `frame`.
    @inlinable
    public func convert(_ p: SIMD3<Float>, to frame: PointFrame) -> SIMD3<Float> {
        switch frame {
        case .optical: return p
        case .camera: return SIMD3(p.x, -p.y, -p.z)
        case .world: return pose!.apply(point: SIMD3(p.x, -p.y, -p.z))
        }
    }

    /// A direction (or normal) of the optical frame in `frame`.
    @inlinable
    public func convertDirection(_ v: SIMD3<Float>, to frame: PointFrame) -> SIMD3<Float> {
        switch frame {
        case .optical: return v
        case .camera: return SIMD3(v.x, -v.y, -v.z)
        case .world: return pose!.rotation * SIMD3(v.x, -v.y, -v.z)
        }
    }
}
