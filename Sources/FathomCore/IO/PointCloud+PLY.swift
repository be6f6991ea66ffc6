/// Point clouds as PLY files: the `vertex` element of a PLY (what scanners, PCL and Open3D write), read and written.
extension PointCloud {
    /// How a PLY body is stored.
    public enum PLYEncoding: Sendable {
        /// binary_little_endian 1.0
        case binary
        /// ascii 1.0: one point per line, floats in the shortest text that reads back as the same float.
        case ascii
    }

    /// Reads the PLY file at `path` (see `parsePLY`). `.io` when it cannot be read; parse and format errors
    /// are prefixed with the path.
    public static func load(plyPath path: String) throws(FathomError) -> PointCloud {
        let bytes = try FileIO.read(path)
        do {
            return try parsePLY(bytes)
        } catch {
            throw FathomError(error.kind, "\(path): \(error.message)")
        }
    }

    /// Reads the `vertex` element of a PLY (ascii, binary_little_endian or binary_big_endian, version 1.0) as a
    /// point cloud.
    ///
    /// The vertex element needs scalar x, y, z of type float or double (doubles are rounded to the nearest
    /// float). Optional: nx, ny, nz (float or double; all three or none) become normals; red, green, blue (uchar;
    /// all three or none) colours; confidence (uchar) the confidence. Every other property (alpha, intensity,
    /// lists...) and every other element (faces of a mesh, edges...) is read past, so a mesh's PLY reads as the
    /// cloud of its vertices. The header is parsed by the mesh reader's code (`PLYHeader`).
    ///
    /// Errors: `.parse` for a malformed header (naming its line), malformed or missing values in an ascii body
    /// ("line N") and a binary body that ends early ("byte offset N"), including counts that the rest of the
    /// file is too short to hold, rejected before anything is allocated; `.format` for a missing vertex element,
    /// a missing or mistyped x/y/z, a partial or mistyped normal or colour triple, a mistyped confidence, a
    /// colour value above 255 in ascii, and a non-finite point or normal (naming the vertex).
    ///
    /// Complexity: one pass over the body, O(bytes).
    public static func parsePLY(_ bytes: [UInt8]) throws(FathomError) -> PointCloud {
        try bytes.withUnsafeBufferPointer { (data: UnsafeBufferPointer<UInt8>) throws(FathomError) -> PointCloud in
            let header = try PLYHeader(data)
            let layout = try PLYPointLayout(header)
            try header.checkSizes(available: data.count - header.bodyOffset)
            switch header.format {
            case .ascii:
                var source = PLYTextSource(cursor: MeshFile.TextCursor(data, position: header.bodyOffset, line: header.bodyLine))
                let cloud = try PLYPointBody.read(&source, header, layout)
                try source.finish()
                return cloud
            case .binaryLittleEndian:
                var source = PLYBinarySource<PLYLittleEndian>(data: UnsafeRawBufferPointer(data), offset: header.bodyOffset)
                return try PLYPointBody.read(&source, header, layout)
            case .binaryBigEndian:
                var source = PLYBinarySource<PLYBigEndian>(data: UnsafeRawBufferPointer(data), offset: header.bodyOffset)
                return try PLYPointBody.read(&source, header, layout)
            }
        }
    }

    /// Throws `.notFinite` naming the first point or normal with a NaN or infinite component, or `.outOfRange`
    /// if an optional array does not match the point count (a cloud edited after it was made).
    public func validateForWriting() throws(FathomError) {
        guard points.count % 3 == 0 else { throw FathomError(.outOfRange, "points must hold 3 values per point, got \(points.count)") }
        if let normals, normals.count != points.count { throw FathomError(.outOfRange, "normals hold \(normals.count / 3) points, the cloud \(count)") }
        if let colors, colors.count != points.count { throw FathomError(.outOfRange, "colors hold \(colors.count / 3) points, the cloud \(count)") }
        if let confidence, confidence.count != count { throw FathomError(.outOfRange, "confidence holds \(confidence.count) points, the cloud \(count)") }
        for i in 0..<count where !(points[3 * i].isFinite && points[3 * i + 1].isFinite && points[3 * i + 2].isFinite) {
            throw FathomError(.notFinite, "point \(i) = (\(points[3 * i]), \(points[3 * i + 1]), \(points[3 * i + 2])) is not finite")
        }
        if let normals {
            for i in 0..<count where !(normals[3 * i].isFinite && normals[3 * i + 1].isFinite && normals[3 * i + 2].isFinite) {
                throw FathomError(.notFinite, "normal \(i) = (\(normals[3 * i]), \(normals[3 * i + 1]), \(normals[3 * i + 2])) is not finite")
            }
        }
    }

