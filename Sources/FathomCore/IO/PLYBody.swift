// A PLY mesh body, read value by value from a source (PLYSources.swift).

enum PLYBody {
    static func read<S: PLYSource>(_ source: inout S, _ header: PLYHeader, _ roles: PLYRoles) throws(FathomError) -> MeshData {
        // checkSizes has bounded both counts by the file's size.
        let vertexCount = header.elements[roles.vertex].count
        let faceCount = header.elements[roles.face].count
        var vertices: [Float] = []
        var indices: [UInt32] = []
        var classes: [UInt8] = []
        vertices.reserveCapacity(3 * vertexCount)
        indices.reserveCapacity(3 * faceCount)
        if roles.hasClasses { classes.reserveCapacity(faceCount) }
        for (i, element) in header.elements.enumerated() {
            let fields = element.properties.map(\.field)
            source.element = element.name
            if i == roles.vertex {
                try readVertices(&source, element.count, fields, into: &vertices)
            } else if i == roles.face {
                try readFaces(&source, element.count, fields, vertexCount: vertexCount, hasClasses: roles.hasClasses,
                              into: &indices, classes: &classes)
            } else {
                try skipElement(&source, element.count, fields)
            }
        }
        return MeshData(vertices: vertices, indices: indices, classes: roles.hasClasses ? classes : nil)
    }

    /// Reads past the `count` records of an element made of `fields` (scalars and lists of any type).
    static func skipElement<S: PLYSource>(_ source: inout S, _ count: Int, _ fields: [PLYField]) throws(FathomError) {
        guard !fields.isEmpty else { return }
        if fields.allSatisfy({ $0.countType == nil }) {
            try source.skipScalarRecords(count, fields)
        } else {
            for r in 0..<count {
                source.record = r
                try source.beginRecord()
                for field in fields { try skip(&source, field) }
                try source.endRecord()
            }
        }
    }

    static func readVertices<S: PLYSource>(_ source: inout S, _ count: Int, _ fields: [PLYField],
                                           into vertices: inout [Float]) throws(FathomError) {
        for v in 0..<count {
            source.record = v
            try source.beginRecord()
            let at = source.mark
            var x: Float = 0, y: Float = 0, z: Float = 0
            for field in fields {
                switch field.role {
                case .x: x = try source.coordinate(field.type)
                case .y: y = try source.coordinate(field.type)
                case .z: z = try source.coordinate(field.type)
                default: try skip(&source, field)
                }
            }
            try source.endRecord()
            guard x.isFinite && y.isFinite && z.isFinite else {
                throw FathomError(.format, "\(source.location(at)): vertex \(v) is not finite as a float: (\(x), \(y), \(z))")
            }
            vertices.append(x)
            vertices.append(y)
            vertices.append(z)
        }
    }

    static func readFaces<S: PLYSource>(_ source: inout S, _ count: Int, _ fields: [PLYField], vertexCount: Int,
                                        hasClasses: Bool, into indices: inout [UInt32],
                                        classes: inout [UInt8]) throws(FathomError) {
        for f in 0..<count {
            source.record = f
            try source.beginRecord()
            var triangles = 0
            var faceClass: UInt8 = 0
            for field in fields {
                switch field.role {
                case .indices:
                    let at = source.mark
                    let n = try source.integer(field.countType ?? .uint8)
                    guard n >= 3 else {
                        throw FathomError(.format, "\(source.location(at)): face \(f) has \(n) vertex indices; at least 3 are needed")
                    }
                    guard source.canHold(n, field.type) else {
                        throw FathomError(.parse, "\(source.location(at)): face \(f) lists \(n) vertex indices, but the file ends before them")
                    }
                    let first = try index(&source, field.type, vertexCount: vertexCount, face: f)
                    var previous = try index(&source, field.type, vertexCount: vertexCount, face: f)
                    for _ in 2..<n {
                        let next = try index(&source, field.type, vertexCount: vertexCount, face: f)
                        indices.append(first)
                        indices.append(previous)
                        indices.append(next)
                        previous = next
                    }
                    triangles = Int(n) - 2
                case .faceClass:
                    let at = source.mark
                    let value = try source.integer(field.type)
                    guard value >= 0 && value <= 7 else {
                        throw FathomError(.format, "\(source.location(at)): face \(f) has classification \(value), not a mesh class (0...7)")
                    }
                    faceClass = UInt8(truncatingIfNeeded: value)
                default:
                    try skip(&source, field)
                }
            }
            try source.endRecord()
            if hasClasses {
                for _ in 0..<triangles { classes.append(faceClass) }
            }
        }
    }

    @inline(__always)
    static func index<S: PLYSource>(_ source: inout S, _ type: PLYScalar, vertexCount: Int, face: Int) throws(FathomError) -> UInt32 {
        let at = source.mark
        let value = try source.integer(type)
        guard value >= 0 && value < Int64(vertexCount) && value <= Int64(UInt32.max) else {
            throw FathomError(.format, "\(source.location(at)): face \(face) has vertex index \(value), out of range (\(vertexCount) vertices)")
        }
        return UInt32(truncatingIfNeeded: value)
    }

    static func skip<S: PLYSource>(_ source: inout S, _ field: PLYField) throws(FathomError) {
        guard let countType = field.countType else {
            try source.skip(field.type)
            return
        }
        let at = source.mark
        let n = try source.integer(countType)
        guard n >= 0 else {
            throw FathomError(.parse, "\(source.location(at)): a list of \(n) values in \(source.element) \(source.record)")
        }
        guard source.canHold(n, field.type) else {
            throw FathomError(.parse, "\(source.location(at)): a list of \(n) values in \(source.element) \(source.record), but the file ends before them")
        }
        try source.skipItems(Int(n), field.type)
    }
}
