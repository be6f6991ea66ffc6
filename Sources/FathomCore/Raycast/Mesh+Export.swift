/// A mesh's input as the caller gave it: vertices and triangles in their order, for export and inspection.
///
/// The BVH stores triangles in its own order (and zero-area ones collapsed), so the mesh keeps the input for
/// these: a copy of the indices (12 bytes per triangle) and, for a copied mesh, of the vertices (12 bytes
/// per vertex); a borrowed or compact mesh reads its vertices from the buffer its leaves index (the caller's, or
/// the compact mesh's one copy, counted in `memoryBytes`). `exportBytes` is the size of the copies for export.
extension Mesh {
    /// The vertices, float32 x, y, z packed (3 per vertex), in the caller's order. Unused vertices included.
    public var vertices: [Float] {
        if vertexCount == 0 || !sourceVertices.isEmpty { return sourceVertices }
        // Borrowed: the caller's buffer (which must still hold what it held). Compact: its copy, in leaf order.
        let order = storage == .compact ? compactVertexOrder() : nil
        let base = vertexBase, stride = vertexStride, count = vertexCount
        return [Float](unsafeUninitializedCapacity: 3 * count) { out, initialized in
            for i in 0..<count {
                let p = base + (order.map { Int(truncatingIfNeeded: $0[i]) } ?? i) * stride
                out[3 * i] = p[0]; out[3 * i + 1] = p[1]; out[3 * i + 2] = p[2]
            }
            initialized = 3 * count
        }
    }

    /// A compact mesh's numbering of its copy (`leafVertexOrder`), from its leaves and the caller's indices.
    private func compactVertexOrder() -> [UInt32] {
        let leaves = leafTriangle
        return sourceIndices.withUnsafeBufferPointer { indices in
            Mesh.leafVertexOrder(vertexCount: vertexCount, positions: leaves.count, indices: indices) { k in
                leaves[k] == Mesh.padding ? nil : Int(truncatingIfNeeded: leaves[k])
            }
        }
    }

    /// Three vertex indices per triangle, in the caller's order (zero-area triangles as given).
    public var indices: [UInt32] { sourceIndices }

    /// One class (0...7) per triangle in the caller's order, or nil when the mesh has none.
    public var triangleClasses: [UInt8]? { classes }

    /// Vertices, indices and classes as a `MeshData` (what `MeshFile` reads and `MeshData.save` writes).
    public var data: MeshData { MeshData(vertices: vertices, indices: indices, classes: classes) }

    /// Bytes of the copies kept for export (not counted in `memoryBytes`).
    public var exportBytes: Int { sourceVertices.count * 4 + sourceIndices.count * 4 }
}
