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
    /// A mask pixel is inside when its centre is, so the true end lies a gap beyond the last inside centre. For
    /// a tip of radius R pixels at a random offset and direction on the pixel grid, the gap has mean
    /// 0.467 R^-0.283 and standard deviation 0.240 R^-0.176 pixels (fitted to a Monte Carlo of disc-shaped tips,
    /// tools/tip_gap.py, within 0.01 pixel for R from 1 to 50). R comes from the outline's width w two pixels
    /// behind the end (R = w^2 / 16, at least 0.1): a blunt end gives a gap near 0.1 pixel, a point about 0.9.
    /// The outline's placement error, `edgeNoise` mask pixels perpendicular to it, moves a rounded tip (R at
    /// least the noise, and at least a pixel) by as much; a sharper tip of half-angle a by edgeNoise / sin(a)
    /// (a from the width two noise widths behind the end; 1 / sin(a) at most 4). The end is placed at the body's
    /// height there (`height`).
    func end(along direction: SIMD3<Double>, among candidates: [OutlinePoint], trim: Int, options: LengthOptions) -> BodyEnd {
        var ordered = candidates.map { (position: dot($0.point, direction), point: $0) }
        ordered.sort { $0.position > $1.position }
        let extreme = ordered[min(trim, ordered.count - 1)].point
        let footprint = self.footprint(extreme.pixel, along: direction)
        let tipWidth = width(at: extreme.point, along: direction, behind: 2 * footprint, among: candidates) + footprint
        let radius = max(0.1, square(tipWidth / footprint) / 16)
        let gap = 0.467 * pow(radius, -0.283) * footprint, gapSigma = 0.240 * pow(radius, -0.176) * footprint
        var taper = 1.0
        if radius < max(1, options.edgeNoise) {
            let behind = 2 * max(1, options.edgeNoise) * footprint
            let spread = width(at: extreme.point, along: direction, behind: behind, among: candidates) + footprint
            taper = min(4, (1 + square(2 * behind / spread)).squareRoot())
        }
        let shift = plane.shift(ray(extreme.pixel))
        let (height, heightVariance) = self.height(at: extreme.point, along: direction, shift: shift, options: options)
        return BodyEnd(point: extreme.point + gap * direction + height * shift,
                       variance: gapSigma * gapSigma + square(options.edgeNoise * footprint * taper) + heightVariance,
                       shift: shift)
    }

    /// The lateral width (meters) of the outline points between `behind` meters behind `point` along `direction`
    /// and `point`, within 4 * behind of it sideways (not a fork's other lobe); 0 for fewer than two.
    func width(at point: SIMD3<Double>, along direction: SIMD3<Double>, behind: Double, among candidates: [OutlinePoint]) -> Double {
        let side = cross(plane.fit.normal, direction)
        let position = dot(point, direction), lateral = dot(point, side)
        var low = Double.infinity, high = -Double.infinity
        for candidate in candidates {
            let along = dot(candidate.point, direction)
            guard along >= position - behind, along <= position + behind else { continue }
            let offset = dot(candidate.point, side)
            guard abs(offset - lateral) <= 4 * behind else { continue }
            low = min(low, offset)
            high = max(high, offset)
        }
        return high > low ? high - low : 0
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
