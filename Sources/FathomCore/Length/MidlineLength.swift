import Glibc

/// A length along the body's midline: for bent fish, beside the straight snout-to-tail length.
public struct MidlineLength {
    /// The arc length from head to tail and its uncertainty; `rms` is the midline fit's RMS residual (meters).
    public var length: ObjectLength
    let curve: MidlineCurve
    let range: (head: Double, tail: Double)
    let convert: (SIMD3<Double>) -> SIMD3<Double>

    /// Visits `count` (>= 2) points of the midline at evenly spaced arc lengths from head to tail, in the
    /// options' frame, with their index.
    public func forEachCurvePoint(_ count: Int, _ visit: (Int, SIMD3<Double>) -> Void) {
        curve.forEachEvenlySpaced(count, from: range.head, to: range.tail) { visit($0, convert($1)) }
    }
}

extension DepthFrame {
    /// The length of the curve through the middle of the mask's body, on the body plane (`measure(mask:)`).
    ///
    /// The body's area on the plane is cut into slices across its axis (about two mask pixels wide, 8 to 64
    /// of them), and the slices' area-weighted centres are fitted by weighted least squares with a polynomial
    /// of degree up to 4 in the position along the axis (a C or an S bend: the midline must stay a function
    /// along the axis, each end within about 60 degrees of it), slices far off the curve of the rest weighted
    /// down (Tukey's biweight: a forked tail's lobe going on alone). Then twice the body is sliced across that
    /// curve instead, each pixel weighted for the curvature, and the curve refitted. Each end is where the curve
    /// leaves the body (past holes up to the body's gap); where the outline goes on beyond that by more than
    /// 1 + 3 edge_noise mask pixels (the notch of a forked tail, or one lobe left of it), the outline's end along
    /// the curve's direction (as `end(along:)`), the curve running to where it is level with it. The error bar
    /// adds to the ends' and the plane's terms the first-order effect of the polynomial's coefficient
    /// covariance on the arc length.
    public func measureMidline(mask: Mask, options: LengthOptions) throws(FathomError) -> MidlineLength {
        let planar = try planarBody(mask, options)
        let trim = options.trimCount(planar.outline.count)
        let positions = planar.outline.map { planar.along($0.point) }
        let start = positions.min() ?? 0, end = positions.max() ?? 0
        guard end > start else { throw FathomError(.degenerate, "the mask's body has no extent along its axis") }
        let curve = try MidlineCurve(planar, from: start, to: end)
        let step = 0.1 * planar.footprint(planar.maskPixel(planar.centre), along: planar.axis)
        let run = 10 * (options.bodyGap + 1)
        let reach = 0.1 * (end - start)
        /// One end, going by `sign` along the axis from the middle, among the outline's last quarter there.
        func midlineEnd(_ sign: Double, _ candidates: [PlanarBody.OutlinePoint]) throws(FathomError) -> (t: Double, end: BodyEnd) {
            // The outline's end along the curve's direction there (as fathom_length_mask's ends along the axis),
            // and the curve's parameter level with it.
            var t = sign < 0 ? start : end
            var extreme = planar.end(along: sign * planar.axis, among: candidates, trim: trim, options: options)
            for _ in 0..<3 {
                extreme = planar.end(along: sign * curve.tangent(t), among: candidates, trim: trim, options: options)
                t = curve.parameter(meeting: extreme.point, near: t)
            }
            // Where the curve leaves the body: one crossing, which a blunt ragged tail's corners cannot move. If
            // the outline goes on beyond it by more than its raggedness (a forked tail's notch, even where one lobe
            // was lost), the outline's end counts.
            guard let exit = curve.exit(from: curve.middle, step: sign * step, limit: t + sign * reach, run: run) else {
                throw FathomError(.degenerate, "the midline does not run through the mask's body")
            }
            let direction = sign * curve.tangent(exit), p = curve.point(exit), pixel = planar.maskPixel(p)
            let margin = (1 + 3 * options.edgeNoise) * planar.footprint(pixel, along: direction)
            if dot(extreme.point - p, direction) > margin { return (t, extreme) }
            return (exit, planar.crossing(at: p, pixel, along: direction, among: candidates, options: options))
        }
        let (tHead, head) = try midlineEnd(-1, planar.outline.filter { planar.along($0.point) <= start + 0.25 * (end - start) })
        let (tTail, tail) = try midlineEnd(1, planar.outline.filter { planar.along($0.point) >= end - 0.25 * (end - start) })
        guard tTail > tHead else { throw FathomError(.degenerate, "the midline's ends cross") }
        // The ends' height over the plane moves them along their rays; the part along the curve adds to it.
        let arc = curve.arcLength(from: tHead, to: tTail) + dot(tail.point - curve.point(tTail), curve.tangent(tTail))
            - dot(head.point - curve.point(tHead), curve.tangent(tHead))
        guard arc > 0 else { throw FathomError(.degenerate, "the midline's ends cross (trimmed past each other)") }
        let chord = length(tail.point - head.point)
        var variance = head.variance + tail.variance + curve.arcLengthVariance(from: tHead, to: tTail)
        if chord > 0 {
            let planeVariance = planar.plane.lengthVariance(e: (tail.point - head.point) / chord, head: (head.point, head.shift),
                                                            tail: (tail.point, tail.shift), offset: false)
            variance += planeVariance * square(arc / chord)  // the plane's errors scale the whole curve
        }
        let result = try ObjectLength(length: arc, sigma: variance.squareRoot(),
                                  head: convert(head.point, to: options.frame), tail: convert(tail.point, to: options.frame),
                                  headPixel: rgbPixel(head.point), tailPixel: rgbPixel(tail.point), rms: curve.rms,
                                  samples: planar.plane.fit.used).checked()
        let frame = options.frame
        return MidlineLength(length: result, curve: curve, range: (tHead, tTail)) { self.convert($0, to: frame) }
    }
}

