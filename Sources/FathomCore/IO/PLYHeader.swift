// A PLY header: its elements, properties and formats, and the roles the mesh reader gives them.

/// A PLY scalar type.
enum PLYScalar: Sendable {
    case int8, uint8, int16, uint16, int32, uint32, float32, float64

    /// The type named in a header (both the classic and the sized names).
    init?(_ name: String) {
        switch name {
        case "char", "int8": self = .int8
        case "uchar", "uint8": self = .uint8
        case "short", "int16": self = .int16
        case "ushort", "uint16": self = .uint16
        case "int", "int32": self = .int32
        case "uint", "uint32": self = .uint32
        case "float", "float32": self = .float32
        case "double", "float64": self = .float64
        default: return nil
        }
    }

    /// Bytes in a binary body.
    var size: Int {
        switch self {
        case .int8, .uint8: 1
        case .int16, .uint16: 2
        case .int32, .uint32, .float32: 4
        case .float64: 8
        }
    }

    var isInteger: Bool { self != .float32 && self != .float64 }
}

/// What the reader does with a property's values.
enum PLYRole: Sendable {
    case skip, x, y, z, indices, faceClass
}

/// A property as the body reader needs it: trivial, so the per-record loop copies no references.
struct PLYField: Sendable {
    var role: PLYRole
    /// The scalar's type, or a list's item type.
    var type: PLYScalar
    /// A list's count type; nil for a scalar.
    var countType: PLYScalar?
}

struct PLYProperty {
    var name: String
    var typeName: String
    var line: Int
    var field: PLYField
}

struct PLYElement {
    var name: String
    var count: Int
    var line: Int
    var properties: [PLYProperty] = []
}

enum PLYFormat {
    case ascii, binaryLittleEndian, binaryBigEndian
}

/// Which elements hold the vertices and the faces, and whether faces carry a class.
struct PLYRoles {
    var vertex: Int
    var face: Int
    var hasClasses: Bool
}

struct PLYHeader {
    var format: PLYFormat
    /// The line of the format statement, for messages.
    var formatLine: Int
    var elements: [PLYElement]
    /// Byte offset and line number where the body starts.
    var bodyOffset: Int
    var bodyLine: Int

    init(_ data: UnsafeBufferPointer<UInt8>) throws(FathomError) {
        var cursor = MeshFile.TextCursor(data)
        func parseError(_ message: String) -> FathomError { FathomError(.parse, "line \(cursor.line): \(message)") }
        func formatError(_ message: String) -> FathomError { FathomError(.format, "line \(cursor.line): \(message)") }

        guard let magic = cursor.token(), cursor.string(magic) == "ply", cursor.token() == nil else {
            throw FathomError(.parse, "line 1: not a PLY file (the first line must be 'ply')")
        }
        cursor.nextLine()
        var format: PLYFormat?
        var formatLine = 0
        var elements: [PLYElement] = []
        while true {
            guard !cursor.atEnd else { throw parseError("the header ends without an end_header line") }
            guard let keywordToken = cursor.token() else {
                cursor.nextLine()
                continue
            }
            let keyword = keywordToken.count <= 16 ? cursor.string(keywordToken) : ""
            if keyword == "comment" || keyword == "obj_info" {
                cursor.nextLine()
                continue
            }
            var words: [String] = []
            while let token = cursor.token(), words.count < 8 { words.append(cursor.string(token)) }
            switch keyword {
            case "format":
                guard format == nil else { throw parseError("a second format line") }
                guard words.count == 2 else { throw parseError("expected 'format ascii 1.0' or 'format binary_little_endian 1.0'") }
                switch words[0] {
                case "ascii": format = .ascii
                case "binary_little_endian": format = .binaryLittleEndian
                case "binary_big_endian": format = .binaryBigEndian
                default: throw parseError("unknown PLY format '\(words[0])'")
                }
                formatLine = cursor.line
                guard words[1] == "1.0" || words[1] == "1" else { throw formatError("PLY version \(words[1]) is not supported (only 1.0)") }
            case "element":
                guard words.count == 2 else { throw parseError("expected 'element <name> <count>'") }
                guard let count = Int(words[1]), count >= 0 else {
                    throw parseError("the count of element \(words[0]) must be a non-negative integer, got '\(words[1])'")
                }
                elements.append(PLYElement(name: words[0], count: count, line: cursor.line))
            case "property":
                guard !elements.isEmpty else { throw parseError("a property before any element") }
                let property: PLYProperty
                if words.first == "list" {
                    guard words.count == 4 else { throw parseError("expected 'property list <count type> <item type> <name>'") }
                    guard let countType = PLYScalar(words[1]) else { throw parseError("unknown property type '\(words[1])'") }
                    guard let itemType = PLYScalar(words[2]) else { throw parseError("unknown property type '\(words[2])'") }
                    guard countType.isInteger else {
                        throw formatError("the count type of list \(words[3]) must be an integer type, got \(words[1])")
                    }
                    property = PLYProperty(name: words[3], typeName: words[2], line: cursor.line,
                                           field: PLYField(role: .skip, type: itemType, countType: countType))
                } else {
                    guard words.count == 2 else { throw parseError("expected 'property <type> <name>'") }
                    guard let type = PLYScalar(words[0]) else { throw parseError("unknown property type '\(words[0])'") }
                    property = PLYProperty(name: words[1], typeName: words[0], line: cursor.line,
                                           field: PLYField(role: .skip, type: type, countType: nil))
                }
                elements[elements.count - 1].properties.append(property)
            case "end_header":
                guard words.isEmpty else { throw parseError("unexpected text after end_header") }
                guard let format else { throw parseError("the header has no format line") }
                cursor.nextLine()
                self.format = format
                self.formatLine = formatLine
                self.elements = elements
                bodyOffset = cursor.position
                bodyLine = cursor.line
                return
            default:
                throw parseError("unknown header line starting \(cursor.quoted(keywordToken))")
            }
            cursor.nextLine()
        }
    }

