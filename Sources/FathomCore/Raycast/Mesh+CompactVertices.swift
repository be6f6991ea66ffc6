/// A compact mesh's vertex numbering: the vertices in the order the leaves first use them (the corners of the
/// triangle at each leaf position, in leaf order), then the vertices no triangle uses, in the caller's order. A
/// leaf's triangles then gather their vertices from nearby memory, as a copied mesh's blocks hold them. The
/// numbering is not stored: export (`vertices`) computes it again from the leaves and the caller's indices.
extension Mesh {
    /// The new index of each vertex: `order[v]` for the caller's vertex v (a permutation of 0..<vertexCount).
    /// `triangle(k)`: the caller's index of the triangle at leaf position k, nil for padding.
    static func leafVertexOrder(vertexCount: Int, positions: Int, indices: UnsafeBufferPointer<UInt32>,
                                triangle: (Int) -> Int?) -> [UInt32] {
        var order = [UInt32](repeating: .max, count: vertexCount)
        var next: UInt32 = 0
        for k in 0..<positions {
            guard let t = triangle(k) else { continue }
            for j in 0..<3 {
                let v = Int(truncatingIfNeeded: indices[3 * t + j])
                if order[v] == .max { order[v] = next; next &+= 1 }
            }
        }
        for v in 0..<vertexCount where order[v] == .max { order[v] = next; next &+= 1 }
        return order
    }
}
