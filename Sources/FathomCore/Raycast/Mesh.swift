/// An immutable triangle mesh with an 8-wide BVH. Safe to query from many threads at once.
///
/// Storage, by leaf position (the BVH's order; each leaf starts at a multiple of 4 and padding fills its
/// last block of four with copies of its last triangle): a copied mesh keeps its triangles' vertices in
/// blocks of four in SIMD lanes, as the leaf test reads them; a borrowed or compact one keeps each position's
/// three vertex indices into a vertex buffer (the caller's, or the mesh's one packed copy). All keep each
/// position's triangle index in the caller's order, and the BVH nodes. Classes stay in the caller's triangle
/// order. For export (Mesh+Export.swift) every mesh also keeps the input indices and, when copied, the input
/// vertices, in the caller's order.
public final class Mesh: @unchecked Sendable {
    /// How a mesh keeps its triangles' vertices.
    public enum Storage: Sendable {
        /// Copied into the leaves, four triangles' vertices in SIMD lanes (36 bytes per leaf position), beside a
        /// packed copy for export: the fastest leaf test.
        case copy
        /// Read in place from the caller's buffer through three vertex indices per leaf position; the buffer must
        /// stay unchanged while the mesh lives.
        case borrow
        /// Copied once, packed (12 bytes per vertex), and read through three vertex indices per leaf position, as
        /// a borrowed buffer is: the least memory (no second copy), a slower leaf test (the vertices gathered).
        case compact
    }

    public let vertexCount: Int
    public let triangleCount: Int
    public let storage: Storage
    /// A copied mesh's triangles: block b holds leaf positions 4b..<4b+4 in its lanes; nil otherwise.
    @usableFromInline let blocks: UnsafeMutableBufferPointer<TriangleLanes>?
    /// A borrowed or compact mesh's vertices, float32 xyz of vertex i at vertexBase + i * vertexStride, and per
    /// leaf position its vertex indices at 3k, 3k+1, 3k+2 (empty for a copied mesh).
    @usableFromInline let vertexBase: UnsafePointer<Float>
    @usableFromInline let vertexStride: Int
    @usableFromInline let leafIndices: UnsafeMutableBufferPointer<UInt32>
    /// A compact mesh's packed copy of the vertices, which vertexBase points into (empty otherwise).
    private let compactVertices: UnsafeMutableBufferPointer<Float>
    /// Keeps a borrowed buffer's owner alive (for Swift callers); nil for C callers, who promise it.
    private let borrowedOwner: AnyObject?
    /// The BVH nodes (root at 0; none for an empty mesh).
    @usableFromInline let nodes: UnsafeMutableBufferPointer<BVHNode>
    /// Leaf position k: the triangle's index in the caller's order (`Mesh.padding` for padding).
    @usableFromInline let leafTriangle: UnsafeMutableBufferPointer<UInt32>
    @usableFromInline let classes: [UInt8]?
    /// The caller's vertices, packed xyz in the caller's order, for export (`vertices`, `data`): a copy for a
    /// copied mesh (12 bytes per vertex, not counted in `memoryBytes`); empty otherwise, where export reads the
    /// vertex buffer the leaves index.
    let sourceVertices: [Float]
    /// The caller's indices as given (3 per triangle, degenerate triangles as they were), for export: a copy
    /// (12 bytes per triangle, not counted in `memoryBytes`).
    let sourceIndices: [UInt32]
    public let bvhDepth: Int
    public let boundsMin: SIMD3<Float>
    public let boundsMax: SIMD3<Float>
    /// Where the triangles lie, coarsely: the batch ray order's predictor (256 KiB), for a mesh large enough that its
    /// batches are ordered (`orderingMinimumBytes`), else nil.
    private(set) var occupancy: OccupancyGrid?

    /// `leafTriangle` of a padding position.
    @usableFromInline static let padding = UInt32.max

    /// Children per BVH node.
    public static let bvhWidth = BVHNode.width