/// The midline on the body plane: lateral offset n(t) = sum beta_k s^k, s = (t - middle) / half, of the
/// position t along the axis, fitted to the slices' centres.
struct MidlineCurve {
    let planar: PlanarBody
    let middle: Double, half: Double
    let beta: [Double]
    /// The coefficients' covariance (column-major), and the weighted RMS of the slice centres about the curve.
    let covariance: [Double]
    let rms: Double

    init(_ planar: PlanarBody, from start: Double, to end: Double) throws(FathomError) {
        self.planar = planar
        middle = (start + end) / 2
        half = (end - start) / 2
        let pixelSize = planar.footprint(planar.maskPixel(planar.centre), along: planar.axis)
        let count = min(64, max(8, Int((end - start) / max(2 * pixelSize, 1e-9 * (end - start)))))
        // First slices across the axis; then, twice, across the fitted curve itself: where a bent body crosses a
        // slice obliquely and narrows along it, the slice's centre lies off the midline toward the wider part.
        let floor = 0.5 * pixelSize
        var fit = try Self.robustFit(Self.slices(planar, count, middle, half, across: nil), middle, half, floor: floor)
        for _ in 0..<2 {
            fit = try Self.robustFit(Self.slices(planar, count, middle, half, across: fit.beta), middle, half, floor: floor)
        }
        (beta, covariance, rms) = (fit.beta, fit.covariance, fit.rms)
    }

    /// A slice's area-weighted centre (t along the axis, n lateral) and its weight.
    private typealias Slice = (t: Double, n: Double, weight: Double)

    /// The body's pixels in `count` slices of the axis range middle +- half: across the axis (`beta` nil), or
    /// across the curve `beta`, each pixel binned at its nearest point on the curve (one Gauss-Newton step) by
    /// its signed distance from it, the slice's centre put back on the curve's normal.
    private static func slices(_ planar: PlanarBody, _ count: Int, _ middle: Double, _ half: Double,
                               across beta: [Double]?) -> [Slice] {
        var weight = [Double](repeating: 0, count: count), sumT = weight, sumN = weight
        planar.forEachPixel { p, w in
            let t = planar.along(p), n = dot(p - planar.centre, planar.lateral)
            var position = t, offset = n, w = w
            if let beta {
                let (c, slope) = Self.evaluate(beta, t, middle, half)
                position = t + (n - c) * slope / (1 + slope * slope)
                let (cc, ss) = Self.evaluate(beta, position, middle, half)
                let stretch = (1 + ss * ss).squareRoot()
                offset = (n - cc) / stretch
                // Across a curve of curvature k, area grows as 1 - k * offset: unweighted, a slice's centre would
                // lie W^2 k / 12 toward the outside of the bend.
                let curvature = Self.curvature(beta, position, middle, half) / (stretch * stretch * stretch)
                w /= max(0.1, 1 - curvature * offset)
            }
            let k = gridCell(((position - middle) / half + 1) / 2 * Double(count), count: count)
            weight[k] += w
            sumT[k] += w * position
            sumN[k] += w * offset
        }
        return weight.indices.filter { weight[$0] > 0 }.map { k -> Slice in
            let t = sumT[k] / weight[k], n = sumN[k] / weight[k]
            guard let beta else { return (t, n, weight[k]) }
            let (c, slope) = Self.evaluate(beta, t, middle, half)
            let norm = (1 + slope * slope).squareRoot()
            return (t - n * slope / norm, c + n / norm, weight[k])
        }
    }

