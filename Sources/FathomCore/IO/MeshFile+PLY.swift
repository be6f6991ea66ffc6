extension MeshFile {
    /// Reads a PLY file, ascii or binary_little_endian (version 1.0).
    ///
    /// The `vertex` element needs scalar x, y, z properties of type float/float32 or double/float64
    /// (doubles are rounded to the nearest float). The `face` element needs a list property named
    /// `vertex_indices` (or `vertex_index`) with integer count and item types; faces with more than three
    /// indices are fanned (v0, vi, vi+1). An optional scalar integer face property `classification` (or
    /// `label`), with values in 0...7 (ARKit's mesh classes), becomes the class of each of the face's triangles. Every other
    /// property, of any scalar or list type, and every other element (edge, material, ...) is read past.
    /// In an ascii body each record is one line (blank lines between records are allowed); bytes after
    /// the last record of a binary body are ignored.
    ///
    /// Errors: `.parse` for a malformed header (naming its line), for malformed or missing values in an
    /// ascii body ("line N") and for a binary body that ends early ("byte offset N"), including element
    /// counts that the rest of the file is too short to hold, which are rejected before anything is
    /// allocated; `.format` for big-endian data, an unsupported version, a missing vertex or face element,
    /// a missing or mistyped x/y/z or vertex_indices property, a face with fewer than three indices or an
    /// index out of range (naming the face), a non-finite coordinate (naming the vertex) and a class
    /// outside 0...7.
    ///
    /// Complexity: one pass over the body, O(bytes).
    public static func parsePLY(_ bytes: [UInt8]) throws(FathomError) -> MeshData {
        try bytes.withUnsafeBufferPointer { (data: UnsafeBufferPointer<UInt8>) throws(FathomError) -> MeshData in
            var header = try PLYHeader(data)
            // Big-endian bodies are read for point clouds (PointCloud+PLY.swift), not for meshes.
            let bigEndian = FathomError(.format, "line \(header.formatLine): binary_big_endian PLY is not supported for meshes "
                                        + "(only ascii and binary_little_endian)")
            if header.format == .binaryBigEndian { throw bigEndian }
            let roles = try header.assignRoles()
            try header.checkSizes(available: data.count - header.bodyOffset)
            switch header.format {
            case .ascii:
                var source = PLYTextSource(cursor: TextCursor(data, position: header.bodyOffset, line: header.bodyLine))
                let mesh = try PLYBody.read(&source, header, roles)
                try source.finish()
                return mesh
            case .binaryLittleEndian:
                var source = PLYBinarySource<PLYLittleEndian>(data: UnsafeRawBufferPointer(data), offset: header.bodyOffset)
                return try PLYBody.read(&source, header, roles)
            case .binaryBigEndian:
                throw bigEndian
            }
        }
    }
}