    /// Makes a mesh. `vertices` is (pointer, count, byte stride) of float32 xyz; `indices` holds 3 per
    /// triangle, each < vertexCount; `classes` one per triangle (<= 7) or nil. With `.borrow`, the vertex
    /// buffer is used in place and must outlive the mesh (`owner`, if given, is retained for that).
    ///
    /// Besides the BVH, the mesh keeps the input for export (`vertices`, `indices`, `data`): a copy of the
    /// indices (12 bytes per triangle) and, when copied, of the vertices (12 bytes per vertex), which
    /// `memoryBytes` does not count (`exportBytes` does).
    public convenience init(vertices: PointBuffer?, indices: UnsafeBufferPointer<UInt32>, classes: UnsafeBufferPointer<UInt8>?,
                            storage: Storage, owner: AnyObject? = nil) throws(FathomError) {
        try self.init(vertices: vertices, indices: indices, classes: classes, storage: storage, owner: owner, source: nil)
    }

    /// `source`: the same vertices (packed) and indices as arrays, kept instead of copies (`make(from:)`).
    init(vertices: PointBuffer?, indices: UnsafeBufferPointer<UInt32>, classes: UnsafeBufferPointer<UInt8>?,
         storage: Storage, owner: AnyObject?, source: (vertices: [Float], indices: [UInt32])?) throws(FathomError) {
        guard indices.count % 3 == 0 else { throw FathomError(.outOfRange, "indices must hold 3 per triangle, got \(indices.count)") }
        let triangles = indices.count / 3
        let vertexCount = vertices?.count ?? 0
        if triangles > 0 && vertexCount == 0 { throw FathomError(.outOfRange, "a mesh with triangles needs vertices") }
        guard triangles < (1 << 28) else { throw FathomError(.outOfRange, "at most 2^28 triangles, got \(triangles)") }
        if let classes, classes.count != triangles {
            throw FathomError(.outOfRange, "classes must hold one per triangle (\(triangles)), got \(classes.count)")
        }
        // A compact mesh numbers its vertices anew in 32 bits, as the leaves index them.
        if storage == .compact && vertexCount > 1 << 32 {
            throw FathomError(.outOfRange, "a compact mesh holds at most 2^32 vertices, got \(vertexCount)")
        }
        for (i, index) in indices.enumerated() where Int(index) >= vertexCount {
            throw FathomError(.outOfRange, "triangle \(i / 3) has vertex index \(index), but there are \(vertexCount) vertices")
        }
        if let classes {
            for (i, c) in classes.enumerated() where c > 7 {
                throw FathomError(.outOfRange, "classes[\(i)] = \(c) is not a mesh class (0...7)")
            }
        }
        if let vertices { try vertices.requireFinite("vertices") }

        self.vertexCount = vertexCount
        triangleCount = triangles
        self.storage = storage

        // Bounds of each triangle, then the BVH, on the caller's vertices.
        let base = vertices?.base ?? UnsafePointer(Mesh.noVertices), stride = vertices?.floatStride ?? 3
        func vertex(_ i: UInt32) -> SIMD3<Float> {
            let p = base + Int(i) * stride
            return SIMD3(p[0], p[1], p[2])
        }
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        for i in 0..<vertexCount {
            let p = base + i * stride
            let v = SIMD3(p[0], p[1], p[2])
            lo = lanesMin(lo, v); hi = lanesMax(hi, v)
        }
        boundsMin = vertexCount > 0 ? lo : .zero
        boundsMax = vertexCount > 0 ? hi : .zero
        let builder = BVHBuilder(count: triangles) { t in
            let a = vertex(indices[3 * t]), b = vertex(indices[3 * t + 1]), c = vertex(indices[3 * t + 2])
            return (lanesMin(a, lanesMin(b, c)), lanesMax(a, lanesMax(b, c)))
        }
        nodes = MeshAllocation.allocate(BVHNode.self, capacity: builder.nodes.count)
        _ = nodes.initialize(from: builder.nodes)
        bvhDepth = builder.depth
        // Per leaf position its triangle: vertices into a copied mesh's blocks (each block assembled, then stored
        // once), or vertex indices for the others; each triangle's vertices read once (in leaf order, so
        // scattered in the vertex buffer). A padding position repeats the one before it (a leaf starts a block).
        let positions = builder.order.count
        leafTriangle = MeshAllocation.allocate(UInt32.self, capacity: positions)
        let copies = storage == .copy ? MeshAllocation.allocate(TriangleLanes.self, capacity: positions / 4) : nil
        leafIndices = storage == .copy ? UnsafeMutableBufferPointer(start: nil, count: 0) : MeshAllocation.allocate(UInt32.self, capacity: 3 * positions)
        let zero = SIMD4<Float>.zero
        var block = TriangleLanes(ax: zero, ay: zero, az: zero, bx: zero, by: zero, bz: zero, cx: zero, cy: zero, cz: zero)
        var corners = (UInt32(0), UInt32(0), UInt32(0)), triangle = (SIMD3<Float>.zero, SIMD3<Float>.zero, SIMD3<Float>.zero)
        for (k, t) in builder.order.enumerated() {
            if t >= 0 {
                leafTriangle[k] = UInt32(t)
                let i0 = indices[3 * t], i1 = indices[3 * t + 1], i2 = indices[3 * t + 2]
                let a = vertex(i0), b = vertex(i1), c = vertex(i2)
                // A zero-area triangle is never hit: store it as its first vertex three times, which the
                // watertight test always rejects (all edge functions 0). Rounding in the shear could otherwise
                // let a ray through an exactly collinear triangle.
                let degenerate = isZeroArea(a, b, c)
                corners = (i0, degenerate ? i0 : i1, degenerate ? i0 : i2)
                triangle = (a, degenerate ? a : b, degenerate ? a : c)
            } else {
                leafTriangle[k] = Mesh.padding
            }
            if let copies {
                block.set(lane: k & 3, triangle.0, triangle.1, triangle.2)
                if k & 3 == 3 { (copies.baseAddress.unsafelyUnwrapped + (k >> 2)).initialize(to: block) }
            } else {
                leafIndices[3 * k] = corners.0; leafIndices[3 * k + 1] = corners.1; leafIndices[3 * k + 2] = corners.2
            }
        }
        blocks = copies
        // A compact mesh's vertices, copied in the order the leaves first use them, and its leaves' indices renumbered.
        if storage == .compact {
            let order = Mesh.leafVertexOrder(vertexCount: vertexCount, positions: positions, indices: indices) { k in
                builder.order[k] >= 0 ? builder.order[k] : nil
            }
            compactVertices = MeshAllocation.allocate(Float.self, capacity: 3 * vertexCount)
            for i in 0..<vertexCount {
                let p = base + i * stride, q = 3 * Int(truncatingIfNeeded: order[i])
                compactVertices[q] = p[0]; compactVertices[q + 1] = p[1]; compactVertices[q + 2] = p[2]
            }
            for j in leafIndices.indices { leafIndices[j] = order[Int(truncatingIfNeeded: leafIndices[j])] }
        } else {
            compactVertices = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
        switch storage {
        case .copy: vertexBase = UnsafePointer(Mesh.noVertices); vertexStride = 3
        case .borrow: vertexBase = base; vertexStride = stride
        case .compact:
            vertexBase = vertexCount > 0 ? UnsafePointer(compactVertices.baseAddress.unsafelyUnwrapped) : UnsafePointer(Mesh.noVertices)
            vertexStride = 3
        }
        borrowedOwner = storage == .borrow ? owner : nil
        self.classes = classes.map(Array.init)
        if let source {
            sourceVertices = storage == .copy ? source.vertices : []
            sourceIndices = source.indices
        } else {
            sourceIndices = Array(indices)
            sourceVertices = storage == .copy ? [Float](unsafeUninitializedCapacity: 3 * vertexCount) { out, initialized in
                for i in 0..<vertexCount {
                    let p = base + i * stride
                    out[3 * i] = p[0]; out[3 * i + 1] = p[1]; out[3 * i + 2] = p[2]
                }
                initialized = 3 * vertexCount
            } : []
        }
        if memoryBytes >= Mesh.orderingMinimumBytes {
            occupancy = OccupancyGrid(lo: boundsMin, hi: boundsMax, count: triangles) { t in
                (vertex(indices[3 * t]), vertex(indices[3 * t + 1]), vertex(indices[3 * t + 2]))
            }
        }
    }

    deinit {
        blocks.map(MeshAllocation.deallocate)
        MeshAllocation.deallocate(compactVertices)
        MeshAllocation.deallocate(leafIndices)
        MeshAllocation.deallocate(nodes)
        MeshAllocation.deallocate(leafTriangle)
    }

    /// Where an empty mesh's vertex pointer points (never read).
    nonisolated(unsafe) private static let noVertices = UnsafeMutablePointer<Float>.allocate(capacity: 3)

    /// The vertices of leaf position k.
    @inlinable @inline(__always)
    func leafTriangleVertices(_ k: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        if let blocks { return blocks[k >> 2].triangle(lane: k & 3) }
        @inline(__always) func vertex(_ i: UInt32) -> SIMD3<Float> {
            let p = vertexBase + Int(i) &* vertexStride
            return SIMD3(p[0], p[1], p[2])
        }
        return (vertex(leafIndices[3 &* k]), vertex(leafIndices[3 &* k &+ 1]), vertex(leafIndices[3 &* k &+ 2]))
    }

    /// Bytes of the BVH: nodes, and per leaf position its triangle index and its vertices (copied) or
    /// vertex indices (borrowed, compact).
    public var bvhBytes: Int {
        nodes.count * MemoryLayout<BVHNode>.stride + leafTriangle.count * 4
            + (blocks?.count ?? 0) * MemoryLayout<TriangleLanes>.stride + leafIndices.count * 4
    }

    /// Bytes held by the mesh: the BVH (which holds a copied mesh's vertices), a compact mesh's vertices, the classes
    /// and the occupancy grid.
    public var memoryBytes: Int {
        bvhBytes + compactVertices.count * 4 + (classes?.count ?? 0) + (occupancy == nil ? 0 : OccupancyGrid.bytes)
    }

    public var bvhNodeCount: Int { nodes.count }

    /// Leaf positions: the triangles and the padding that lets every leaf start a block of four.
    public var leafPositionCount: Int { leafTriangle.count }

    /// Per-triangle unit normals (zero for degenerate triangles) and areas, in the caller's order.
    public func faceGeometry() -> (normals: [SIMD3<Float>], areas: [Float]) {
        var normals = [SIMD3<Float>](repeating: .zero, count: triangleCount)
        var areas = [Float](repeating: 0, count: triangleCount)
        for k in 0..<leafTriangle.count where leafTriangle[k] != Mesh.padding {
            let (a, b, c) = leafTriangleVertices(k)
            let n = cross(SIMD3<Double>(b) - SIMD3<Double>(a), SIMD3<Double>(c) - SIMD3<Double>(a))
            let l = length(n)
            let t = Int(leafTriangle[k])
            areas[t] = Float(l / 2)
            normals[t] = l > 0 ? SIMD3<Float>(n / l) : .zero
        }
        return (normals, areas)
    }

    /// Sum of triangle areas, square meters (accumulated in Double).
    public var surfaceArea: Double {
        var sum = 0.0
        for k in 0..<leafTriangle.count where leafTriangle[k] != Mesh.padding {
            let (a, b, c) = leafTriangleVertices(k)
            sum += length(cross(SIMD3<Double>(b) - SIMD3<Double>(a), SIMD3<Double>(c) - SIMD3<Double>(a))) / 2
        }
        return sum
    }

    /// A mesh from loaded file data (`.copy` or `.compact`; `.borrow` is taken as `.copy`, as `data` is not kept).
    public static func make(from data: MeshData, storage: Storage = .copy) throws(FathomError) -> Mesh {
        let storage = storage == .borrow ? .copy : storage
        let vertexCount = data.vertices.count / 3
        return try data.vertices.withUnsafeBufferPointer { (v: UnsafeBufferPointer<Float>) throws(FathomError) -> Mesh in
            try data.indices.withUnsafeBufferPointer { (i: UnsafeBufferPointer<UInt32>) throws(FathomError) -> Mesh in
                let points = try v.baseAddress.flatMap { base throws(FathomError) in
                    vertexCount > 0 ? try PointBuffer(base: base, count: vertexCount, strideBytes: 12) : nil
                }
                // The arrays are shared with `data` (copy on write), not copied.
                let kept = data.vertices.count == 3 * vertexCount ? data.vertices : Array(data.vertices.prefix(3 * vertexCount))
                let source = (vertices: kept, indices: data.indices)
                guard let classes = data.classes else {
                    return try Mesh(vertices: points, indices: i, classes: nil, storage: storage, owner: nil, source: source)
                }
                return try classes.withUnsafeBufferPointer { (c: UnsafeBufferPointer<UInt8>) throws(FathomError) -> Mesh in
                    try Mesh(vertices: points, indices: i, classes: c, storage: storage, owner: nil, source: source)
                }
            }
        }
    }
}
