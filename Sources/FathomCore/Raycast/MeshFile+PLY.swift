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

// MARK: - Header

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

// MARK: - Body

/// A PLY body read value by value: ascii text or binary little-endian data.
protocol PLYSource {
    /// The element and record being read, for messages.
    var element: String { get set }
    var record: Int { get set }
    /// A position for messages: a line number or a byte offset.
    var mark: Int { get }
    /// "line N" or "byte offset N".
    func location(_ mark: Int) -> String
    mutating func beginRecord() throws(FathomError)
    mutating func endRecord() throws(FathomError)
    mutating func coordinate(_ type: PLYScalar) throws(FathomError) -> Float
    mutating func integer(_ type: PLYScalar) throws(FathomError) -> Int64
    mutating func skip(_ type: PLYScalar) throws(FathomError)
    /// Whether `count` values of `type` could still follow (a bound, not a promise).
    func canHold(_ count: Int64, _ type: PLYScalar) -> Bool
    mutating func skipItems(_ count: Int, _ type: PLYScalar) throws(FathomError)
    /// Reads past `count` records made only of the scalars in `fields`.
    mutating func skipScalarRecords(_ count: Int, _ fields: [PLYField]) throws(FathomError)
}

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

/// An ascii body: one record per line, values separated by blanks.
struct PLYTextSource: PLYSource {
    var cursor: MeshFile.TextCursor
    var element = ""
    var record = 0

    init(cursor: MeshFile.TextCursor) {
        self.cursor = cursor
    }

    var mark: Int { cursor.line }

    func location(_ mark: Int) -> String { "line \(mark)" }

    /// Moves to the next non-blank line.
    mutating func beginRecord() throws(FathomError) {
        let text = cursor.text
        var i = cursor.position
        while i < text.count {
            let c = text[i]
            if c == 0x0A {
                cursor.line += 1
            } else if !MeshFile.TextCursor.isBlank(c) {
                break
            }
            i &+= 1
        }
        cursor.position = i
        guard i < text.count else { throw FathomError(.parse, "line \(cursor.line): the file ends before \(element) \(record)") }
    }

    mutating func endRecord() throws(FathomError) {
        guard cursor.token() == nil else {
            throw FathomError(.parse, "line \(cursor.line): \(element) \(record) has more values than the header's properties")
        }
        cursor.nextLine()
    }

    /// After the last element: only blank lines may follow.
    mutating func finish() throws(FathomError) {
        element = "nothing"
        do {
            try beginRecord()
        } catch {
            return
        }
        throw FathomError(.parse, "line \(cursor.line): data after the last element (the header's counts are too small)")
    }

    @inline(__always)
    mutating func value() throws(FathomError) -> Range<Int> {
        guard let token = cursor.token() else {
            throw FathomError(.parse, "line \(cursor.line): \(element) \(record) has too few values")
        }
        return token
    }

    @inline(never)
    func notANumber(_ token: Range<Int>, integer: Bool) -> FathomError {
        FathomError(.parse, "line \(cursor.line): \(cursor.quoted(token)) is not \(integer ? "an integer" : "a number"), in \(element) \(record)")
    }

    @inline(__always)
    mutating func coordinate(_ type: PLYScalar) throws(FathomError) -> Float {
        let token = try value()
        guard let v = MeshFile.DecimalText.float(cursor.text, token) else { throw notANumber(token, integer: false) }
        return v
    }

    @inline(__always)
    mutating func integer(_ type: PLYScalar) throws(FathomError) -> Int64 {
        let token = try value()
        guard let v = MeshFile.DecimalText.integer(cursor.text, token) else { throw notANumber(token, integer: true) }
        return v
    }

    mutating func skip(_ type: PLYScalar) throws(FathomError) {
        if type.isInteger {
            _ = try integer(type)
        } else {
            _ = try coordinate(type)
        }
    }

    func canHold(_ count: Int64, _ type: PLYScalar) -> Bool {
        count >= 0 && count <= Int64((cursor.text.count - cursor.position) / 2 + 1)
    }

