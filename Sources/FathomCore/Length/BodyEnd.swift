import Glibc

/// One end of a mask's body on its plane, and the end's uncertainty along the direction it was found in.
struct BodyEnd {
    /// The end on the plane (at the body's height there), optical frame.
    var point: SIMD3<Double>
    /// Variance (meters^2) of the end's position along the direction.
    var variance: Double
    /// How the end moves per meter of shift of the plane (`BodyPlane.shift`).
    var shift: SIMD3<Double>
}

extension PlanarBody {
    /// The end furthest along unit `direction` among `candidates` (outline points), dropping the `trim` furthest.
    ///
    /// A mask pixel is inside when its centre is, so the true end lies a gap beyond the last inside centre. The
    /// gap's mean and standard deviation depend on the tip's radius R, measured from the outline's width w two
    /// pixels behind the end (R = w^2 / 16, at least 0.1); `tipGap` has them, tabulated by tools/tip_gap.py over
    /// the ends fish have (rounded wedges and square ends) at random offsets and directions on the pixel grid: a
    /// point's gap is about half a pixel, a square end's a twentieth.
    /// The outline's placement error, `edgeNoise` mask pixels perpendicular to it, moves a rounded tip (R at
    /// least the noise, and at least a pixel) by as much; a sharper tip of half-angle a by edgeNoise / sin(a)
    /// (a from the width two noise widths behind the end; 1 / sin(a) at most 4). The end is placed at the body's
    /// height there (`height`).
    func end(along direction: SIMD3<Double>, among candidates: [OutlinePoint], trim: Int, options: LengthOptions) -> BodyEnd {
        var ordered = candidates.map { (position: dot($0.point, direction), point: $0) }
        ordered.sort { $0.position > $1.position }
        let extreme = ordered[min(trim, ordered.count - 1)].point
        let footprint = self.footprint(extreme.pixel, along: direction)
        let radius = tipRadius(at: extreme.point, along: direction, footprint: footprint, among: candidates)
        let gap = tipGap(radius: radius)
        return settle(extreme.point + gap.mean * footprint * direction, extreme.pixel, along: direction,
                      footprint: footprint, radius: radius, quantisation: gap.sd * footprint, among: candidates,
                      options: options)
    }

    /// The end where a curve through the body crosses its outline at `point` (mask coordinates `pixel`) going
    /// along `direction`: the pixels' inside test places the outline within half a pixel either way, uniformly
    /// (footprint / sqrt(12)); the outline's placement error and the body's height as for `end(along:)`.
    func crossing(at point: SIMD3<Double>, _ pixel: SIMD2<Double>, along direction: SIMD3<Double>,
                  among candidates: [OutlinePoint], options: LengthOptions) -> BodyEnd {
        let footprint = self.footprint(pixel, along: direction)
        let radius = tipRadius(at: point, along: direction, footprint: footprint, among: candidates)
        return settle(point, pixel, along: direction, footprint: footprint, radius: radius,
                      quantisation: footprint / 12.0.squareRoot(), among: candidates, options: options)
    }

    /// The radius (mask pixels, at least 0.1) of the tip at `point`: R = w^2 / 16 from the outline's width w
    /// (plus a pixel for the pixels' own width) two pixels behind it.
    private func tipRadius(at point: SIMD3<Double>, along direction: SIMD3<Double>, footprint: Double,
                           among candidates: [OutlinePoint]) -> Double {
        let width = self.width(at: point, along: direction, behind: 2 * footprint, among: candidates) + footprint
        return max(0.1, square(width / footprint) / 16)
    }

    private static let tipGapMeans = [0.484, 0.518, 0.469, 0.424, 0.362, 0.319, 0.264, 0.217, 0.087, 0.042]
    private static let tipGapSDs = [0.340, 0.330, 0.293, 0.269, 0.235, 0.226, 0.204, 0.195, 0.149, 0.060]

