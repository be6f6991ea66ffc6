/// Head and tail candidates of a mask: the extreme mask pixels along its principal axis.
public struct MaskEndpoints: Equatable, Sendable {
    /// Pixel centres (i + 0.5, j + 0.5) of the mask pixels with the smallest and the largest projection.
    public var end0: SIMD2<Float>, end1: SIMD2<Float>
    /// The principal axis: a total-least-squares 2D line through the mask's pixel centres (pixels).
    public var axis: LineFit
}

extension Mask {
    /// The principal axis of the inside pixels' centres and the extreme pixels along it (ties: the one nearest
    /// the axis, then the first in row order). Throws `.noData` for an empty mask, `.degenerate` for one pixel.
    public func endpoints() throws(FathomError) -> MaskEndpoints {
        var centres: [SIMD3<Double>] = []
        for y in 0..<height {
            for x in 0..<width where isInside(x, y) { centres.append(SIMD3(Double(x) + 0.5, Double(y) + 0.5, 0)) }
        }
        guard !centres.isEmpty else { throw FathomError(.noData, "the mask is empty") }
        guard centres.count >= 2 else { throw FathomError(.degenerate, "the mask has a single pixel: no axis") }
        let axis = try FitPoints.with(centres, dimensions: 2) { p throws(FathomError) in try LineFit.fit2D(p, method: .total) }
        func key(_ c: SIMD3<Double>) -> (t: Double, off: Double) {
            let q = c - axis.point, t = dot(q, axis.direction)
            return (t, abs(q.x * axis.direction.y - q.y * axis.direction.x))
        }
        var low = centres[0], high = centres[0]
        var lowKey = key(low), highKey = lowKey
        for c in centres.dropFirst() {
            let k = key(c)
            if k.t < lowKey.t || (k.t == lowKey.t && k.off < lowKey.off) { (low, lowKey) = (c, k) }
            if k.t > highKey.t || (k.t == highKey.t && k.off < highKey.off) { (high, highKey) = (c, k) }
        }
        return MaskEndpoints(end0: SIMD2(Float(low.x), Float(low.y)), end1: SIMD2(Float(high.x), Float(high.y)), axis: axis)
    }
}
