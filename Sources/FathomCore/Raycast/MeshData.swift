/// A triangle mesh as a file holds it: packed vertices, triangle indices and optional per-face classes.
///
/// Plain data: the readers (`MeshFile`) check what they read (finite vertices, indices in range), but
/// this type checks nothing, so a value built by hand may be inconsistent until `Mesh` validates it.
public struct MeshData: Sendable, Equatable {
    /// float32 x, y, z of each vertex, packed (3 per vertex).
    public var vertices: [Float]
    /// Three vertex indices per triangle.
    public var indices: [UInt32]
    /// One class (`fathom_mesh_class`) per triangle, or nil when the file has none.
    public var classes: [UInt8]?

    public init(vertices: [Float], indices: [UInt32], classes: [UInt8]? = nil) {
        self.vertices = vertices
        self.indices = indices
        self.classes = classes
    }

    /// Number of whole vertices (`vertices.count / 3`).
    public var vertexCount: Int { vertices.count / 3 }

    /// Number of whole triangles (`indices.count / 3`).
    public var triangleCount: Int { indices.count / 3 }
}