    private typealias Fit = (beta: [Double], covariance: [Double], rms: Double)

    /// `fit`, then reweighted by Tukey's biweight of the slices' residuals (scale 1.4826 times their median,
    /// at least `floor` meters; four rounds): where one lobe of a forked tail goes on alone (the other eroded
    /// or shorter), its slices' centres lie on that lobe, far off the body's midline, and would pull the curve
    /// into it.
    private static func robustFit(_ slices: [Slice], _ middle: Double, _ half: Double, floor: Double) throws(FathomError) -> Fit {
        var result = try fit(slices, middle, half)
        for _ in 0..<4 {
            let residuals = slices.map { abs($0.n - evaluate(result.beta, $0.t, middle, half).n) }
            let scale = max(floor, 1.4826 * residuals.sorted()[residuals.count / 2])
            let kept = zip(slices, residuals).compactMap { slice, r -> Slice? in
                let u = r / (4.685 * scale)
                return u < 1 ? (slice.t, slice.n, slice.weight * square(1 - u * u)) : nil
            }
            guard kept.count >= result.beta.count + 1, let again = try? fit(kept, middle, half) else { break }
            result = again
        }
        return result
    }

    /// Weighted least squares of n = sum beta_k s^k, degree up to 4, over the slices.
    private static func fit(_ slices: [Slice], _ middle: Double, _ half: Double) throws(FathomError) -> Fit {
        let degree = min(4, slices.count - 2)
        guard degree >= 1 else { throw FathomError(.degenerate, "the mask's body is too short for a midline (\(slices.count) slices)") }
        let p = degree + 1
        var normal = [Double](repeating: 0, count: p * p), rhs = [Double](repeating: 0, count: p)
        let total = slices.reduce(0) { $0 + $1.weight }
        for slice in slices {
            let w = slice.weight / total, s = (slice.t - middle) / half
            let powers = (0..<p).map { pow(s, Double($0)) }
            for a in 0..<p {
                rhs[a] += w * powers[a] * slice.n
                for b in 0..<p { normal[b * p + a] += w * powers[a] * powers[b] }
            }
        }
        let inverse = try LinearAlgebra.inverseSPD(normal, n: p)
        let beta = (0..<p).map { a in (0..<p).reduce(0) { $0 + inverse[$1 * p + a] * rhs[$1] } }
        var squares = 0.0
        for slice in slices {
            squares += slice.weight / total * square(slice.n - Self.evaluate(beta, slice.t, middle, half).n)
        }
        // Weighted least squares with weights summing to 1 over m slices: unit-weight variance
        // rms^2 * m / (m - p), coefficient covariance that over m times the inverse normal matrix.
        let m = Double(slices.count)
        let scale = slices.count > p ? squares / (m - Double(p)) : 0
        return (beta, inverse.map { $0 * scale }, squares.squareRoot())
    }

    /// The polynomial's second derivative d2n/dt2 at t.
    private static func curvature(_ beta: [Double], _ t: Double, _ middle: Double, _ half: Double) -> Double {
        let s = (t - middle) / half
        var second = 0.0
        for k in stride(from: beta.count - 1, through: 2, by: -1) { second = second * s + Double(k * (k - 1)) * beta[k] }
        return second / (half * half)
    }

    /// The polynomial's value and slope dn/dt at t.
    private static func evaluate(_ beta: [Double], _ t: Double, _ middle: Double, _ half: Double) -> (n: Double, slope: Double) {
        let s = (t - middle) / half
        var n = 0.0, slope = 0.0
        for k in stride(from: beta.count - 1, through: 0, by: -1) {
            n = n * s + beta[k]
            if k > 0 { slope = slope * s + Double(k) * beta[k] }
        }
        return (n, slope / half)
    }

    /// The lateral offset and its slope dn/dt at t.
    func offset(_ t: Double) -> (n: Double, slope: Double) { Self.evaluate(beta, t, middle, half) }

