/// The cell of position `x` (cell widths from the grid's start) on a grid of `count` cells (count >= 1, as every
/// caller's grid has): floor(x) clamped to 0..<count. Any value is taken, NaN and infinities included (NaN gives
/// cell 0), and Int(x) only runs for 1 <= x < count - 1: positions computed from far or degenerate input must not
/// trap in the conversion to Int. One function per type, not one generic: a generic Int(x) converts through
/// `BinaryFloatingPoint`'s bit-by-bit algorithm (exponent, significand), not the one instruction a Float or a
/// Double has, which cost the BVH build a fifth of its time.
@inlinable @inline(__always)
func gridCell(_ x: Float, count: Int) -> Int {
    guard x >= 1 else { return 0 }
    return x < Float(count - 1) ? Int(x) : count - 1
}

/// `gridCell` for Double positions.
@inlinable @inline(__always)
func gridCell(_ x: Double, count: Int) -> Int {
    guard x >= 1 else { return 0 }
    return x < Double(count - 1) ? Int(x) : count - 1
}
