/// Points with optional per-point normals, colours and confidence, in flat arrays (the layout C and numpy
/// share): point i is `points[3i ..< 3i+3]`, meters; normals likewise (unit); colours RGB bytes; confidence
/// one byte per point (ARKit: 0 low, 1 medium, 2 high).
public struct PointCloud: Sendable, Equatable {
    public var points: [Float]
    public var normals: [Float]?
    public var colors: [UInt8]?
    public var confidence: [UInt8]?

    public var count: Int { points.count / 3 }

    /// Checks that every optional array matches the point count.
    public init(points: [Float], normals: [Float]? = nil, colors: [UInt8]? = nil, confidence: [UInt8]? = nil) throws(FathomError) {
        guard points.count % 3 == 0 else { throw FathomError(.outOfRange, "points must hold 3 values per point, got \(points.count)") }
        let n = points.count / 3
        if let normals, normals.count != 3 * n { throw FathomError(.outOfRange, "normals hold \(normals.count / 3) points, the cloud \(n)") }
        if let colors, colors.count != 3 * n { throw FathomError(.outOfRange, "colors hold \(colors.count / 3) points, the cloud \(n)") }
        if let confidence, confidence.count != n { throw FathomError(.outOfRange, "confidence holds \(confidence.count) points, the cloud \(n)") }
        self.points = points
        self.normals = normals
        self.colors = colors
        self.confidence = confidence
    }

    /// A cloud of `points` alone (3 values per point, not checked).
    init(unchecked points: [Float]) {
        self.points = points
    }

    /// The points inside `box` (with their normals, colours and confidence).
    public func inside(_ box: OrientedBox) throws(FathomError) -> PointCloud {
        guard count > 0 else { return self }
        var mask = [UInt8](repeating: 0, count: count)
        try points.withUnsafeBufferPointer { (p) throws(FathomError) in
            let buffer = try PointBuffer(base: p.baseAddress!, count: count, strideBytes: 12)
            _ = mask.withUnsafeMutableBufferPointer { box.maskInside(buffer, mask: $0.baseAddress!) }
        }
        func keep<T>(_ values: [T], _ width: Int) -> [T] {
            var out = [T]()
            for i in 0..<count where mask[i] != 0 { out += values[width * i ..< width * (i + 1)] }
            return out
        }
        var result = PointCloud(unchecked: keep(points, 3))
        result.normals = normals.map { keep($0, 3) }
        result.colors = colors.map { keep($0, 3) }
        result.confidence = confidence.map { keep($0, 1) }
        return result
    }

    /// Point i (i in 0..<count).
    public subscript(i: Int) -> SIMD3<Float> { SIMD3(points[3 * i], points[3 * i + 1], points[3 * i + 2]) }
}
