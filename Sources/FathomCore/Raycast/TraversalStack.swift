/// The stack of a BVH traversal: node or leaf codes, each with the distance at which the ray enters its
/// box. Lives in caller-provided memory of `Mesh.stackSize` entries.
@usableFromInline
struct TraversalStack {
    let codes: UnsafeMutablePointer<Int32>
    let entries: UnsafeMutablePointer<Float>
    /// Scratch of the leaf test: room for a borrowed mesh's leaf of triangles gathered through their indices,
    /// and for the barycentrics u, v of the eight lanes of the leaf last tested (`ShearedRay.intersect`).
    let leafScratch: LeafScratch
    var top = 0

    @inline(__always)
    init(codes: UnsafeMutablePointer<Int32>, entries: UnsafeMutablePointer<Float>, leafScratch: LeafScratch) {
        self.codes = codes
        self.entries = entries
        self.leafScratch = leafScratch
    }

    /// Runs `body` with an empty stack of `Mesh.stackSize` entries on the machine stack. The traversal
    /// state lives inside `body` (not captured from outside), so it stays in registers; `body` returns it.
    /// The stack is passed by value for `body` to keep in a local variable: as an inout argument of the
    /// closure (which the compiler does not inline) its top lived in memory, a load and a store per push and pop.
    @inline(__always)
    static func with<Result>(_ body: (TraversalStack) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: Mesh.stackSize) { codes in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: Mesh.stackSize) { entries in
                withUnsafeTemporaryAllocation(of: TriangleLanes.self, capacity: 2) { gathered in
                    withUnsafeTemporaryAllocation(of: Float.self, capacity: 16) { uv in
                        body(TraversalStack(codes: codes.baseAddress.unsafelyUnwrapped, entries: entries.baseAddress.unsafelyUnwrapped,
                                            leafScratch: LeafScratch(gathered: gathered.baseAddress.unsafelyUnwrapped,
                                                                     uv: uv.baseAddress.unsafelyUnwrapped)))
                    }
                }
            }
        }
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

    /// For exactly two children met (`lanes`): pushes the farther (by `near`) and returns the nearer, which
    /// the traversal enters at once; of two equally near, the later slot is entered first, as `push` leaves
    /// it on top. nil, pushing nothing, for any other number.
    @inline(__always)
    mutating func enterNearerOfTwo(childrenOf node: UnsafePointer<BVHNode>, near: SIMD8<Float>, lanes: Int) -> Int32? {
        let rest = lanes & (lanes &- 1)
        guard rest != 0 && rest & (rest &- 1) == 0 else { return nil }
        let first = lanes.trailingZeroBitCount, second = rest.trailingZeroBitCount
        let firstEntry = near[first], secondEntry = near[second]
        let firstCode = BVHNode.child(first, of: node), secondCode = BVHNode.child(second, of: node)
        let secondNearer = secondEntry <= firstEntry
        codes[top] = secondNearer ? firstCode : secondCode
        entries[top] = secondNearer ? firstEntry : secondEntry
        top &+= 1
        return secondNearer ? secondCode : firstCode
    }

    /// Pushes the children of `node` in `lanes` (bit i: lane i), from the farthest to the nearest by their
    /// `near` entry, so the nearest is on top; equally near ones keep slot order (the later slot on top).
    /// An insertion sort among the children (usually two or three).
    @inline(__always)
    mutating func push(childrenOf node: UnsafePointer<BVHNode>, near: SIMD8<Float>, lanes: Int) {
        let bottom = top
        var bits = lanes
        while bits != 0 {
            let lane = bits.trailingZeroBitCount
            bits &= bits &- 1
            let entry = near[lane], code = BVHNode.child(lane, of: node)
            var k = top
            while k > bottom && entries[k &- 1] < entry {
                codes[k] = codes[k &- 1]; entries[k] = entries[k &- 1]
                k &-= 1
            }
            codes[k] = code; entries[k] = entry
            top &+= 1
        }
    }
}

/// Scratch memory of the leaf test, on the machine stack with the traversal stack.
@usableFromInline
struct LeafScratch {
    /// A borrowed mesh's leaf (one or two blocks of four triangles), gathered through their indices.
    @usableFromInline let gathered: UnsafeMutablePointer<TriangleLanes>
    /// u of the eight lanes of the leaf last tested, then v.
    @usableFromInline let uv: UnsafeMutablePointer<Float>

    @inlinable @inline(__always)
    init(gathered: UnsafeMutablePointer<TriangleLanes>, uv: UnsafeMutablePointer<Float>) {
        self.gathered = gathered
        self.uv = uv
    }
}