    /// Finds the vertex and face elements and marks the properties the reader uses.
    mutating func assignRoles() throws(FathomError) -> PLYRoles {
        var vertex: Int?, face: Int?
        for (i, element) in elements.enumerated() {
            if element.name == "vertex" {
                guard vertex == nil else { throw FathomError(.format, "line \(element.line): a second vertex element") }
                vertex = i
            } else if element.name == "face" {
                guard face == nil else { throw FathomError(.format, "line \(element.line): a second face element") }
                face = i
            }
        }
        guard let vertex else { throw FathomError(.format, "the PLY header has no vertex element") }
        guard let face else { throw FathomError(.format, "the PLY header has no face element (a point cloud is not a mesh)") }

        let vertexLine = elements[vertex].line
        for (name, role) in [("x", PLYRole.x), ("y", .y), ("z", .z)] {
            guard let k = elements[vertex].properties.firstIndex(where: { $0.name == name }) else {
                throw FathomError(.format, "line \(vertexLine): the vertex element has no \(name) property")
            }
            let property = elements[vertex].properties[k]
            guard property.field.countType == nil else {
                throw FathomError(.format, "line \(property.line): vertex property \(name) must be a scalar, not a list")
            }
            guard !property.field.type.isInteger else {
                throw FathomError(.format, "line \(property.line): vertex property \(name) must be float or double, got \(property.typeName)")
            }
            elements[vertex].properties[k].field.role = role
        }

        let faceLine = elements[face].line
        guard let k = elements[face].properties.firstIndex(where: { $0.name == "vertex_indices" || $0.name == "vertex_index" }) else {
            throw FathomError(.format, "line \(faceLine): the face element has no vertex_indices list")
        }
        let indices = elements[face].properties[k]
        guard indices.field.countType != nil else {
            throw FathomError(.format, "line \(indices.line): face property \(indices.name) must be a list")
        }
        guard indices.field.type.isInteger else {
            throw FathomError(.format, "line \(indices.line): face property \(indices.name) must hold integers, got \(indices.typeName)")
        }
        elements[face].properties[k].field.role = .indices

        var hasClasses = false
        if let c = elements[face].properties.firstIndex(where: { ($0.name == "classification" || $0.name == "label") && $0.field.countType == nil }) {
            let property = elements[face].properties[c]
            guard property.field.type.isInteger else {
                throw FathomError(.format, "line \(property.line): face property \(property.name) must have an integer type (uchar), got \(property.typeName)")
            }
            elements[face].properties[c].field.role = .faceClass
            hasClasses = true
        }
        return PLYRoles(vertex: vertex, face: face, hasClasses: hasClasses)
    }

    /// Rejects element counts that the body is too short to hold, before anything is allocated: each record
    /// needs at least its scalars, its lists' counts and a face's three indices (binary: their bytes; ascii:
    /// one character and one separator or line end per value).
    func checkSizes(available: Int) throws(FathomError) {
        // An ascii body's last line may lack its line end.
        let available = format == .ascii ? available + 1 : available
        var used = 0
        for element in elements where element.count > 0 {
            var minimum = 0
            for property in element.properties {
                let field = property.field
                let items = field.role == .indices ? 3 : 0
                switch format {
                case .binaryLittleEndian, .binaryBigEndian: minimum += (field.countType?.size ?? 0) + (field.countType == nil ? field.type.size : items * field.type.size)
                case .ascii: minimum += 2 * (1 + items)
                }
            }
            let (bytes, overflow) = element.count.multipliedReportingOverflow(by: minimum)
            guard !overflow, bytes <= available - used else {
                throw FathomError(.parse, "line \(element.line): element \(element.name) declares \(element.count) records of at least "
                                  + "\(minimum) bytes, more than the \(available - used) bytes left for it in the file")
            }
            used += bytes
        }
    }
}
