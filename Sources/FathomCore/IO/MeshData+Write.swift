/// Writers for triangle meshes: Wavefront OBJ and binary little-endian PLY, both read back exactly by
/// `MeshFile` (same vertices bit for bit, same triangles in the same order, and for PLY the same classes).
extension MeshData {
    /// The mesh's file format, chosen by a path's extension.
    public enum FileFormat: Sendable {
        case obj, ply

        /// `.obj` or `.ply` (any case) at the end of `path`, else `.format` naming the path.
        public init(path: String) throws(FathomError) {
            let lower = path.lowercased()
            if lower.hasSuffix(".obj") {
                self = .obj
            } else if lower.hasSuffix(".ply") {
                self = .ply
            } else {
                throw FathomError(.format, "'\(path)': the extension must be .ply or .obj to choose the format")
            }
        }
    }

    /// Throws unless the mesh can be written: whole vertices and triangles, finite vertices (`.notFinite`
    /// naming the vertex), every index below the vertex count and a class (0...7) per triangle (`.outOfRange`).
    public func validateForWriting() throws(FathomError) {
        guard vertices.count % 3 == 0 else { throw FathomError(.outOfRange, "vertices must hold 3 floats per vertex, got \(vertices.count)") }
        guard indices.count % 3 == 0 else { throw FathomError(.outOfRange, "indices must hold 3 per triangle, got \(indices.count)") }
        for i in 0..<vertexCount {
            let x = vertices[3 * i], y = vertices[3 * i + 1], z = vertices[3 * i + 2]
            guard x.isFinite && y.isFinite && z.isFinite else {
                throw FathomError(.notFinite, "vertex \(i) = (\(x), \(y), \(z)) is not finite")
            }
        }
        for (k, index) in indices.enumerated() where Int(index) >= vertexCount {
            throw FathomError(.outOfRange, "triangle \(k / 3) has vertex index \(index), but there are \(vertexCount) vertices")
        }
        if let classes {
            guard classes.count == triangleCount else {
                throw FathomError(.outOfRange, "classes must hold one per triangle (\(triangleCount)), got \(classes.count)")
            }
            if let bad = classes.firstIndex(where: { $0 > 7 }) {
                throw FathomError(.outOfRange, "classes[\(bad)] = \(classes[bad]) is not a mesh class (0...7)")
            }
        }
    }

    /// Wavefront OBJ text: a comment, `v x y z` per vertex (each float in the shortest decimal text that reads
    /// back as the same float), `f a b c` per triangle (1-based). OBJ has no classes: they are not written.
    /// The mesh must pass `validateForWriting`.
    public func objBytes() -> [UInt8] {
        var text = "# written by Fathom: \(vertexCount) vertices, \(triangleCount) triangles\n"
        text.reserveCapacity(64 + vertexCount * 40 + triangleCount * 24)
        for i in 0..<vertexCount {
            text += "v \(NumberText.float(vertices[3 * i])) \(NumberText.float(vertices[3 * i + 1])) \(NumberText.float(vertices[3 * i + 2]))\n"
        }
        for t in 0..<triangleCount {
            text += "f \(UInt64(indices[3 * t]) + 1) \(UInt64(indices[3 * t + 1]) + 1) \(UInt64(indices[3 * t + 2]) + 1)\n"
        }
        return Array(text.utf8)
    }

    /// Binary little-endian PLY: `vertex` (float x, y, z) and `face` (list uchar uint vertex_indices, and uchar
    /// classification when the mesh has classes). The mesh must pass `validateForWriting`.
    public func plyBytes() -> [UInt8] {
        var header = "ply\nformat binary_little_endian 1.0\ncomment written by Fathom\n"
        header += "element vertex \(vertexCount)\nproperty float x\nproperty float y\nproperty float z\n"
        header += "element face \(triangleCount)\nproperty list uchar uint vertex_indices\n"
        if classes != nil { header += "property uchar classification\n" }
        header += "end_header\n"
        let head = Array(header.utf8)
        let faceBytes = 13 + (classes != nil ? 1 : 0)
        let total = head.count + 12 * vertexCount + faceBytes * triangleCount
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            let raw = UnsafeMutableRawBufferPointer(out)
            raw.copyBytes(from: head)
            var at = head.count
            for v in vertices {
                raw.storeBytes(of: v.bitPattern.littleEndian, toByteOffset: at, as: UInt32.self)
                at += 4
            }
            for t in 0..<triangleCount {
                raw[at] = 3
                at += 1
                for k in 0..<3 {
                    raw.storeBytes(of: indices[3 * t + k].littleEndian, toByteOffset: at, as: UInt32.self)
                    at += 4
                }
                if let classes {
                    raw[at] = classes[t]
                    at += 1
                }
            }
            initialized = at
        }
    }

    /// Writes the mesh to `path` as OBJ or PLY, chosen by the extension (`.format` for any other). Checks
    /// the mesh first (`validateForWriting`); `.io` when the file cannot be written.
    public func save(path: String) throws(FathomError) {
        let format = try FileFormat(path: path)
        try validateForWriting()
        try FileIO.write(format == .obj ? objBytes() : plyBytes(), to: path)
    }
}
