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
    /// of them); the area-weighted centres of the slices are fitted by weighted least squares with a
    /// polynomial of degree up to 4 in the position along the axis (a C or an S bend; the midline must stay a
    /// function along the axis, each end within about 60 degrees of it). Each end is the outline point
    /// furthest along the curve's direction there, half a mask pixel outward, and the curve runs to where it
    /// meets that end. The error bar adds to the ends' and the plane's terms the first-order effect of the
    /// polynomial's coefficient covariance on the arc length.
    public func measureMidline(mask: Mask, options: LengthOptions) throws(FathomError) -> MidlineLength {
        try options.validate()
        try require(options.frame)
        let body = try mask.body(gap: options.bodyGap)
        let planar = try PlanarBody(self, body: body, plane: BodyPlane(self, body: body, options: options))
        let e = planar.axis
        let trim = options.trimCount(planar.outline.count)
        let straightHead = planar.along(planar.end(along: -e, among: planar.outline, trim: trim, edgeNoise: 0, reach: 0, options: options).point)
        let straightTail = planar.along(planar.end(along: e, among: planar.outline, trim: trim, edgeNoise: 0, reach: 0, options: options).point)
        let span = straightTail - straightHead
        guard span > 0 else { throw FathomError(.degenerate, "the mask's body has no extent along its axis") }
        let curve = try MidlineCurve(planar, from: straightHead, to: straightTail)
        let reach = planar.endReach

        // Each end: the outline point furthest along the curve's direction there, among the outline's last quarter.
        let headCandidates = planar.outline.filter { planar.along($0.point) <= straightHead + 0.25 * span }
        let tailCandidates = planar.outline.filter { planar.along($0.point) >= straightTail - 0.25 * span }
        var tHead = straightHead, tTail = straightTail
        var head = planar.end(along: -e, among: headCandidates, trim: trim, edgeNoise: options.edgeNoise, reach: reach, options: options)
        var tail = planar.end(along: e, among: tailCandidates, trim: trim, edgeNoise: options.edgeNoise, reach: reach, options: options)
        for _ in 0..<3 {
            head = planar.end(along: -curve.tangent(tHead), among: headCandidates, trim: trim, edgeNoise: options.edgeNoise, reach: reach, options: options)
            tail = planar.end(along: curve.tangent(tTail), among: tailCandidates, trim: trim, edgeNoise: options.edgeNoise, reach: reach, options: options)
            tHead = curve.parameter(meeting: head.point, near: tHead)
            tTail = curve.parameter(meeting: tail.point, near: tTail)
        }
        guard tTail > tHead else { throw FathomError(.degenerate, "the midline's ends cross") }
        let arc = curve.arcLength(from: tHead, to: tTail)
        let headPoint = curve.point(tHead), tailPoint = curve.point(tTail)
        let chord = length(tailPoint - headPoint)
        var variance = head.variance + tail.variance + curve.arcLengthVariance(from: tHead, to: tTail)
        if chord > 0 {
            let planeVariance = planar.plane.lengthVariance(e: (tailPoint - headPoint) / chord, head: (head.point, head.shift),
                                                            tail: (tail.point, tail.shift))
            variance += planeVariance * square(arc / chord)  // the plane's errors scale the whole curve
        }
        let result = ObjectLength(length: arc, sigma: variance.squareRoot(),
                                  head: convert(headPoint, to: options.frame), tail: convert(tailPoint, to: options.frame),
                                  headPixel: rgbPixel(headPoint), tailPixel: rgbPixel(tailPoint), rms: curve.rms,
                                  samples: planar.plane.fit.used)
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
        let slices = min(64, max(8, Int((end - start) / max(2 * pixelSize, 1e-9 * (end - start)))))
        var weight = [Double](repeating: 0, count: slices), sumT = weight, sumN = weight
        let middle = self.middle, half = self.half
        planar.forEachPixel { p, w in
            let t = planar.along(p)
            let k = min(slices - 1, max(0, Int(((t - middle) / half + 1) / 2 * Double(slices))))
            weight[k] += w
            sumT[k] += w * t
            sumN[k] += w * dot(p - planar.centre, planar.lateral)
        }
        let used = weight.indices.filter { weight[$0] > 0 }
        let degree = min(4, used.count - 2)
        guard degree >= 1 else { throw FathomError(.degenerate, "the mask's body is too short for a midline (\(used.count) slices)") }
        let p = degree + 1
        var normal = [Double](repeating: 0, count: p * p), rhs = [Double](repeating: 0, count: p)
        let total = used.reduce(0) { $0 + weight[$1] }
        for k in used {
            let w = weight[k] / total, s = (sumT[k] / weight[k] - middle) / half, n = sumN[k] / weight[k]
            let powers = (0..<p).map { pow(s, Double($0)) }
            for a in 0..<p {
                rhs[a] += w * powers[a] * n
                for b in 0..<p { normal[b * p + a] += w * powers[a] * powers[b] }
            }
        }
        let inverse = try LinearAlgebra.inverseSPD(normal, n: p)
        beta = (0..<p).map { a in (0..<p).reduce(0) { $0 + inverse[$1 * p + a] * rhs[$1] } }
        var squares = 0.0
        for k in used {
            let s = (sumT[k] / weight[k] - middle) / half
            squares += weight[k] / total * square(sumN[k] / weight[k] - Self.value(beta, s))
        }
        rms = squares.squareRoot()
        // Weighted least squares with weights summing to 1 over m slices: unit-weight variance
        // rms^2 * m / (m - p), coefficient covariance that over m times the inverse normal matrix.
        let m = Double(used.count)
        let scale = used.count > p ? squares / (m - Double(p)) : 0
        covariance = inverse.map { $0 * scale }
    }

    private static func value(_ beta: [Double], _ s: Double) -> Double {
        beta.reversed().reduce(0) { $0 * s + $1 }
    }

    /// The lateral offset and its slope dn/dt at t.
    func offset(_ t: Double) -> (n: Double, slope: Double) {
        let s = (t - middle) / half
        var n = 0.0, slope = 0.0
        for k in stride(from: beta.count - 1, through: 0, by: -1) {
            n = n * s + beta[k]
            if k > 0 { slope = slope * s + Double(k) * beta[k] }
        }
        return (n, slope / half)
    }

    /// The optical-frame point of the curve at t.
    func point(_ t: Double) -> SIMD3<Double> { planar.centre + t * planar.axis + offset(t).n * planar.lateral }

    /// The curve's unit direction at t (toward the tail).
    func tangent(_ t: Double) -> SIMD3<Double> { normalize(planar.axis + offset(t).slope * planar.lateral) }

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