    /// The PLY header this cloud is written with: element vertex with float x, y, z; float nx, ny, nz when it has
    /// normals; uchar red, green, blue with colours; uchar confidence with confidence.
    func plyHeader(_ encoding: PLYEncoding) -> String {
        var header = "ply\nformat \(encoding == .binary ? "binary_little_endian" : "ascii") 1.0\ncomment written by Fathom\n"
        header += "element vertex \(count)\nproperty float x\nproperty float y\nproperty float z\n"
        if normals != nil { header += "property float nx\nproperty float ny\nproperty float nz\n" }
        if colors != nil { header += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        if confidence != nil { header += "property uchar confidence\n" }
        return header + "end_header\n"
    }

    /// The cloud as a PLY file (see `plyHeader`). The cloud must pass `validateForWriting`.
    public func plyBytes(_ encoding: PLYEncoding) -> [UInt8] {
        let head = Array(plyHeader(encoding).utf8)
        let n = count
        switch encoding {
        case .binary:
            let record = 12 + (normals != nil ? 12 : 0) + (colors != nil ? 3 : 0) + (confidence != nil ? 1 : 0)
            let total = head.count + record * n
            return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
                let raw = UnsafeMutableRawBufferPointer(out)
                raw.copyBytes(from: head)
                var at = head.count
                @inline(__always) func put(_ v: Float) {
                    raw.storeBytes(of: v.bitPattern.littleEndian, toByteOffset: at, as: UInt32.self)
                    at &+= 4
                }
                for i in 0..<n {
                    put(points[3 * i]); put(points[3 * i + 1]); put(points[3 * i + 2])
                    if let normals { put(normals[3 * i]); put(normals[3 * i + 1]); put(normals[3 * i + 2]) }
                    if let colors {
                        raw[at] = colors[3 * i]; raw[at + 1] = colors[3 * i + 1]; raw[at + 2] = colors[3 * i + 2]
                        at &+= 3
                    }
                    if let confidence {
                        raw[at] = confidence[i]
                        at &+= 1
                    }
                }
                initialized = at
            }
        case .ascii:
            var text = ""
            text.reserveCapacity(n * (normals != nil ? 80 : 40))
            for i in 0..<n {
                text += NumberText.float(points[3 * i]) + " " + NumberText.float(points[3 * i + 1]) + " " + NumberText.float(points[3 * i + 2])
                if let normals {
                    text += " " + NumberText.float(normals[3 * i]) + " " + NumberText.float(normals[3 * i + 1]) + " " + NumberText.float(normals[3 * i + 2])
                }
                if let colors { text += " \(colors[3 * i]) \(colors[3 * i + 1]) \(colors[3 * i + 2])" }
                if let confidence { text += " \(confidence[i])" }
                text += "\n"
            }
            return head + Array(text.utf8)
        }
    }

    /// Writes the cloud to `path` as PLY (`plyBytes`), after `validateForWriting`; `.io` when the file cannot be written.
    public func savePLY(path: String, encoding: PLYEncoding = .binary) throws(FathomError) {
        try validateForWriting()
        try FileIO.write(plyBytes(encoding), to: path)
    }
}

/// Which properties of a PLY's vertex element hold the cloud's values.
struct PLYPointLayout {
    enum Role {
        case skip, x, y, z, nx, ny, nz, red, green, blue, confidence
    }

    /// The index of the vertex element in the header.
    var vertex: Int
    /// Per property of the vertex element.
    var roles: [Role]
    var hasNormals = false
    var hasColors = false
    var hasConfidence = false

    init(_ header: PLYHeader) throws(FathomError) {
        var found: Int?
        for (i, element) in header.elements.enumerated() where element.name == "vertex" {
            guard found == nil else { throw FathomError(.format, "line \(element.line): a second vertex element") }
            found = i
        }
        guard let found else { throw FathomError(.format, "the PLY header has no vertex element") }
        vertex = found
        let element = header.elements[found]
        roles = Array(repeating: .skip, count: element.properties.count)

        /// Marks the scalar properties `names` (all of them, or none unless `required`) with `assigned`, each of a
        /// type in `types`; returns whether they are present.
        func assign(_ names: [String], _ assigned: [Role], required: Bool, floating: Bool) throws(FathomError) -> Bool {
            let indices = names.map { name in element.properties.firstIndex { $0.name == name } }
            let present = indices.compactMap { $0 }
            if present.isEmpty && !required { return false }
            for (name, index) in zip(names, indices) {
                guard let index else {
                    let others = names.filter { $0 != name }.joined(separator: ", ")
                    throw FathomError(.format, required
                        ? "line \(element.line): the vertex element has no \(name) property"
                        : "line \(element.line): the vertex element has \(others) but no \(name) property (all of \(names.joined(separator: ", ")) or none)")
                }
                let property = element.properties[index]
                guard property.field.countType == nil else {
                    throw FathomError(.format, "line \(property.line): vertex property \(name) must be a scalar, not a list")
                }
                if floating {
                    guard !property.field.type.isInteger else {
                        throw FathomError(.format, "line \(property.line): vertex property \(name) must be float or double, got \(property.typeName)")
                    }
                } else {
                    guard property.field.type == .uint8 else {
                        throw FathomError(.format, "line \(property.line): vertex property \(name) must be uchar, got \(property.typeName)")
                    }
                }
            }
            for (index, role) in zip(present, assigned) { roles[index] = role }
            return true
        }
        _ = try assign(["x", "y", "z"], [.x, .y, .z], required: true, floating: true)
        hasNormals = try assign(["nx", "ny", "nz"], [.nx, .ny, .nz], required: false, floating: true)
        hasColors = try assign(["red", "green", "blue"], [.red, .green, .blue], required: false, floating: false)
        hasConfidence = try assign(["confidence"], [.confidence], required: false, floating: false)
    }
}

