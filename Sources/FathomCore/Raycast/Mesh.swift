/// An immutable triangle mesh with an 8-wide BVH. Safe to query from many threads at once.
///
/// Storage: the vertices (the caller's buffer when borrowed, else a packed copy in the order the leaves
/// use them), the BVH nodes, and per leaf position the triangle's three vertex indices and its original
/// index, so leaves read their triangles in BVH order. Classes stay in the caller's triangle order.
public final class Mesh: @unchecked Sendable {
    public let vertexCount: Int
    public let triangleCount: Int
    /// float32 xyz of vertex i at vertexBase + i * vertexStride.
    @usableFromInline let vertexBase: UnsafePointer<Float>
    @usableFromInline let vertexStride: Int
    private let ownedVertices: UnsafeMutablePointer<Float>?
    /// Keeps a borrowed buffer's owner alive (for Swift callers); nil for C callers, who promise it.
    private let borrowedOwner: AnyObject?
    /// The BVH nodes (root at 0; none for an empty mesh).
    @usableFromInline let nodes: UnsafeMutableBufferPointer<BVHNode>
    /// Leaf position k: vertex indices at 3k, 3k+1, 3k+2.
    @usableFromInline let leafIndices: UnsafeMutableBufferPointer<UInt32>
    /// Leaf position k: the triangle's index in the caller's order.
    @usableFromInline let leafTriangle: UnsafeMutableBufferPointer<UInt32>
    @usableFromInline let classes: [UInt8]?
    public let bvhDepth: Int
    public let boundsMin: SIMD3<Float>
    public let boundsMax: SIMD3<Float>

    /// Children per BVH node.
    public static let bvhWidth = BVHNode.width

    /// Makes a mesh. `vertices` is (pointer, count, byte stride) of float32 xyz; `indices` holds 3 per
    /// triangle, each < vertexCount; `classes` one per triangle (<= 7) or nil. With `borrow`, the vertex
    /// buffer is used in place and must outlive the mesh (`owner`, if given, is retained for that).
    public init(vertices: PointBuffer?, indices: UnsafeBufferPointer<UInt32>, classes: UnsafeBufferPointer<UInt8>?,
                borrow: Bool, owner: AnyObject? = nil) throws(FathomError) {
        guard indices.count % 3 == 0 else { throw FathomError(.outOfRange, "indices must hold 3 per triangle, got \(indices.count)") }
        let triangles = indices.count / 3
        let vertexCount = vertices?.count ?? 0
        if triangles > 0 && vertexCount == 0 { throw FathomError(.outOfRange, "a mesh with triangles needs vertices") }
        guard triangles < (1 << 28) else { throw FathomError(.outOfRange, "at most 2^28 triangles, got \(triangles)") }
        if let classes, classes.count != triangles {
            throw FathomError(.outOfRange, "classes must hold one per triangle (\(triangles)), got \(classes.count)")
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

        // Bounds of each triangle, then the BVH, on the caller's vertices.
        let base = vertices?.base ?? UnsafePointer(Mesh.noVertices), stride = vertices?.floatStride ?? 3
        func vertex(_ i: UInt32) -> SIMD3<Float> {
            let p = base + Int(i) * stride
            return SIMD3(p[0], p[1], p[2])
        }
        let bounds = (0..<triangles).map { t -> (lo: SIMD3<Float>, hi: SIMD3<Float>) in
            let a = vertex(indices[3 * t]), b = vertex(indices[3 * t + 1]), c = vertex(indices[3 * t + 2])
            return (lanesMin(a, lanesMin(b, c)), lanesMax(a, lanesMax(b, c)))
        }
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        for i in 0..<vertexCount {
            let p = base + i * stride
            let v = SIMD3(p[0], p[1], p[2])
            lo = lanesMin(lo, v); hi = lanesMax(hi, v)
        }
        boundsMin = vertexCount > 0 ? lo : .zero
        boundsMax = vertexCount > 0 ? hi : .zero
        let builder = BVHBuilder(bounds: bounds)
        nodes = .allocate(capacity: builder.nodes.count)
        _ = nodes.initialize(from: builder.nodes)
        bvhDepth = builder.depth
        leafTriangle = .allocate(capacity: triangles)
        leafIndices = .allocate(capacity: 3 * triangles)
        for (k, t) in builder.order.enumerated() {
            leafTriangle[k] = UInt32(t)
            let i0 = indices[3 * t], i1 = indices[3 * t + 1], i2 = indices[3 * t + 2]
            // A zero-area triangle is never hit: store it as its first vertex three times, which the
            // watertight test always rejects (all edge functions 0). Rounding in the shear could otherwise
            // let a ray through an exactly collinear triangle.
            let degenerate = isZeroArea(vertex(i0), vertex(i1), vertex(i2))
            leafIndices[3 * k] = i0
            leafIndices[3 * k + 1] = degenerate ? i0 : i1
            leafIndices[3 * k + 2] = degenerate ? i0 : i2
        }
        // Vertex storage: the caller's buffer when borrowed, else a copy in the order the leaves use it.
        if let vertices, !borrow {
            let copy = Mesh.copyInLeafOrder(vertices, renumbering: leafIndices)
            ownedVertices = copy
            vertexBase = UnsafePointer(copy)
            vertexStride = 3
        } else {
            ownedVertices = nil
            vertexBase = base
            vertexStride = stride
        }
        borrowedOwner = borrow ? owner : nil
        self.classes = classes.map(Array.init)
    }

    deinit {
        ownedVertices?.deallocate()
        nodes.deallocate()
        leafIndices.deallocate()
        leafTriangle.deallocate()
    }

    /// Copies the vertices packed, in the order in which the leaf positions first use them (unused ones
    /// last), and renumbers `indices` to match: a leaf's triangles then read nearby memory.
    private static func copyInLeafOrder(_ vertices: PointBuffer, renumbering indices: UnsafeMutableBufferPointer<UInt32>)
        -> UnsafeMutablePointer<Float> {
        var newIndex = [UInt32](repeating: .max, count: vertices.count)
        var next: UInt32 = 0
        for j in indices.indices {
            let old = Int(indices[j])
            if newIndex[old] == .max { newIndex[old] = next; next += 1 }
            indices[j] = newIndex[old]
        }
        for old in 0..<vertices.count where newIndex[old] == .max { newIndex[old] = next; next += 1 }
        let copy = UnsafeMutablePointer<Float>.allocate(capacity: 3 * vertices.count)
        for old in 0..<vertices.count {
            let v = vertices[old], i = 3 * Int(newIndex[old])
            copy[i] = v.x; copy[i + 1] = v.y; copy[i + 2] = v.z
        }
        return copy
    }

    /// Where an empty mesh's vertex pointer points (never read).
    nonisolated(unsafe) private static let noVertices = UnsafeMutablePointer<Float>.allocate(capacity: 3)

    @inlinable @inline(__always)
    func vertex(_ i: UInt32) -> SIMD3<Float> {
        let p = vertexBase + Int(i) &* vertexStride
        return SIMD3(p[0], p[1], p[2])
    }

    /// The vertices of leaf position k.
    @inlinable @inline(__always)
    func leafTriangleVertices(_ k: Int) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        (vertex(leafIndices[3 &* k]), vertex(leafIndices[3 &* k &+ 1]), vertex(leafIndices[3 &* k &+ 2]))
    }

