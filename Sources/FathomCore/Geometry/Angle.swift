/// atan2(y, x) in radians, in [-pi, pi], within 4e-7 rad of the exact value (under two float ulps of pi): the ratio of the smaller to the
/// larger magnitude s / b (in [0, 1]) is reduced to [-tan(pi/8), tan(pi/8)] by a pi/4 turn, (s - b) / (s + b) past
/// tan(pi/8) (one division either way), where an odd polynomial t + t^3 P(t^2) (our least-squares fit; 4e-8 rad in
/// float) takes over; then octant and quadrant symmetries.
/// The per-view and per-pose loops of capture guidance call it instead of glibc's atan2f, which costs several
/// times more. atan2(0, 0) is 0.
@inlinable @inline(__always)
public func fastAtan2(_ y: Float, _ x: Float) -> Float {
    let ax = abs(x), ay = abs(y)
    let big = Swift.max(ax, ay), small = Swift.min(ax, ay)
    guard big > 0 else { return 0 }
    let turned = small > 0.414_213_56 * big
    let t = (turned ? small - big : small) / (turned ? small + big : big)
    let turn: Float = turned ? .pi / 4 : 0
    let z = t * t
    let p = -0.333_330_24 + z * (0.199_808_68 + z * (-0.139_140_38 + z * 0.081_772_47))
    var angle = turn + (t + t * z * Float(p))
    if ay > ax { angle = .pi / 2 - angle }
    if x < 0 { angle = .pi - angle }
    return y < 0 ? -angle : angle
}

/// `fastAtan2` on eight lanes: every lane runs the scalar function's operations (both sides of its branches, then
/// the side it takes), so each result is bit-identical to the scalar one. Transparent: inlined even into callers past
/// the optimizer's size limit for @inline(__always), such as the coverage batch's finishing pass.
@_transparent
public func fastAtan2(_ y: SIMD8<Float>, _ x: SIMD8<Float>) -> SIMD8<Float> {
    let magnitude = SIMD8<UInt32>(repeating: 0x7fff_ffff)
    let ax = unsafeBitCast(unsafeBitCast(x, to: SIMD8<UInt32>.self) & magnitude, to: SIMD8<Float>.self)
    let ay = unsafeBitCast(unsafeBitCast(y, to: SIMD8<UInt32>.self) & magnitude, to: SIMD8<Float>.self)
    // Blends through `lanesReplacing` (the standard library's replacing(with:where:) compiled to a branch per lane
    // here), and comparisons of explicitly typed vectors (one with an untyped SIMD8(repeating: literal) can pick a
    // generic implementation that loops over the lanes).
    let yBigger = ax .< ay
    let big = ax.lanesReplacing(with: ay, where: yBigger), small = ay.lanesReplacing(with: ax, where: yBigger)
    let zero = SIMD8<Float>.zero
    let turned = SIMD8<Float>(repeating: 0.414_213_56) * big .< small
    let t = small.lanesReplacing(with: small - big, where: turned) / big.lanesReplacing(with: small + big, where: turned)
    let turn = zero.lanesReplacing(with: SIMD8(repeating: .pi / 4), where: turned)
    let z = t * t
    let p = SIMD8(repeating: -0.333_330_24) + z * (SIMD8(repeating: 0.199_808_68)
        + z * (SIMD8(repeating: -0.139_140_38) + z * SIMD8(repeating: 0.081_772_47)))
    let octant = turn + (t + t * z * p)
    let quadrant = octant.lanesReplacing(with: SIMD8(repeating: .pi / 2) - octant, where: yBigger)
    let half = quadrant.lanesReplacing(with: SIMD8(repeating: .pi) - quadrant, where: x .< zero)
    let angle = half.lanesReplacing(with: -half, where: y .< zero)
    return angle.lanesReplacing(with: zero, where: .!(zero .< big))
}
