import Glibc

/// One end of a mask's body along a direction on its plane: the outline pixel furthest along it, moved half
/// a pixel outward, and the end's uncertainty along the direction.
struct BodyEnd {
    /// The end on the plane, optical frame.
    var point: SIMD3<Double>
    /// Mask coordinates of the outline pixel's centre.
    var pixel: SIMD2<Double>
    /// Variance (meters^2) of the end's position along the direction.
    var variance: Double
    /// How the end moves per meter of shift of the plane (`BodyPlane.shift`).
    var shift: SIMD3<Double>
    /// Meters along the direction that one mask pixel covers there.
    var footprint: Double
}

extension PlanarBody {
    /// The end furthest along unit `direction` among `candidates` (outline points), dropping the `trim` furthest.
    ///
    /// A mask pixel is inside when its centre is, so the true end lies a gap g beyond the last inside centre.
    /// Near a tip of radius R (pixels) the body covers (4/3) sqrt(2R) s^(3/2) pixels within s of the tip; with
    /// pixel centres scattered over it as a Poisson process of unit density, P(g > s) = exp(-k s^(3/2)),
    /// k = (4/3) sqrt(2R), so g has mean Gamma(5/3) k^(-2/3) and standard deviation 0.613 k^(-2/3). R comes from
    /// the outline's width w two pixels behind the end (R = w^2 / 16): a blunt end gives a gap near 0, a point
    /// about 1.5 pixels. The outline's own placement error, `edgeNoise` mask pixels perpendicular to it, moves
    /// a tip that narrows at half-angle a by edgeNoise / sin(a) along the axis (a from the width two noise
    /// widths behind the end; 1 / sin(a) at most 4).
    ///
    /// The end is placed at the body's height there, not the plane's: the plane is moved along its normal by the
    /// median distance from it of the depth samples within `reach` meters of the end (a fish's tips lie below
    /// its back), when there are at least 3, and the end's variance gets that median's depth noise.
    func end(along direction: SIMD3<Double>, among candidates: [OutlinePoint], trim: Int, edgeNoise: Double,
             reach: Double, options: LengthOptions) -> BodyEnd {
        var ordered = candidates.map { (position: dot($0.point, direction), point: $0) }
        ordered.sort { $0.position > $1.position }
        let skipped = min(trim, ordered.count - 1)
        let extreme = ordered[skipped]
        let footprint = self.footprint(extreme.point.pixel, along: direction)
        let side = cross(plane.fit.normal, direction)
        let lateralOrigin = dot(extreme.point.point, side)
        /// The width (meters, plus one pixel for the pixels' own width) of the tip `behind` meters behind the end:
        /// of the outline points there within 4 * behind of the end sideways (not a fork's other lobe).
        func width(_ behind: Double) -> Double {
            var low = Double.infinity, high = -Double.infinity
            for candidate in ordered[skipped...] {
                guard candidate.position >= extreme.position - behind else { break }
                let lateral = dot(candidate.point.point, side)
                guard abs(lateral - lateralOrigin) <= 4 * behind else { continue }
                low = min(low, lateral)
                high = max(high, lateral)
            }
            return high - low + footprint
        }
        let radius = square(width(2 * footprint) / footprint) / 16
        let scale = pow(4.0 / 3.0 * (2 * radius).squareRoot(), -2.0 / 3.0)
        let gap = 0.9027452929509336 * scale * footprint, gapSigma = 0.6131 * scale * footprint
        let behind = 2 * max(1, edgeNoise) * footprint
        let taper = min(4, (1 + square(2 * behind / width(behind))).squareRoot())
        let ray = self.ray(extreme.point.pixel), shift = plane.shift(ray)
        let near = plane.samples.filter { length($0 - extreme.point.point) <= reach }.map { plane.fit.distance($0) }.sorted()
        var height = 0.0, heightVariance = 0.0
        if near.count >= 3 {
            height = near[near.count / 2]
            let noise = options.noise(atDepth: extreme.point.point.z)
            heightVariance = square(dot(direction, shift) * noise) * Double.pi / (2 * Double(near.count))
        }
        return BodyEnd(point: extreme.point.point + height * shift + gap * direction, pixel: extreme.point.pixel,
                       variance: gapSigma * gapSigma + square(edgeNoise * footprint * taper) + heightVariance,
                       shift: shift, footprint: footprint)
    }
}