    /// The optical-frame point of the curve at t.
    func point(_ t: Double) -> SIMD3<Double> { planar.centre + t * planar.axis + offset(t).n * planar.lateral }

    /// The curve's unit direction at t (toward the tail).
    func tangent(_ t: Double) -> SIMD3<Double> { normalize(planar.axis + offset(t).slope * planar.lateral) }

    /// Where the curve leaves the body going from `start` by `step` (signed) at a time: half a step past the
    /// last t whose mask pixel is in the body before `run` steps in a row outside it, going at most to `limit`;
    /// nil if no step is inside.
    func exit(from start: Double, step: Double, limit: Double, run: Int) -> Double? {
        var t = start, lastInside: Double?, outside = 0
        while step > 0 ? t <= limit : t >= limit {
            if planar.contains(point(t)) {
                lastInside = t
                outside = 0
            } else if lastInside != nil {
                outside += 1
                if outside >= run { break }
            }
            t += step
        }
        return lastInside.map { $0 + step / 2 }
    }

    /// The t where the curve crosses the line through `p` perpendicular to the curve's direction there
    /// (Newton from `guess`).
    func parameter(meeting p: SIMD3<Double>, near guess: Double) -> Double {
        var t = guess
        for _ in 0..<8 {
            let direction = tangent(t)
            let f = dot(point(t) - p, direction)
            let derivative = dot(planar.axis + offset(t).slope * planar.lateral, direction)
            guard derivative > 1e-6 else { break }
            let step = f / derivative
            t -= step
            if abs(step) < 1e-12 * max(1, abs(t)) { break }
        }
        return t
    }

    /// Arc length from t0 to t1: 8-point Gauss-Legendre on 16 panels.
    func arcLength(from t0: Double, to t1: Double) -> Double {
        integrate(from: t0, to: t1) { t in (1 + square(offset(t).slope)).squareRoot() }
    }

    /// The arc length's variance from the coefficients' covariance: g^T C g with
    /// g_k = integral of slope / sqrt(1 + slope^2) * d(slope)/d(beta_k) dt.
    func arcLengthVariance(from t0: Double, to t1: Double) -> Double {
        let p = beta.count
        let g = (0..<p).map { k -> Double in
            guard k > 0 else { return 0 }
            return integrate(from: t0, to: t1) { t in
                let slope = offset(t).slope, s = (t - middle) / half
                return slope / (1 + slope * slope).squareRoot() * Double(k) * pow(s, Double(k - 1)) / half
            }
        }
        var variance = 0.0
        for a in 0..<p { for b in 0..<p { variance += g[a] * covariance[b * p + a] * g[b] } }
        return max(0, variance)
    }

    /// Visits `count` points at evenly spaced arc lengths from t0 to t1, both included.
    func forEachEvenlySpaced(_ count: Int, from t0: Double, to t1: Double, _ visit: (Int, SIMD3<Double>) -> Void) {
        let steps = 1024
        var cumulative = [0.0]
        cumulative.reserveCapacity(steps + 1)
        for i in 0..<steps {
            let a = t0 + (t1 - t0) * Double(i) / Double(steps), b = t0 + (t1 - t0) * Double(i + 1) / Double(steps)
            cumulative.append(cumulative[i] + length(point(b) - point(a)))
        }
        let total = cumulative[steps]
        var i = 0
        for k in 0..<count {
            let target = count == 1 ? 0 : total * Double(k) / Double(count - 1)
            while i < steps - 1, cumulative[i + 1] < target { i += 1 }
            let span = cumulative[i + 1] - cumulative[i]
            let fraction = span > 0 ? min(1, max(0, (target - cumulative[i]) / span)) : 0
            visit(k, point(t0 + (t1 - t0) * (Double(i) + fraction) / Double(steps)))
        }
    }
}

/// 8-point Gauss-Legendre on 16 equal panels of [t0, t1].
private func integrate(from t0: Double, to t1: Double, _ f: (Double) -> Double) -> Double {
    let nodes = [0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363]
    let weights = [0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763]
    let panels = 16, width = (t1 - t0) / Double(panels)
    var sum = 0.0
    for panel in 0..<panels {
        let centre = t0 + (Double(panel) + 0.5) * width
        for (x, w) in zip(nodes, weights) { sum += w * (f(centre - x * width / 2) + f(centre + x * width / 2)) }
    }
    return sum * width / 2
}
