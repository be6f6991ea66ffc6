/// Depth values no sensor gives: a damaged stream (raw DEFLATE has no checksum) turns 1.92 m into 7860 m or 4.03 m
/// into -161 m. Such samples are invalid wherever depth is read (outside [min_depth, max_depth], or not a number);
/// this counts them so that a report can say so (`CaptureOptions.plausibleDepth` gives the bound).
extension DepthFrame {
    /// Samples whose value in meters is negative, not a number, or beyond `bound` (infinite ones included when
    /// `bound` is finite; 0 means "no depth" and is not counted).
    public func implausibleSamples(beyond bound: Float) -> Int {
        var count = 0
        for j in 0..<height {
            let row = base + j &* rowStride
            for i in 0..<width {
                let d: Float
                switch format {
                case .float32: d = row.assumingMemoryBound(to: Float.self)[i] * scale
                case .float16: d = Float(row.assumingMemoryBound(to: Float16.self)[i]) * scale
                case .uint16: d = Float(row.assumingMemoryBound(to: UInt16.self)[i]) * scale
                }
                if !(d >= 0 && d <= bound) { count &+= 1 }
            }
        }
        return count
    }
}
