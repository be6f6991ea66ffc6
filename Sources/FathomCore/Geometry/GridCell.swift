/// The cell of position `x` (cell widths from the grid's start) on a grid of `count` cells: floor(x) clamped to
/// 0..<count. Any Float is taken, NaN and infinities included (NaN gives cell 0): positions computed from far or
/// degenerate input must not trap in the conversion to Int.
@inlinable
func gridCell(_ x: Float, count: Int) -> Int {
    guard x >= 1 else { return 0 }
    return x < Float(count - 1) ? Int(x) : count - 1
}