    /// Bytes of the BVH: nodes, leaf indices and triangle ids.
    public var bvhBytes: Int {
        nodes.count * MemoryLayout<BVHNode>.stride + leafIndices.count * 4 + leafTriangle.count * 4
    }

    /// Bytes held by the mesh: the BVH, the vertex copy (not a borrowed buffer) and the classes.
    public var memoryBytes: Int {
        bvhBytes + (ownedVertices == nil ? 0 : 12 * vertexCount) + (classes?.count ?? 0)
    }

    public var bvhNodeCount: Int { nodes.count }

    /// Per-triangle unit normals (zero for degenerate triangles) and areas, in the caller's order.
    public func faceGeometry() -> (normals: [SIMD3<Float>], areas: [Float]) {
        var normals = [SIMD3<Float>](repeating: .zero, count: triangleCount)
        var areas = [Float](repeating: 0, count: triangleCount)
        for k in 0..<triangleCount {
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
        for k in 0..<triangleCount {
            let (a, b, c) = leafTriangleVertices(k)
            sum += length(cross(SIMD3<Double>(b) - SIMD3<Double>(a), SIMD3<Double>(c) - SIMD3<Double>(a))) / 2
        }
        return sum
    }

    /// A mesh from loaded file data (copied).
    public static func make(from data: MeshData) throws(FathomError) -> Mesh {
        let vertexCount = data.vertices.count / 3
        return try data.vertices.withUnsafeBufferPointer { (v: UnsafeBufferPointer<Float>) throws(FathomError) -> Mesh in
            try data.indices.withUnsafeBufferPointer { (i: UnsafeBufferPointer<UInt32>) throws(FathomError) -> Mesh in
                let points = try v.baseAddress.flatMap { base throws(FathomError) in
                    vertexCount > 0 ? try PointBuffer(base: base, count: vertexCount, strideBytes: 12) : nil
                }
                guard let classes = data.classes else {
                    return try Mesh(vertices: points, indices: i, classes: nil, borrow: false)
                }
                return try classes.withUnsafeBufferPointer { (c: UnsafeBufferPointer<UInt8>) throws(FathomError) -> Mesh in
                    try Mesh(vertices: points, indices: i, classes: c, borrow: false)
                }
            }
        }
    }
}
