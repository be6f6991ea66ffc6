/// An 8-wide BVH node: the bounds of its eight children as SIMD lanes (one vector per bound plane), and
/// the children. 224 bytes.
///
/// Child encoding: >= 0 is an inner node's index; < 0 is a leaf, -(1 + (first << 3 | (count - 1))),
/// covering leaf triangles first..<first + count (1...8). An unused slot has inverted bounds
/// (min = +inf, max = -inf), which no ray passes, and child 0.
@frozen
public struct BVHNode: Sendable {
    public var minX: SIMD8<Float>, minY: SIMD8<Float>, minZ: SIMD8<Float>
    public var maxX: SIMD8<Float>, maxY: SIMD8<Float>, maxZ: SIMD8<Float>
    public var child: SIMD8<Int32>

    /// Children per node.
    public static let width = 8

    static let empty = BVHNode(
        minX: SIMD8(repeating: .infinity), minY: SIMD8(repeating: .infinity), minZ: SIMD8(repeating: .infinity),
        maxX: SIMD8(repeating: -.infinity), maxY: SIMD8(repeating: -.infinity), maxZ: SIMD8(repeating: -.infinity),
        child: .zero)

    /// Byte offsets of the bound planes (stored fields are laid out in declaration order, 32 bytes each;
    /// a test checks them against MemoryLayout).
    public static var minXOffset: Int { 0 }
    public static var minYOffset: Int { 32 }
    public static var minZOffset: Int { 64 }
    public static var maxXOffset: Int { 96 }
    public static var maxYOffset: Int { 128 }
    public static var maxZOffset: Int { 160 }

    @inlinable static func leafCode(first: Int, count: Int) -> Int32 { -Int32(1 + (first << 3 | (count - 1))) }

    @inlinable static func leafRange(_ code: Int32) -> Range<Int> {
        let v = Int(-(code + 1))
        return (v >> 3)..<((v >> 3) + (v & 7) + 1)
    }
}
