/// The cell of position `x` (cell widths from the grid's start) on a grid of `count` cells (count >= 1, as every
/// caller's grid has): floor(x) clamped to 0..<count. Any value is taken, NaN and infinities included (NaN gives
/// cell 0), and Int(x) only runs for 1 <= x < count - 1: positions computed from far or degenerate input must not
/// trap in the conversion to Int.
@inlinable
func gridCell<T: BinaryFloatingPoint>(_ x: T, count: Int) -> Int {
    guard x >= 1 else { return 0 }
    return x < T(count - 1) ? Int(x) : count - 1
}
