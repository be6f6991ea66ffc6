/// The stack of a BVH traversal: node or leaf codes, each with the distance at which the ray enters its
/// box. Lives in caller-provided memory of `Mesh.stackSize` entries.
@usableFromInline
struct TraversalStack {
    let codes: UnsafeMutablePointer<Int32>
    let entries: UnsafeMutablePointer<Float>
    var top = 0

    @inline(__always)
    init(codes: UnsafeMutablePointer<Int32>, entries: UnsafeMutablePointer<Float>) {
        self.codes = codes
        self.entries = entries
    }

    /// Pops entries until one the ray enters no farther than `limit`, and returns its code; nil when
    /// none is left.
    @inline(__always)
    mutating func popNearer(than limit: Float) -> Int32? {
        while top > 0 {
            top &-= 1
            if entries[top] <= limit { return codes[top] }
        }
        return nil
    }

    /// Pushes the children of `node` that are `met`, from the farthest to the nearest, so the nearest is
    /// on top; equally near ones keep slot order (the later slot on top). Branch-free: every lane is
    /// written, the lanes not met just above the new top (the stack has room for them).
    @inline(__always)
    mutating func push(childrenOf node: UnsafePointer<BVHNode>, near: SIMD4<Float>, met: SIMDMask<SIMD4<Int32>>) {
        // A lane's position above `top` is the number of lanes that go below it: farther ones, or as far
        // and in an earlier slot. Lanes not met count as nearest of all.
        let key = near.replacing(with: -.infinity, where: .!met)
        let slot = SIMD4<Int32>(0, 1, 2, 3)
        // Rotation r compares lane i with lane (i + r) mod 4, which is an earlier slot for i >= 4 - r.
        @inline(__always) func below(_ other: SIMD4<Float>, _ r: Int32) -> SIMD4<Int32> {
            SIMD4<Int32>.zero.replacing(with: 1, where: (other .> key) .| ((other .== key) .& (slot .>= SIMD4(repeating: 4 - r))))
        }
        let rank = below(SIMD4(key.y, key.z, key.w, key.x), 1)
            &+ below(SIMD4(key.z, key.w, key.x, key.y), 2)
            &+ below(SIMD4(key.w, key.x, key.y, key.z), 3)
        let child = node.pointee.child
        codes[top &+ Int(rank.x)] = child.x; entries[top &+ Int(rank.x)] = near.x
        codes[top &+ Int(rank.y)] = child.y; entries[top &+ Int(rank.y)] = near.y
        codes[top &+ Int(rank.z)] = child.z; entries[top &+ Int(rank.z)] = near.z
        codes[top &+ Int(rank.w)] = child.w; entries[top &+ Int(rank.w)] = near.w
        top &+= Int(SIMD4<Int32>.zero.replacing(with: 1, where: met).wrappedSum())
    }
}
