import Glibc

/// The gap between a mask end's last inside pixel centre and its true tip (pixels along the measured direction),
/// and how far a sharp tip recedes when its outline moves inward, tabulated by tools/tip_gap.py over the ends
/// fish have, at random offsets and directions on the pixel grid.
enum TipGap {
    /// The gap's mean and standard deviation for a tip of measured radius R (pixels; R = w2^2 / 16 from the
    /// outline's width w2 two pixels behind, plus a pixel): rounded wedges and square ends, interpolated
    /// linearly in log R between the nodes R = 0.1 * 2^i (held constant beyond the last).
    static func rounded(radius: Double) -> (mean: Double, sd: Double) {
        let position = log2(radius / 0.1)
        return (interpolate(roundedMeans, position), interpolate(roundedSDs, position))
    }

    /// For a sharp tip (below a pixel in radius both as w2^2 / 16 and as w6^2 / 48: parabolas w2 and w6 wide two
    /// and six pixels behind) widening by `opening` o = (w6 - w2) / 4 pixels per pixel behind: the gap's mean and
    /// standard deviation, and how far the tip recedes per pixel its outline moves inward (1 / sin of its
    /// half-angle: both its sides move in and meet that much further back); over sharp wedges, lopsided ones (a
    /// forked tail's lobes) among them, interpolated linearly in log o between the nodes o = 0.25 * 2^(i / 2)
    /// (held constant beyond the last).
    static func sharp(opening: Double) -> (mean: Double, sd: Double, recession: Double) {
        let position = 2 * log2(opening / 0.25)
        return (interpolate(sharpMeans, position), interpolate(sharpSDs, position), interpolate(sharpRecessions, position))
    }

    /// `table` at fractional node index `position`, clamped to the nodes (NaN: the first).
    private static func interpolate(_ table: [Double], _ position: Double) -> Double {
        guard position.isFinite else { return position > 0 ? table[table.count - 1] : table[0] }
        let node = gridCell(position, count: table.count - 1)
        let t = min(max(position - Double(node), 0), 1)
        return table[node] + t * (table[node + 1] - table[node])
    }

    private static let roundedMeans = [0.484, 0.518, 0.469, 0.424, 0.362, 0.319, 0.264, 0.217, 0.087, 0.042]
    private static let roundedSDs = [0.340, 0.330, 0.293, 0.269, 0.235, 0.226, 0.204, 0.195, 0.149, 0.060]
    private static let sharpMeans = [1.634, 1.547, 1.393, 1.212, 0.984, 0.713]
    private static let sharpSDs = [1.129, 0.950, 0.812, 0.682, 0.536, 0.471]
    private static let sharpRecessions = [7.029, 6.429, 4.820, 3.683, 2.866, 2.389]
}