    /// The mean and standard deviation (pixels) of the gap beyond the last inside pixel centre of a tip of
    /// measured radius `radius` pixels, interpolated linearly in log R between tools/tip_gap.py's nodes
    /// R = 0.1 * 2^i (held constant beyond the last).
    private func tipGap(radius: Double) -> (mean: Double, sd: Double) {
        let (means, sds) = (Self.tipGapMeans, Self.tipGapSDs)
        let position = min(max(log2(radius / 0.1), 0), Double(means.count - 1))
        guard position.isFinite else { return (means[0], sds[0]) }
        let node = min(Int(position), means.count - 2), t = position - Double(node)
        return (means[node] + t * (means[node + 1] - means[node]), sds[node] + t * (sds[node + 1] - sds[node]))
    }

    /// The end at `point` with its variance: the quantisation, the outline's placement error (a tip sharper
    /// than the noise amplifying it), and the body's height there.
    private func settle(_ point: SIMD3<Double>, _ pixel: SIMD2<Double>, along direction: SIMD3<Double>, footprint: Double,
                        radius: Double, quantisation: Double, among candidates: [OutlinePoint], options: LengthOptions) -> BodyEnd {
        var taper = 1.0
        if radius < max(1, options.edgeNoise) {
            let behind = 4 * max(1, options.edgeNoise) * footprint
            let spread = width(at: point, along: direction, behind: behind, among: candidates) + footprint
            taper = min(8, (1 + square(2 * behind / spread)).squareRoot())
        }
        let shift = plane.shift(ray(pixel))
        let (height, heightVariance) = self.height(at: point, along: direction, shift: shift, options: options)
        return BodyEnd(point: point + height * shift,
                       variance: quantisation * quantisation + square(options.edgeNoise * footprint * taper) + heightVariance,
                       shift: shift)
    }

    /// The lateral width (meters) of the outline behind `point`: of the outline points up to `behind` meters
    /// behind it along `direction`, those reached from it sideways through the body (neighbours in lateral order that are
    /// at most two pixels apart or have body between them), so a fork's other lobe is not counted; 0 for fewer
    /// than two.
    func width(at point: SIMD3<Double>, along direction: SIMD3<Double>, behind: Double, among candidates: [OutlinePoint]) -> Double {
        let side = cross(plane.fit.normal, direction)
        let position = dot(point, direction), lateral = dot(point, side)
        let band = candidates.filter { dot($0.point, direction) <= position && dot($0.point, direction) >= position - behind }
            .map { (offset: dot($0.point, side) - lateral, point: $0.point) }.sorted { $0.offset < $1.offset }
        guard let nearest = band.indices.min(by: { abs(band[$0].offset) < abs(band[$1].offset) }) else { return 0 }
        let step = 2 * footprint(maskPixel(point), along: side)
        func joined(_ a: Int, _ b: Int) -> Bool {
            band[b].offset - band[a].offset <= step || contains((band[a].point + band[b].point) / 2)
        }
        var low = nearest, high = nearest
        while low > 0, joined(low - 1, low) { low -= 1 }
        while high < band.count - 1, joined(high, high + 1) { high += 1 }
        return band[high].offset - band[low].offset
    }

    /// The body's height over its plane near an end, and that height's variance along `direction`: the plane
    /// moved along its normal by the median distance from it of the depth samples within `endReach` of the end
    /// (a fish's tips lie below its back), when there are at least 3, with the median's depth noise.
    func height(at point: SIMD3<Double>, along direction: SIMD3<Double>, shift: SIMD3<Double>,
                options: LengthOptions) -> (Double, Double) {
        let near = plane.samples.filter { length($0 - point) <= endReach }.map { plane.fit.distance($0) }.sorted()
        guard near.count >= 3 else { return (0, 0) }
        let noise = options.noise(atDepth: point.z)
        return (near[near.count / 2], square(dot(direction, shift) * noise) * Double.pi / (2 * Double(near.count)))
    }
}
