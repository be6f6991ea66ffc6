/// An 8-wide BVH node: the bounds of its eight children as SIMD lanes (one vector per bound plane), and
/// the children. 224 bytes.
///
/// Child encoding: >= 0 is an inner node, by its byte offset from the root / 32 (7 per node: the traversal
/// finds it with a shift, not a multiply); < 0 is a leaf, -(1 + (block << 3 | (count - 1))),
/// covering leaf positions 4 block ..< 4 block + count (1...8): every leaf starts a block of four
/// positions (padding fills the rest of its last block), and the leaf test runs a leaf's one or two
/// blocks at once. An unused slot has inverted bounds (min = +inf, max = -inf), which no ray passes,
/// and child 0.
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
    public static var childOffset: Int { 192 }

    /// The code of child `lane` (0..<8) of `node`, loaded on its own: reading `node.pointee.child[lane]` copied all
    /// eight to the stack first.
    @inlinable @inline(__always)
    static func child(_ lane: Int, of node: UnsafePointer<BVHNode>) -> Int32 {
        UnsafeRawPointer(node).load(fromByteOffset: childOffset &+ 4 &* lane, as: Int32.self)
    }

    /// The code of the node at `index` (a node is 7 x 32 bytes; for 2^28 triangles, at most as many
    /// nodes, the code stays below 2^31).
    static func code(ofNode index: Int) -> Int32 { Int32(7 * index) }

    /// The node of a code >= 0 in the array starting at `root`.
    @inlinable @inline(__always)
    static func node(_ code: Int32, from root: UnsafePointer<BVHNode>) -> UnsafePointer<BVHNode> {
        (UnsafeRawPointer(root) + (Int(code) &<< 5)).assumingMemoryBound(to: BVHNode.self)
    }

    @inlinable static func leafCode(block: Int, count: Int) -> Int32 { -Int32(1 + (block << 3 | (count - 1))) }

    /// The leaf positions of a leaf's code (the first one a multiple of 4).
    @inlinable static func leafRange(_ code: Int32) -> Range<Int> {
        let v = Int(-(code + 1))
        let first = (v >> 3) << 2
        return first..<(first + (v & 7) + 1)
    }
}