enum PLYPointBody {
    static func read<S: PLYSource>(_ source: inout S, _ header: PLYHeader, _ layout: PLYPointLayout) throws(FathomError) -> PointCloud {
        // checkSizes has bounded the count by the file's size.
        let n = header.elements[layout.vertex].count
        var points = [Float](), normals = [Float](), colors = [UInt8](), confidence = [UInt8]()
        points.reserveCapacity(3 * n)
        if layout.hasNormals { normals.reserveCapacity(3 * n) }
        if layout.hasColors { colors.reserveCapacity(3 * n) }
        if layout.hasConfidence { confidence.reserveCapacity(n) }
        for (i, element) in header.elements.enumerated() {
            let fields = element.properties.map(\.field)
            source.element = element.name
            if i == layout.vertex {
                try readPoints(&source, n, fields, layout.roles, points: &points, normals: &normals, colors: &colors, confidence: &confidence)
            } else {
                try PLYBody.skipElement(&source, element.count, fields)
            }
        }
        return try PointCloud(points: points, normals: layout.hasNormals ? normals : nil, colors: layout.hasColors ? colors : nil,
                              confidence: layout.hasConfidence ? confidence : nil)
    }

    static func readPoints<S: PLYSource>(_ source: inout S, _ count: Int, _ fields: [PLYField], _ roles: [PLYPointLayout.Role],
                                         points: inout [Float], normals: inout [Float], colors: inout [UInt8],
                                         confidence: inout [UInt8]) throws(FathomError) {
        var p = SIMD3<Float>(), n = SIMD3<Float>(), rgb = SIMD3<UInt8>(), c: UInt8 = 0
        let hasNormals = roles.contains(.nx), hasColors = roles.contains(.red), hasConfidence = roles.contains(.confidence)
        for v in 0..<count {
            source.record = v
            try source.beginRecord()
            let at = source.mark
            for (k, field) in fields.enumerated() {
                switch roles[k] {
                case .skip: try PLYBody.skip(&source, field)
                case .x: p.x = try source.coordinate(field.type)
                case .y: p.y = try source.coordinate(field.type)
                case .z: p.z = try source.coordinate(field.type)
                case .nx: n.x = try source.coordinate(field.type)
                case .ny: n.y = try source.coordinate(field.type)
                case .nz: n.z = try source.coordinate(field.type)
                case .red: rgb.x = try byte(&source, "red", v)
                case .green: rgb.y = try byte(&source, "green", v)
                case .blue: rgb.z = try byte(&source, "blue", v)
                case .confidence: c = try byte(&source, "confidence", v)
                }
            }
            try source.endRecord()
            guard p.x.isFinite && p.y.isFinite && p.z.isFinite else {
                throw FathomError(.format, "\(source.location(at)): vertex \(v) is not finite as a float: (\(p.x), \(p.y), \(p.z))")
            }
            points.append(p.x); points.append(p.y); points.append(p.z)
            if hasNormals {
                guard n.x.isFinite && n.y.isFinite && n.z.isFinite else {
                    throw FathomError(.format, "\(source.location(at)): the normal of vertex \(v) is not finite as a float: (\(n.x), \(n.y), \(n.z))")
                }
                normals.append(n.x); normals.append(n.y); normals.append(n.z)
            }
            if hasColors { colors.append(rgb.x); colors.append(rgb.y); colors.append(rgb.z) }
            if hasConfidence { confidence.append(c) }
        }
    }

    /// A uchar value (ascii text may hold any integer: above 255 is refused).
    @inline(__always)
    static func byte<S: PLYSource>(_ source: inout S, _ name: String, _ vertex: Int) throws(FathomError) -> UInt8 {
        let at = source.mark
        let value = try source.integer(.uint8)
        guard value >= 0 && value <= 255 else {
            throw FathomError(.format, "\(source.location(at)): vertex \(vertex) has \(name) \(value), not a uchar (0...255)")
        }
        return UInt8(truncatingIfNeeded: value)
    }
}
