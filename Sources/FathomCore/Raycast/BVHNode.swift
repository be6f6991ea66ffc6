/// A 4-wide BVH node: the bounds of its four children as SIMD lanes (one vector per bound plane), and
/// the children. 112 bytes.
///
/// Child encoding: >= 0 is an inner node's index; < 0 is a leaf, -(1 + (first << 3 | (count - 1))),
/// covering leaf triangles first..<first + count (1...8). An unused slot has inverted bounds
/// (min = +inf, max = -inf), which no ray passes, and child 0.
@frozen
public struct BVHNode: Sendable {
    public var minX: SIMD4<Float>, minY: SIMD4<Float>, minZ: SIMD4<Float>
    public var maxX: SIMD4<Float>, maxY: SIMD4<Float>, maxZ: SIMD4<Float>
    public var child: SIMD4<Int32>

    static let empty = BVHNode(
        minX: SIMD4(repeating: .infinity), minY: SIMD4(repeating: .infinity), minZ: SIMD4(repeating: .infinity),
        maxX: SIMD4(repeating: -.infinity), maxY: SIMD4(repeating: -.infinity), maxZ: SIMD4(repeating: -.infinity),
        child: .zero)

    /// Byte offsets of the bound planes (stored fields are laid out in declaration order, 16 bytes each).
    static var minXOffset: Int { 0 }
    static var minYOffset: Int { 16 }
    static var minZOffset: Int { 32 }
    static var maxXOffset: Int { 48 }
    static var maxYOffset: Int { 64 }
    static var maxZOffset: Int { 80 }

    @inlinable static func leafCode(first: Int, count: Int) -> Int32 { -Int32(1 + (first << 3 | (count - 1))) }

    @inlinable static func leafRange(_ code: Int32) -> Range<Int> {
        let v = Int(-(code + 1))
        return (v >> 3)..<((v >> 3) + (v & 7) + 1)
    }
}
