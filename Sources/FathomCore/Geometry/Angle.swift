/// atan2(y, x) in radians, in [-pi, pi], within 4e-7 rad of the exact value (under two float ulps of pi): the ratio of the smaller to the
/// larger magnitude (in [0, 1]) is reduced to [-tan(pi/8), tan(pi/8)] by a pi/4 turn, where an odd polynomial
/// t + t^3 P(t^2) (our least-squares fit; 4e-8 rad in float) takes over; then octant and quadrant symmetries.
/// The per-view and per-pose loops of capture guidance call it instead of glibc's atan2f, which costs several
/// times more. atan2(0, 0) is 0.
@inlinable @inline(__always)
public func fastAtan2(_ y: Float, _ x: Float) -> Float {
    let ax = abs(x), ay = abs(y)
    let big = Swift.max(ax, ay), small = Swift.min(ax, ay)
    guard big > 0 else { return 0 }
    var t = small / big
    var turn: Float = 0
    if t > 0.414_213_56 {
        t = (t - 1) / (t + 1)
        turn = .pi / 4
    }
    let z = t * t
    let p = -0.333_330_24 + z * (0.199_808_68 + z * (-0.139_140_38 + z * 0.081_772_47))
    var angle = turn + (t + t * z * Float(p))
    if ay > ax { angle = .pi / 2 - angle }
    if x < 0 { angle = .pi - angle }
    return y < 0 ? -angle : angle
}