    mutating func skipItems(_ count: Int, _ type: PLYScalar) throws(FathomError) {
        for _ in 0..<count { try skip(type) }
    }

    mutating func skipScalarRecords(_ count: Int, _ fields: [PLYField]) throws(FathomError) {
        for r in 0..<count {
            record = r
            try beginRecord()
            for field in fields { try skip(field.type) }
            try endRecord()
        }
    }
}

/// The byte order of a binary PLY body (a type parameter, so each order's reader is specialised).
protocol PLYByteOrder {
    static func decode<T: FixedWidthInteger>(_ stored: T) -> T
}

enum PLYLittleEndian: PLYByteOrder {
    @inline(__always) static func decode<T: FixedWidthInteger>(_ stored: T) -> T { T(littleEndian: stored) }
}

enum PLYBigEndian: PLYByteOrder {
    @inline(__always) static func decode<T: FixedWidthInteger>(_ stored: T) -> T { T(bigEndian: stored) }
}

/// A binary body in the byte order `Order`. Values are read with unaligned loads; every read is bounds-checked once.
struct PLYBinarySource<Order: PLYByteOrder>: PLYSource {
    let data: UnsafeRawBufferPointer
    var offset: Int
    var element = ""
    var record = 0

    var mark: Int { offset }

    func location(_ mark: Int) -> String { "byte offset \(mark)" }

    mutating func beginRecord() {}
    mutating func endRecord() {}

    /// The offset of the next `size` bytes, which are then consumed.
    @inline(__always)
    mutating func take(_ size: Int) throws(FathomError) -> Int {
        guard size <= data.count &- offset else { throw truncated(size) }
        let at = offset
        offset &+= size
        return at
    }

    @inline(never)
    func truncated(_ size: Int) -> FathomError {
        FathomError(.parse, "byte offset \(offset): the file ends inside \(element) \(record) "
                    + "(\(size) more bytes needed, \(data.count - offset) left)")
    }

    @inline(__always)
    func load<T: FixedWidthInteger>(_ at: Int, as: T.Type) -> T {
        Order.decode(data.loadUnaligned(fromByteOffset: at, as: T.self))
    }

    @inline(__always)
    mutating func coordinate(_ type: PLYScalar) throws(FathomError) -> Float {
        let at = try take(type.size)
        switch type {
        case .float32: return Float(bitPattern: load(at, as: UInt32.self))
        case .float64: return Float(Double(bitPattern: load(at, as: UInt64.self)))
        default:
            offset = at
            return Float(try integer(type))
        }
    }

    @inline(__always)
    mutating func integer(_ type: PLYScalar) throws(FathomError) -> Int64 {
        let at = try take(type.size)
        switch type {
        case .int8: return Int64(load(at, as: Int8.self))
        case .uint8: return Int64(load(at, as: UInt8.self))
        case .int16: return Int64(load(at, as: Int16.self))
        case .uint16: return Int64(load(at, as: UInt16.self))
        case .int32: return Int64(load(at, as: Int32.self))
        case .uint32: return Int64(load(at, as: UInt32.self))
        // Counts, indices and classes have integer types (checked with the header); a float here would be
        // a bug, read as a value every caller rejects.
        case .float32, .float64: return Int64.min
        }
    }

    @inline(__always)
    mutating func skip(_ type: PLYScalar) throws(FathomError) {
        _ = try take(type.size)
    }

    func canHold(_ count: Int64, _ type: PLYScalar) -> Bool {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: Int64(type.size))
        return count >= 0 && !overflow && bytes <= Int64(data.count - offset)
    }

    mutating func skipItems(_ count: Int, _ type: PLYScalar) throws(FathomError) {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: type.size)
        guard !overflow else { throw truncated(Int.max) }
        _ = try take(bytes)
    }

    mutating func skipScalarRecords(_ count: Int, _ fields: [PLYField]) throws(FathomError) {
        let size = fields.reduce(0) { $0 + $1.type.size }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, bytes <= data.count - offset else {
            record = size > 0 ? (data.count - offset) / size : 0
            offset += record * size
            throw truncated(size)
        }
        offset += bytes
    }
}
