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
    /// A mask pixel is inside when its centre is, so the true end lies a gap beyond the last inside centre; its
    /// mean and standard deviation depend on the tip's shape (`tip(at:)`). The outline's placement error,
    /// `edgeNoise` mask pixels perpendicular to it, moves a rounded tip by as much and a sharp one by more. The
    /// end is placed at the body's height there (`height`).
    func end(along direction: SIMD3<Double>, among candidates: [OutlinePoint], trim: Int, options: LengthOptions) -> BodyEnd {
        var ordered = candidates.map { (position: dot($0.point, direction), point: $0) }
        ordered.sort { $0.position > $1.position }
        let extreme = ordered[min(trim, ordered.count - 1)].point
        let footprint = self.footprint(extreme.pixel, along: direction)
        let tip = self.tip(at: extreme.point, along: direction, footprint: footprint, among: candidates, options: options)
        let variance = square(tip.gapSD) + square(options.edgeNoise * tip.recession)
        return settle(extreme.point + tip.gapMean * footprint * direction, extreme.pixel, along: direction,
                      variance: variance * footprint * footprint, options: options)
    }

    /// The end where a curve through the body crosses its outline at `point` (mask coordinates `pixel`) going
    /// along `direction`: the pixels' inside test places the outline within half a pixel either way, uniformly
    /// (footprint / sqrt(12)); the outline's placement error and the body's height as for `end(along:)`.
    func crossing(at point: SIMD3<Double>, _ pixel: SIMD2<Double>, along direction: SIMD3<Double>,
                  among candidates: [OutlinePoint], options: LengthOptions) -> BodyEnd {
        let footprint = self.footprint(pixel, along: direction)
        let tip = self.tip(at: point, along: direction, footprint: footprint, among: candidates, options: options)
        let variance = 1.0 / 12 + square(options.edgeNoise * tip.recession)
        return settle(point, pixel, along: direction, variance: variance * footprint * footprint, options: options)
    }

    /// The tip at `point`, from the outline's widths w2 and w6 (mask pixels: the lateral spread of the outline
    /// within 2 and 6 pixels behind it, plus a pixel for the pixels' own width): the gap from its last inside
    /// centre to the true tip (mean and standard deviation, pixels) and how far it recedes per pixel its outline
    /// moves inward (`TipGap`). A rounded tip's gap depends on its radius R = w2^2 / 16 (a parabola w2 wide two
    /// pixels behind), a sharp one's (below a pixel in radius both as R and as w6^2 / 48, so that a lone pixel
    /// standing out of a blunt end is not one) on its opening (w6 - w2) / 4. A tip recedes as much as its
    /// outline moves unless it is sharper than the noise: a sharp one by `TipGap`'s 1 / sin of its half-angle,
    /// one between a pixel and edgeNoise in radius by 1 / sin(a) with tan a = (w6 - w2) / 8, at most 8.
    private func tip(at point: SIMD3<Double>, along direction: SIMD3<Double>, footprint: Double,
                     among candidates: [OutlinePoint], options: LengthOptions) -> (gapMean: Double, gapSD: Double, recession: Double) {
        let w2 = width(at: point, along: direction, behind: 2 * footprint, among: candidates) / footprint + 1
        let w6 = width(at: point, along: direction, behind: 6 * footprint, among: candidates) / footprint + 1
        let radius = max(0.1, square(w2) / 16), opening = max(0.01, (w6 - w2) / 4)
        if radius < 1, square(w6) / 48 < 1 {
            let sharp = TipGap.sharp(opening: opening)
            return (sharp.mean, sharp.sd, sharp.recession)
        }
        let gap = TipGap.rounded(radius: radius)
        return (gap.mean, gap.sd, radius < options.edgeNoise ? min(8, (1 + square(2 / opening)).squareRoot()) : 1)
    }

    /// The end at `point` with `variance` (meters^2) along `direction`, moved to the body's height there.
    private func settle(_ point: SIMD3<Double>, _ pixel: SIMD2<Double>, along direction: SIMD3<Double>, variance: Double,
                        options: LengthOptions) -> BodyEnd {
        let shift = plane.shift(ray(pixel))
        let (height, heightVariance) = self.height(at: point, along: direction, shift: shift, options: options)
        return BodyEnd(point: point + height * shift, variance: variance + heightVariance, shift: shift)
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
