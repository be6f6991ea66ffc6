// Mesh file readers: OBJ and PLY (ascii and binary) files written here byte by byte, against hand-derived
// meshes; the same mesh through every format; decimal text against the C library's strtof; and every
// error path with its kind and the line or byte offset in the message.
import FathomCore
import Glibc
import Testing

// MARK: - Writing test files

/// Little-endian bytes of PLY-typed values, and text.
private struct Bytes {
    var data: [UInt8] = []

    mutating func text(_ s: String) { data += Array(s.utf8) }
    mutating func f32(_ v: Float) { int(v.bitPattern) }
    mutating func f64(_ v: Double) { int(v.bitPattern) }
    mutating func int<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { data += $0 } }

    /// `value` stored as the PLY type named `type` (which must hold it).
    mutating func put(_ value: Int64, as type: String) {
        switch type {
        case "char", "int8": int(Int8(value))
        case "uchar", "uint8": int(UInt8(value))
        case "short", "int16": int(Int16(value))
        case "ushort", "uint16": int(UInt16(value))
        case "int", "int32": int(Int32(value))
        case "uint", "uint32": int(UInt32(value))
        case "float", "float32": f32(Float(value))
        case "double", "float64": f64(Double(value))
        default: fatalError("no PLY type \(type)")
        }
    }
}

/// The unit cube: 8 corners, 6 quads (outward, counter-clockwise), a class per quad.
private enum Cube {
    static let corners: [SIMD3<Float>] = [
        SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 0),
        SIMD3(0, 0, 1), SIMD3(1, 0, 1), SIMD3(1, 1, 1), SIMD3(0, 1, 1),
    ]
    static let quads: [[UInt32]] = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [2, 3, 7, 6], [1, 2, 6, 5], [0, 4, 7, 3]]
    static let quadClasses: [UInt8] = [2, 3, 1, 1, 7, 6]

    static var vertices: [Float] { corners.flatMap { [$0.x, $0.y, $0.z] } }

    /// Each quad (a, b, c, d) fanned into (a, b, c), (a, c, d).
    static var indices: [UInt32] { quads.flatMap { [$0[0], $0[1], $0[2], $0[0], $0[2], $0[3]] } }

    static var mesh: MeshData { MeshData(vertices: vertices, indices: indices, classes: nil) }

    static var classifiedMesh: MeshData {
        MeshData(vertices: vertices, indices: indices, classes: quadClasses.flatMap { [$0, $0] })
    }
}

/// A mesh written as OBJ with `v x y z` and `f a b c` (1-based), floats in Swift's shortest round-trip text.
private func objFile(_ mesh: MeshData) -> [UInt8] {
    var text = "# written by MeshFileTests\n"
    for v in 0..<mesh.vertexCount {
        text += "v \(mesh.vertices[3 * v]) \(mesh.vertices[3 * v + 1]) \(mesh.vertices[3 * v + 2])\n"
    }
    for t in 0..<mesh.triangleCount {
        text += "f \(mesh.indices[3 * t] + 1) \(mesh.indices[3 * t + 1] + 1) \(mesh.indices[3 * t + 2] + 1)\n"
    }
    return Array(text.utf8)
}

private func plyHeader(_ format: String, _ mesh: MeshData) -> String {
    "ply\nformat \(format) 1.0\nelement vertex \(mesh.vertexCount)\nproperty float x\nproperty float y\nproperty float z\n"
        + "element face \(mesh.triangleCount)\nproperty list uchar uint vertex_indices\n"
        + (mesh.classes == nil ? "" : "property uchar classification\n") + "end_header\n"
}

private func asciiPLY(_ mesh: MeshData) -> [UInt8] {
    var text = plyHeader("ascii", mesh)
    for v in 0..<mesh.vertexCount {
        text += "\(mesh.vertices[3 * v]) \(mesh.vertices[3 * v + 1]) \(mesh.vertices[3 * v + 2])\n"
    }
    for t in 0..<mesh.triangleCount {
        text += "3 \(mesh.indices[3 * t]) \(mesh.indices[3 * t + 1]) \(mesh.indices[3 * t + 2])"
        text += mesh.classes.map { " \($0[t])\n" } ?? "\n"
    }
    return Array(text.utf8)
}

private func binaryPLY(_ mesh: MeshData) -> [UInt8] {
    var out = Bytes()
    out.text(plyHeader("binary_little_endian", mesh))
    for v in mesh.vertices { out.f32(v) }
    for t in 0..<mesh.triangleCount {
        out.int(UInt8(3))
        for k in 0..<3 { out.int(mesh.indices[3 * t + k]) }
        if let classes = mesh.classes { out.int(classes[t]) }
    }
    return out.data
}

private func parse(_ text: String, obj: Bool) throws(FathomError) -> MeshData {
    obj ? try MeshFile.parseOBJ(Array(text.utf8)) : try MeshFile.parsePLY(Array(text.utf8))
}

/// A path for a temporary file, unique to this process and `name`.
private func temporaryPath(_ name: String) -> String { "/tmp/fathom-meshfile-\(getpid())-\(name)" }

/// printf-style formatting of one Double (for number texts the Swift formatter never writes).
private func format(_ spec: String, _ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 160)
    _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, spec, $0) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

// MARK: - OBJ

@Suite("OBJ reader")
struct OBJReaderTests {
    static let cubeOBJ = """
        # a cube of quads, with every face vertex form and the records a reader skips
        mtllib cube.mtl
        o Cube

        v 0 0 0
        v 1 0 0
        v 1 1 0
        v 0 1 0
        v 0 0 1 1.0
        v 1.0 0.0 1.0
        v\t1 1 1
        v 0 1 1 # a comment after the values
        vt 0 0
        vt 1 0
        vn 0 0 -1
        vp 0.5
        g side
        usemtl red
        s off
        f 1 4 3 2
        f 5/1 6/2 7/1 8/2
        f 1//1 2//1 6//1 5//1
        f 3/1/1 4/2/1 8/1/1 7/2/1
        l 1 2
        f 2 3 7 6 # last but one
        \tf\t1\t5  8  4\t
        curv 0 1 2 3
        """

    @Test("a cube of quads: every face vertex form, skipped records, LF and CRLF", arguments: ["\n", "\r\n"])
    func cube(lineEnd: String) throws {
        let text = Self.cubeOBJ.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: lineEnd)
        let mesh = try MeshFile.parseOBJ(Array(text.utf8))
        #expect(mesh == Cube.mesh)
        #expect(mesh.vertexCount == 8 && mesh.triangleCount == 12 && mesh.classes == nil)
    }

    @Test("polygons are fanned from their first vertex")
    func fan() throws {
        let mesh = try parse("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0.5 2 0\nv 0 1 0\nf 1 2 3 4 5\nf 5 4 3\n", obj: true)
        #expect(mesh.indices == [0, 1, 2, 0, 2, 3, 0, 3, 4, 4, 3, 2])
    }

    @Test("negative indices count back from the last vertex read so far")
    func negativeIndices() throws {
        let text = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf -4 -3 -2 -1\nv 2 2 2\nf -1 -2/1 -5//3\n"
        let mesh = try parse(text, obj: true)
        #expect(mesh.indices == [0, 1, 2, 0, 2, 3, 4, 3, 0])
        #expect(mesh.vertexCount == 5)
    }

    @Test("empty texture and normal slots, as exporters write them: i/, i//, i/t/")
    func emptySlots() throws {
        let mesh = try parse("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1// 2/ 3/1/\nf 1//2 3/4/ 4//\n", obj: true)
        #expect(mesh.indices == [0, 1, 2, 0, 2, 3])
    }

    @Test("a line ending with a backslash continues the record; one inside a comment or before a value does not")
    func lineContinuation() throws {
        // Continued faces and vertices (the backslash alone or ending a value; LF or CRLF), a skipped record
        // whose continuation line must not be read as a record, and a comment ending with a backslash.
        let text = "v 0 0 \\\n 0\nv\\\n1 0 0\r\nv 1 1 0\nv 0 1 0\nf 1 2 \\\r\n 3\ng a \\\nf 9 9 9\n"
            + "f 1 3\\\n4 # the end \\\nv 5 5 5\n"
        let mesh = try parse(text, obj: true)
        #expect(mesh.vertices == [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 5, 5, 5])
        #expect(mesh.indices == [0, 1, 2, 0, 2, 3])
        // Errors name the physical line of the bad value.
        expectError(.format, containing: ["line 3", "face index 9"]) { () throws(FathomError) in
            _ = try parse("v 0 0 0\nf 1 1 \\\n 9\n", obj: true)
        }
    }

    @Test("an empty file, comments only, or unknown records give an empty mesh")
    func empty() throws {
        for text in ["", "\n\n", "# nothing\r\n", "foo 1 2 3\nvertex 1 2 3\nface 1 2 3\n"] {
            let mesh = try parse(text, obj: true)
            #expect(mesh == MeshData(vertices: [], indices: [], classes: nil))
        }
    }

    @Test("numbers in every decimal form, including long and exponent forms")
    func numberForms() throws {
        let texts = ["1", "-1.5", "+2.", ".25", "-.125", "1e3", "1E-3", "6.02214076e23", "0.000001", "-0",
                     "3.4028234663852886e38", "1.17549435e-38", "1e-45", "123456789012345678901234567890",
                     "0.1000000000000000055511151231257827021181583404541015625"]
        var text = ""
        for t in texts { text += "v \(t) 0 0\n" }
        let mesh = try parse(text, obj: true)
        for (i, t) in texts.enumerated() {
            let expected = try #require(Float(t))
            #expect(mesh.vertices[3 * i].bitPattern == expected.bitPattern, "\(t)")
        }
    }

    /// The fast decimal path must round exactly like strtof: random floats printed short, with 9 and 17
    /// digits, with 30 digits, and the exact midpoints between neighbouring floats (and their neighbours),
    /// where rounding in Double first would go wrong.
    @Test("decimal text rounds to the nearest float, like strtof")
    func roundingAgainstStrtof() throws {
        var rng = SplitMix64(seed: 77)
        var tokens: [String] = []
        while tokens.count < 30_000 {
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
            guard f.isFinite, f.nextUp.isFinite else { continue }
            let d = Double(f), mid = (d + Double(f.nextUp)) / 2
            tokens += ["\(f)", format("%.9g", d), format("%.17g", d), format("%.30e", d),
                       format("%.70g", mid), format("%.17g", mid.nextUp), format("%.17g", mid.nextDown), format("%.12e", mid)]
        }
        var text = ""
        var i = 0
        while i + 3 <= tokens.count {
            text += "v \(tokens[i]) \(tokens[i + 1]) \(tokens[i + 2])\n"
            i += 3
        }
        let mesh = try parse(text, obj: true)
        #expect(mesh.vertices.count == i)
        var mismatches = 0
        for k in 0..<i {
            let expected = strtof(tokens[k], nil)
            if mesh.vertices[k].bitPattern != expected.bitPattern {
                mismatches += 1
                if mismatches <= 5 { Issue.record("\(tokens[k]): read \(mesh.vertices[k]), strtof gives \(expected)") }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("malformed numbers and records are parse errors naming the line")
    func parseErrors() {
        let cases: [(String, String)] = [
            ("v 0 0 0\nv 1 0 0\nv 1 x 0\n", "line 3"),
            ("v 0 0 0\nv 1 0\n", "line 2"),
            ("v 0 0 0\n\nv 1.0.0 0 0\n", "line 3"),
            ("v 0 0 0\nv 1 1e 0\n", "line 2"),
            ("v 0 0 0\nv 1 0 0 abc\n", "line 2"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3a\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1/1/1/1 2 3\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1/x 2 3\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1/// 2 3\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf /1 2 3\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 3 \\ 4\n", "line 4"),
            ("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 \\\n3 x\n", "line 5"),
            ("v 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\nf 1 2 3 # ok\r\nf 1 - 3\r\n", "line 5"),
            ("v 0 0 0\nv 1 0\u{0}0 0\n", "line 2"),
        ]
        for (text, line) in cases {
            expectError(.parse, containing: [line]) { () throws(FathomError) in _ = try parse(text, obj: true) }
        }
    }

    @Test("face index 0, beyond the vertices read so far, or too far back is a format error")
    func indexErrors() {
        let three = "v 0 0 0\nv 1 0 0\nv 1 1 0\n"
        let cases: [(String, [String])] = [
            (three + "f 0 1 2\n", ["line 4", "face index 0 is out of range (3 vertices)"]),
            (three + "f 1 2 4\n", ["line 4", "face index 4 is out of range (3 vertices)"]),
            (three + "f -4 1 2\n", ["line 4", "face index -4 is out of range (3 vertices)"]),
            ("v 0 0 0\nv 1 0 0\nf 1 2 3\nv 1 1 0\n", ["line 3", "face index 3 is out of range (2 vertices)"]),
            (three + "f 1 2 99999999999999999999999\n", ["line 4", "out of range"]),
            (three + "f 1 2 -99999999999999999999999\n", ["line 4", "out of range"]),
        ]
        for (text, fragments) in cases {
            expectError(.format, containing: fragments) { () throws(FathomError) in _ = try parse(text, obj: true) }
        }
    }

    @Test("non-finite coordinates, written or beyond Float's range, are format errors naming the line")
    func nonFinite() {
        for value in ["nan", "-inf", "Infinity", "1e39", "-3.5e38", "1e400"] {
            let text = "v 0 0 0\nv 1 \(value) 0\n"
            expectError(.format, containing: ["line 2", "not finite"]) { () throws(FathomError) in _ = try parse(text, obj: true) }
        }
        // Tiny values underflow to zero, which is fine.
        #expect((try? parse("v 1e-50 -1e-46 0\n", obj: true))?.vertices == [0, 0, 0])
    }

    @Test("a NUL byte means it is not a text file")
    func binaryGarbage() {
        var bytes = Array("v 0 0 0\nv 1 0 0\n".utf8)
        bytes += [0x00, 0xFF, 0x10, 0x0A]
        expectError(.parse, containing: ["line 3", "NUL"]) { () throws(FathomError) in _ = try MeshFile.parseOBJ(bytes) }
    }
}

// MARK: - PLY

@Suite("PLY reader")
struct PLYReaderTests {
    /// The classified cube as ascii PLY with extra vertex properties, an edge element with a list between
    /// the vertices and the faces, a face property before the index list and comments.
    static func cubeASCII(lineEnd: String = "\n") -> [UInt8] {
        var lines = [
            "ply", "format ascii 1.0", "comment a cube of quads", "obj_info by hand",
            "element vertex 8", "property float x", "property float y", "property float z",
            "property float nx", "property float ny", "property float nz",
            "property uchar red", "property uchar green", "property uchar blue",
            "element edge 2", "property list uchar int vertex_pair", "property uchar crease",
            "element face 6", "property uchar flags", "property list uchar int vertex_indices",
            "property uchar classification", "end_header",
        ]
        for (i, c) in Cube.corners.enumerated() {
            lines.append("\(c.x) \(c.y) \(c.z) 0.577 -0.577 1e-3 255 \(i * 30) 0")
        }
        lines += ["2 0 1 1", "3 4 5 6 0"]
        for (q, quad) in Cube.quads.enumerated() {
            lines.append("9 4 \(quad.map(String.init).joined(separator: " ")) \(Cube.quadClasses[q])")
        }
        return Array((lines.joined(separator: lineEnd) + lineEnd).utf8)
    }

    /// The same cube as binary PLY with properties of mixed types around x, y, z (doubles among them),
    /// a face's class named label and typed uint, and a material element with a list at the end.
    static func cubeBinary() -> [UInt8] {
        var out = Bytes()
        out.text("""
            ply
            format binary_little_endian 1.0
            comment mixed types
            element vertex 8
            property int id
            property double nx
            property float x
            property float y
            property float z
            property ushort green
            property char blue
            property double ny
            element face 6
            property ushort flags
            property list ushort uint vertex_indices
            property uint label
            element material 2
            property list uint float values
            property short id
            end_header

            """)
        for (i, c) in Cube.corners.enumerated() {
            out.int(Int32(-i))
            out.f64(.nan)  // skipped, so never checked
            out.f32(c.x); out.f32(c.y); out.f32(c.z)
            out.int(UInt16(60000)); out.int(Int8(-5)); out.f64(0.25)
        }
        for (q, quad) in Cube.quads.enumerated() {
            out.int(UInt16(0xBEEF))
            out.int(UInt16(4))
            for i in quad { out.int(i) }
            out.int(UInt32(Cube.quadClasses[q]))
        }
        out.int(UInt32(3)); out.f32(1); out.f32(2); out.f32(3); out.int(Int16(7))
        out.int(UInt32(0)); out.int(Int16(8))
        return out.data
    }

    @Test("ascii cube with extra properties, an element with a list and classes (LF and CRLF)", arguments: ["\n", "\r\n"])
    func asciiCube(lineEnd: String) throws {
        let mesh = try MeshFile.parsePLY(Self.cubeASCII(lineEnd: lineEnd))
        #expect(mesh == Cube.classifiedMesh)
    }

    @Test("binary cube with properties of mixed types, a uint label and a trailing element with a list")
    func binaryCube() throws {
        let mesh = try MeshFile.parsePLY(Self.cubeBinary())
        #expect(mesh == Cube.classifiedMesh)
    }

    @Test("double coordinates are rounded to the nearest float, in binary and ascii")
    func doubles() throws {
        let values: [Double] = [0.1, -1.0 / 3.0, 1e-30, 123456.789, 0.30000000000000004, 16777217]
        var out = Bytes()
        out.text("ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty double x\nproperty double y\nproperty float64 z\n"
                 + "element face 0\nproperty list uchar int vertex_indices\nend_header\n")
        for v in values { out.f64(v) }
        let binary = try MeshFile.parsePLY(out.data)
        #expect(binary.vertices == values.map { Float($0) })
        #expect(binary.triangleCount == 0 && binary.classes == nil)

        var text = "ply\nformat ascii 1.0\nelement vertex 2\nproperty double x\nproperty double y\nproperty double z\n"
            + "element face 0\nproperty list uchar int vertex_indices\nend_header\n"
        text += values.prefix(3).map { "\($0)" }.joined(separator: " ") + "\n"
        text += values.suffix(3).map { "\($0)" }.joined(separator: " ") + "\n"
        // Decimal text is rounded once, straight to the nearest float (as strtof does).
        #expect(try MeshFile.parsePLY(Array(text.utf8)).vertices == values.map { strtof("\($0)", nil) })
    }

    static let listCountTypes = ["uchar", "uint8", "ushort", "uint16", "uint", "uint32", "char", "int8", "short", "int16", "int", "int32"]
    static let listIndexTypes = ["int", "int32", "uint", "uint32", "short", "int16", "ushort", "uint16", "uchar", "uint8", "char", "int8"]

    @Test("every integer count type with every integer index type (binary)", arguments: listCountTypes, listIndexTypes)
    func indexTypes(countType: String, indexType: String) throws {
        let quads: [[Int64]] = [[0, 1, 2, 3], [4, 5, 6], [7, 6, 5, 4, 3]]
        var out = Bytes()
        out.text("ply\nformat binary_little_endian 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
                 + "element face \(quads.count)\nproperty list \(countType) \(indexType) vertex_index\nend_header\n")
        for v in Cube.vertices { out.f32(v) }
        for face in quads {
            out.put(Int64(face.count), as: countType)
            for i in face { out.put(i, as: indexType) }
        }
        let mesh = try MeshFile.parsePLY(out.data)
        #expect(mesh.vertices == Cube.vertices)
        #expect(mesh.indices == [0, 1, 2, 0, 2, 3, 4, 5, 6, 7, 6, 5, 7, 5, 4, 7, 4, 3])
    }

    @Test("a class of any integer type in 0...7; faces fanned repeat their class", arguments: ["uchar", "uint8", "char", "short", "ushort", "int", "uint"])
    func classTypes(type: String) throws {
        var out = Bytes()
        out.text("ply\nformat binary_little_endian 1.0\nelement vertex 5\nproperty float x\nproperty float y\nproperty float z\n"
                 + "element face 2\nproperty \(type) classification\nproperty list uchar int vertex_indices\nend_header\n")
        for i in 0..<15 { out.f32(Float(i)) }
        let first: Int64 = type == "char" ? 7 : 4
        out.put(first, as: type); out.int(UInt8(5)); for i in [0, 1, 2, 3, 4] { out.int(Int32(i)) }
        out.put(0, as: type); out.int(UInt8(3)); for i in [4, 3, 2] { out.int(Int32(i)) }
        let mesh = try MeshFile.parsePLY(out.data)
        #expect(mesh.indices == [0, 1, 2, 0, 2, 3, 0, 3, 4, 4, 3, 2])
        #expect(mesh.classes == [UInt8(first), UInt8(first), UInt8(first), 0])
    }

    @Test("a vertex element after the face element, and an element with no properties")
    func elementOrder() throws {
        let text = "ply\nformat ascii 1.0\nelement nothing 1000000\nelement face 1\nproperty list uchar int vertex_indices\n"
            + "element vertex 3\nproperty float z\nproperty float y\nproperty float x\nend_header\n3 2 1 0\n1 2 3\n4 5 6\n7 8 9\n"
        let mesh = try MeshFile.parsePLY(Array(text.utf8))
        #expect(mesh.vertices == [3, 2, 1, 6, 5, 4, 9, 8, 7])
        #expect(mesh.indices == [2, 1, 0])
    }

    // MARK: Errors

    @Test("header errors: magic, format, version, big-endian, counts, types, keywords")
    func headerErrors() {
        let vertex = "element vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
        let face = "element face 0\nproperty list uchar int vertex_indices\n"
        let cases: [(String, FathomError.Kind, [String])] = [
            ("plx\nformat ascii 1.0\nend_header\n", .parse, ["line 1", "not a PLY file"]),
            ("", .parse, ["line 1"]),
            ("ply\nformat binary_big_endian 1.0\n" + vertex + face + "end_header\n", .format, ["line 2", "not supported"]),
            ("ply\nformat ascii 2.0\n" + vertex + face + "end_header\n", .format, ["line 2", "version"]),
            ("ply\nformat text 1.0\nend_header\n", .parse, ["line 2", "format"]),
            ("ply\nformat ascii\nend_header\n", .parse, ["line 2"]),
            ("ply\nformat ascii 1.0\nformat ascii 1.0\nend_header\n", .parse, ["line 3"]),
            ("ply\nformat ascii 1.0\nelement vertex abc\nend_header\n", .parse, ["line 3", "abc"]),
            ("ply\nformat ascii 1.0\nelement vertex -1\nend_header\n", .parse, ["line 3"]),
            ("ply\nformat ascii 1.0\nelement vertex 99999999999999999999\nend_header\n", .parse, ["line 3"]),
            ("ply\nformat ascii 1.0\nelement vertex\nend_header\n", .parse, ["line 3"]),
            ("ply\nformat ascii 1.0\nproperty float x\nend_header\n", .parse, ["line 3", "before any element"]),
            ("ply\nformat ascii 1.0\nelement vertex 1\nproperty flt x\nend_header\n", .parse, ["line 4", "flt"]),
            ("ply\nformat ascii 1.0\nelement vertex 1\nproperty list uchar x\nend_header\n", .parse, ["line 4"]),
            ("ply\nformat ascii 1.0\nelement face 1\nproperty list float int vertex_indices\nend_header\n", .format, ["line 4", "count type"]),
            ("ply\nformat ascii 1.0\n" + vertex + "vertices 3\nend_header\n", .parse, ["line 7", "vertices"]),
            ("ply\nformat ascii 1.0\n" + vertex + face + "end_header extra\n", .parse, ["line 9"]),
            ("ply\nformat ascii 1.0\n" + vertex + face, .parse, ["line 9", "end_header"]),
            ("ply\n" + vertex + face + "end_header\n", .parse, ["line 8", "format"]),
            ("ply\n\u{1}\u{2}garbage\u{7F}\nend_header\n", .parse, ["line 2"]),
        ]
        for (text, kind, fragments) in cases {
            expectError(kind, containing: fragments) { () throws(FathomError) in _ = try parse(text, obj: false) }
        }
    }

    @Test("missing or mistyped x/y/z, vertex_indices and class properties are format errors")
    func propertyErrors() {
        let v = "element vertex 1\n", f = "element face 0\n"
        let xyz = "property float x\nproperty float y\nproperty float z\n"
        let list = "property list uchar int vertex_indices\n"
        let cases: [(String, [String])] = [
            (v + "property float x\nproperty float z\n" + f + list, ["line 3", "no y property"]),
            (v + "property float y\nproperty float z\n" + f + list, ["line 3", "no x property"]),
            (v + "property int x\nproperty float y\nproperty float z\n" + f + list, ["line 4", "float or double", "int"]),
            (v + "property list uchar float x\nproperty float y\nproperty float z\n" + f + list, ["line 4", "list"]),
            (v + xyz + f, ["line 7", "vertex_indices"]),
            (v + xyz + f + "property list uchar int vertex\n", ["line 7", "vertex_indices"]),
            (v + xyz + f + "property int vertex_indices\n", ["line 8", "must be a list"]),
            (v + xyz + f + "property list uchar float vertex_indices\n", ["line 8", "integers"]),
            (v + xyz + f + list + "property float classification\n", ["line 9", "integer type"]),
            (v + xyz, ["no face element"]),
            (f + list, ["no vertex element"]),
            (v + xyz + v + xyz + f + list, ["line 7", "second vertex"]),
            (v + xyz + f + list + f + list, ["line 9", "second face"]),
        ]
        for (body, fragments) in cases {
            let text = "ply\nformat ascii 1.0\n" + body + "end_header\n0 0 0\n"
            expectError(.format, containing: fragments) { () throws(FathomError) in _ = try parse(text, obj: false) }
        }
    }

    @Test("element counts the file cannot hold are rejected before anything is allocated")
    func lyingCounts() {
        let head = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
        var tiny = Bytes()
        tiny.text(head + "element face 4000000000\nproperty list uchar int vertex_indices\nend_header\n")
        for i in 0..<9 { tiny.f32(Float(i)) }
        tiny.int(UInt8(3)); tiny.int(Int32(0)); tiny.int(Int32(1)); tiny.int(Int32(2))
        expectError(.parse, containing: ["line 7", "4000000000"]) { () throws(FathomError) in _ = try MeshFile.parsePLY(tiny.data) }

        let counts = ["9223372036854775807", "4611686018427387904", "1000000000000"]
        for count in counts {
            let text = "ply\nformat binary_little_endian 1.0\nelement vertex \(count)\nproperty double x\nproperty double y\n"
                + "property double z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n"
            expectError(.parse, containing: ["line 3"]) { () throws(FathomError) in _ = try parse(text, obj: false) }
            // Other elements are counted too, with their lists' counts.
            let other = "ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\n"
                + "element face 0\nproperty list uchar int vertex_indices\nelement edge \(count)\nproperty list uint int pair\nend_header\n"
            expectError(.parse, containing: ["line 9"]) { () throws(FathomError) in _ = try parse(other, obj: false) }
        }
        let ascii = "ply\nformat ascii 1.0\nelement vertex 100000000\nproperty float x\nproperty float y\nproperty float z\n"
            + "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"
        expectError(.parse, containing: ["line 3", "100000000"]) { () throws(FathomError) in _ = try parse(ascii, obj: false) }
        let asciiFaces = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            + "element face 4000000000\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"
        expectError(.parse, containing: ["line 7", "4000000000"]) { () throws(FathomError) in _ = try parse(asciiFaces, obj: false) }
    }

    @Test("lists longer than the rest of the file: faces and skipped elements")
    func lyingLists() {
        let head = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
        var face = Bytes()
        face.text(head + "element face 1\nproperty list uint int vertex_indices\nend_header\n")
        let bodyOffset = face.data.count
        for i in 0..<9 { face.f32(Float(i)) }
        face.int(UInt32(4_000_000_000)); face.int(Int32(0)); face.int(Int32(1)); face.int(Int32(2))
        expectError(.parse, containing: ["byte offset \(bodyOffset + 36)", "face 0", "4000000000"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(face.data)
        }

        var edge = Bytes()
        edge.text(head + "element edge 2\nproperty list uint int pair\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n")
        let edgeBody = edge.data.count
        for i in 0..<9 { edge.f32(Float(i)) }
        edge.int(UInt32(1)); edge.int(Int32(5))
        edge.int(UInt32.max); edge.int(Int32(0))
        expectError(.parse, containing: ["byte offset \(edgeBody + 44)", "edge 1"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(edge.data)
        }

        let ascii = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            + "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n200 0 1 2\n"
        expectError(.parse, containing: ["line 13", "face 0"]) { () throws(FathomError) in _ = try parse(ascii, obj: false) }
    }

    @Test("a truncated binary body names the byte offset where the data ends")
    func truncatedBinary() {
        // Quads: the size check (which assumes triangles) passes, the read runs out.
        var out = Bytes()
        out.text("ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
                 + "element face 2\nproperty list uchar int vertex_indices\nend_header\n")
        let bodyOffset = out.data.count
        for i in 0..<12 { out.f32(Float(i)) }
        out.int(UInt8(4)); for i in 0..<4 { out.int(Int32(i)) }
        out.int(UInt8(4)); for i in 0..<4 { out.int(Int32(3 - i)) }
        #expect((try? MeshFile.parsePLY(out.data))?.triangleCount == 4)
        // Face 1 starts at body + 48 + 17: with 3 bytes cut, its 4 indices no longer fit after its count.
        let cut = Array(out.data.dropLast(3))
        expectError(.parse, containing: ["byte offset \(bodyOffset + 65)", "face 1", "ends"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(cut)
        }
        // Vertices after a quad face (which leaves the size check, counting triangles, 4 bytes of slack):
        // cut 3 bytes, the last vertex's z is what runs out, at body + 17 + 36 + 8.
        var vertexCut = Bytes()
        vertexCut.text("ply\nformat binary_little_endian 1.0\nelement face 1\nproperty list uchar int vertex_indices\n"
                       + "element vertex 4\nproperty float x\nproperty float y\nproperty float z\nend_header\n")
        let vertexBody = vertexCut.data.count
        vertexCut.int(UInt8(4)); for i in 0..<4 { vertexCut.int(Int32(i)) }
        for i in 0..<12 { vertexCut.f32(Float(i)) }
        expectError(.parse, containing: ["byte offset \(vertexBody + 17 + 36 + 8)", "vertex 3", "4 more bytes needed, 1 left"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(Array(vertexCut.data.dropLast(3)))
        }
    }

    @Test("every prefix of a binary and an ascii file fails cleanly")
    func everyPrefix() {
        let binary = Self.cubeBinary()
        let binaryBody = (firstRange(of: "end_header\n", in: binary) ?? 0) + 11
        for n in 0..<binary.count {
            let prefix = Array(binary.prefix(n))
            do {
                _ = try MeshFile.parsePLY(prefix)
                Issue.record("binary prefix of \(n) bytes was accepted")
            } catch {
                if n >= binaryBody {
                    // Cut data fails the size check (naming an element's header line) or the read (its offset).
                    #expect(error.kind == .parse && (error.message.contains("byte offset") || error.message.hasPrefix("line ")),
                            "prefix \(n): .\(error.kind) \(error.message)")
                }
            }
        }
        let ascii = Self.cubeASCII()
        let asciiBody = (firstRange(of: "end_header\n", in: ascii) ?? 0) + 11
        for n in asciiBody..<(ascii.count - 1) {
            do {
                _ = try MeshFile.parsePLY(Array(ascii.prefix(n)))
                Issue.record("ascii prefix of \(n) bytes was accepted")
            } catch {
                #expect(error.kind == .parse && error.message.hasPrefix("line "), "prefix \(n): .\(error.kind) \(error.message)")
            }
        }
        #expect((try? MeshFile.parsePLY(Array(ascii.dropLast()))) == Cube.classifiedMesh)
    }

    /// The offset of the first occurrence of `text` in `bytes`.
    func firstRange(of text: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("bad indices, short faces and bad classes name the face and the byte offset or line")
    func faceErrors() {
        let head = "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            + "element face 2\nproperty list uchar int vertex_indices\nproperty int classification\nend_header\n"
        func binary(_ second: [Int32], class secondClass: Int32 = 1) -> (bytes: [UInt8], faceOffset: Int) {
            var out = Bytes()
            out.text("ply\nformat binary_little_endian 1.0\n" + head)
            for i in 0..<9 { out.f32(Float(i)) }
            out.int(UInt8(3)); for i in [0, 1, 2] as [Int32] { out.int(i) }; out.int(Int32(0))
            let faceOffset = out.data.count
            out.int(UInt8(second.count)); for i in second { out.int(i) }; out.int(secondClass)
            out.data += [UInt8](repeating: 0, count: 8)  // ignored; keeps a short face past the size check
            return (out.data, faceOffset)
        }
        let outOfRange = binary([2, 3, 0])
        expectError(.format, containing: ["byte offset \(outOfRange.faceOffset + 5)", "face 1", "vertex index 3", "3 vertices"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(outOfRange.bytes)
        }
        let negative = binary([2, 1, -1])
        expectError(.format, containing: ["byte offset \(negative.faceOffset + 9)", "face 1", "-1"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(negative.bytes)
        }
        let short = binary([2, 1])
        expectError(.format, containing: ["byte offset \(short.faceOffset)", "face 1", "2 vertex indices"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(short.bytes)
        }
        let badClass = binary([2, 1, 0], class: 256)
        expectError(.format, containing: ["byte offset \(badClass.faceOffset + 13)", "face 1", "classification 256"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(badClass.bytes)
        }
        let negativeClass = binary([2, 1, 0], class: -1)
        expectError(.format, containing: ["face 1", "classification -1"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(negativeClass.bytes)
        }

        let ascii = "ply\nformat ascii 1.0\n" + head + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2 7\n"
        let asciiCases: [(String, [String])] = [
            ("3 0 1 3 1\n", ["line 15", "face 1", "vertex index 3"]),
            ("3 0 -1 2 1\n", ["line 15", "face 1", "-1"]),
            ("2 0 1 1\n", ["line 15", "face 1", "2 vertex indices"]),
            ("0 1\n", ["line 15", "face 1", "0 vertex indices"]),
            ("3 0 1 2 300\n", ["line 15", "face 1", "classification 300"]),
        ]
        for (line, fragments) in asciiCases {
            // Blank lines after the last record keep short records past the size check.
            expectError(.format, containing: fragments) { () throws(FathomError) in _ = try parse(ascii + line + "\n\n\n\n\n\n", obj: false) }
        }
    }

    @Test("non-finite coordinates name the vertex: NaN, infinity, doubles beyond Float's range")
    func nonFinite() {
        let head = "element face 0\nproperty list uchar int vertex_indices\nend_header\n"
        var nan = Bytes()
        nan.text("ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n" + head)
        let body = nan.data.count
        for i in 0..<9 { nan.f32(i == 7 ? .nan : Float(i)) }
        expectError(.format, containing: ["byte offset \(body + 24)", "vertex 2", "not finite"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(nan.data)
        }
        var big = Bytes()
        big.text("ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty double x\nproperty double y\nproperty double z\n" + head)
        let bigBody = big.data.count
        for v in [0, 0, 0, 1, 1e300, 1] as [Double] { big.f64(v) }
        expectError(.format, containing: ["byte offset \(bigBody + 24)", "vertex 1"]) { () throws(FathomError) in
            _ = try MeshFile.parsePLY(big.data)
        }
        var infinity = Bytes()
        infinity.text("ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\n" + head)
        infinity.f32(0); infinity.f32(0); infinity.f32(-.infinity)
        expectError(.format, containing: ["vertex 0"]) { () throws(FathomError) in _ = try MeshFile.parsePLY(infinity.data) }

        for value in ["nan", "inf", "-Infinity", "1e39"] {
            let text = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\n" + head
                + "0 0 0\n0 \(value) 0\n"
            expectError(.format, containing: ["line 11", "vertex 1"]) { () throws(FathomError) in _ = try parse(text, obj: false) }
        }
    }

    @Test("malformed ascii bodies: bad numbers, too few or too many values, extra data")
    func asciiBodyErrors() {
        let head = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
            + "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
        let cases: [(String, [String])] = [
            ("0 0 0 1\n1 x 0 1\n3 0 1 1\n", ["line 12", "'x'", "vertex 1"]),
            ("0 0 0 1\n1 0 0 1.5\n3 0 1 1\n", ["line 12", "'1.5'", "integer"]),
            ("0 0 0 1\n1 0 0\n3 0 1 1\n", ["line 12", "too few values", "vertex 1"]),
            ("0 0 0 1 9\n1 0 0 1\n3 0 1 1\n", ["line 11", "more values", "vertex 0"]),
            ("0 0 0 1\n1 0 0 1\n3 0 1 1 5\n", ["line 13", "more values", "face 0"]),
            ("0 0 0 1\n1 0 0 1\n3 0 1\n", ["line 13", "too few values", "face 0"]),
            ("0 0 0 1\n1 0 0 1\n3 0 1 1\n3 0 1 1\n", ["line 14", "after the last element"]),
            ("0 0 0 1\n1 0 0 1\n", ["line 21", "ends before face 0"]),
            ("0 0 0 1\n1 0 0 1\nx 0 1 1\n", ["line 13", "'x'", "face 0"]),
            ("0 0 0 1\n1 0 0 1\n-3 0 1 1\n", ["line 13", "face 0"]),
        ]
        for (body, fragments) in cases {
            let kind: FathomError.Kind = body.hasSuffix("-3 0 1 1\n") ? .format : .parse
            // Eight blank lines after the records keep short records past the size check.
            expectError(kind, containing: fragments) { () throws(FathomError) in
                _ = try parse(head + body + "\n\n\n\n\n\n\n\n", obj: false)
            }
        }
        // Without them, a missing record is caught by the size check, naming the element's header line.
        expectError(.parse, containing: ["line 8", "element face"]) { () throws(FathomError) in
            _ = try parse(head + "0 0 0 1\n1 0 0 1\n", obj: false)
        }
        // Blank lines between records and trailing blank lines are fine.
        #expect((try? parse(head + "\n0 0 0 1\n\n  \n1 0 0 1\n3 0 1 1\n\n\n", obj: false))?.indices == [0, 1, 1])
    }

    @Test("corrupted files never trap: random bytes changed in binary and ascii files")
    func corruption() {
        var rng = SplitMix64(seed: 2024)
        let originals = [Self.cubeBinary(), Self.cubeASCII(), binaryPLY(Cube.classifiedMesh), Array(OBJReaderTests.cubeOBJ.utf8)]
        var outcomes = [0, 0]
        for round in 0..<4000 {
            var bytes = originals[round % originals.count]
            for _ in 0..<(1 + rng.int(0...3)) {
                let at = rng.int(0...(bytes.count - 1))
                bytes[at] = rng.int(0...3) == 0 ? UInt8(truncatingIfNeeded: rng.next()) : [0x00, 0xFF, 0x20, 0x0A, 0x2D, 0x39][rng.int(0...5)]
            }
            do {
                let mesh = round % originals.count == 3 ? try MeshFile.parseOBJ(bytes) : try MeshFile.parsePLY(bytes)
                // Whatever was read is a valid mesh.
                #expect(mesh.vertices.allSatisfy(\.isFinite) && mesh.indices.allSatisfy { Int($0) < mesh.vertexCount })
                #expect(mesh.indices.count % 3 == 0 && (mesh.classes == nil || mesh.classes?.count == mesh.triangleCount))
                outcomes[0] += 1
            } catch {
                #expect(error.kind == .parse || error.kind == .format, "\(error.kind): \(error.message)")
                outcomes[1] += 1
            }
        }
        #expect(outcomes[0] > 0 && outcomes[1] > 0)
    }
}

// MARK: - Round trips and files

@Suite("Mesh files: round trips and loading")
struct MeshFileRoundTripTests {
    /// A random mesh whose coordinates span Float's whole finite range (random bit patterns) as well as
    /// ordinary values, with random triangles (some degenerate) and classes.
    static func randomMesh(seed: UInt64, vertices: Int, triangles: Int) -> MeshData {
        var rng = SplitMix64(seed: seed)
        var v: [Float] = []
        while v.count < 3 * vertices {
            if rng.int(0...1) == 0 {
                let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
                if f.isFinite { v.append(f) }
            } else {
                v.append(rng.float(-10...10))
            }
        }
        let indices = (0..<(3 * triangles)).map { _ in UInt32(rng.int(0...(vertices - 1))) }
        let classes = (0..<triangles).map { _ in UInt8(rng.int(0...7)) }
        return MeshData(vertices: v, indices: indices, classes: classes)
    }

    @Test("the same mesh through OBJ, ascii PLY and binary PLY reads back identically", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        let mesh = Self.randomMesh(seed: seed, vertices: 300, triangles: 500)
        let ascii = try MeshFile.parsePLY(asciiPLY(mesh))
        let binary = try MeshFile.parsePLY(binaryPLY(mesh))
        #expect(ascii == mesh)
        #expect(binary == mesh)
        #expect(ascii.vertices.map(\.bitPattern) == mesh.vertices.map(\.bitPattern))
        var unclassified = mesh
        unclassified.classes = nil
        let obj = try MeshFile.parseOBJ(objFile(mesh))
        #expect(obj == unclassified)
        #expect(try MeshFile.parsePLY(asciiPLY(unclassified)) == obj)
        #expect(try MeshFile.parsePLY(binaryPLY(unclassified)) == obj)
    }

    @Test("an empty mesh in every format")
    func emptyMesh() throws {
        let empty = MeshData(vertices: [], indices: [], classes: nil)
        #expect(try MeshFile.parseOBJ(objFile(empty)) == empty)
        #expect(try MeshFile.parsePLY(asciiPLY(empty)) == empty)
        #expect(try MeshFile.parsePLY(binaryPLY(empty)) == empty)
        #expect(empty.vertexCount == 0 && empty.triangleCount == 0)
    }

    @Test("load picks PLY by its magic line (LF or CRLF), else OBJ")
    func load() throws {
        let cases: [(String, [UInt8], MeshData)] = [
            ("binary.ply", binaryPLY(Cube.classifiedMesh), Cube.classifiedMesh),
            ("ascii-crlf.ply", PLYReaderTests.cubeASCII(lineEnd: "\r\n"), Cube.classifiedMesh),
            ("cube.obj", Array(OBJReaderTests.cubeOBJ.utf8), Cube.mesh),
            ("plyish.obj", Array("plywood 1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".utf8),
             MeshData(vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2])),
        ]
        for (name, bytes, expected) in cases {
            let path = temporaryPath(name)
            defer { unlink(path) }
            try FileIO.write(bytes, to: path)
            #expect(try MeshFile.load(path: path) == expected, "\(name)")
        }
    }

    @Test("load: a missing file is .io; parse errors carry the path and the line")
    func loadErrors() throws {
        let missing = "/nonexistent-fathom-dir/mesh.obj"
        expectError(.io, containing: [missing]) { () throws(FathomError) in _ = try MeshFile.load(path: missing) }

        let path = temporaryPath("bad.obj")
        defer { unlink(path) }
        try FileIO.write(Array("v 0 0 0\nf 1 2 3\n".utf8), to: path)
        expectError(.format, containing: [path, "line 2", "out of range"]) { () throws(FathomError) in _ = try MeshFile.load(path: path) }

        let ply = temporaryPath("bad.ply")
        defer { unlink(ply) }
        try FileIO.write(Array("ply\r\nformat binary_big_endian 1.0\r\nend_header\r\n".utf8), to: ply)
        expectError(.format, containing: [ply, "line 2", "not supported"]) { () throws(FathomError) in _ = try MeshFile.load(path: ply) }
    }

    @Test("load: a file of another kind, an empty file and a file without triangles are errors naming it")
    func loadRefusals() throws {
        let cases: [(String, String, FathomError.Kind, String)] = [
            ("notes.txt", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", .format, "not a mesh file"),
            ("empty.obj", "", .noData, "no triangles (0 vertices)"),
            ("points.obj", "v 0 0 0\nv 1 0 0\n", .noData, "no triangles (2 vertices)"),
            ("empty.ply", "", .parse, "the file is empty"),
            ("words.ply", "solid\n", .parse, "does not start with a 'ply' line"),
        ]
        for (name, text, kind, words) in cases {
            let path = temporaryPath(name)
            defer { unlink(path) }
            try FileIO.write(Array(text.utf8), to: path)
            expectError(kind, containing: [path, words]) { () throws(FathomError) in _ = try MeshFile.load(path: path) }
        }
    }
}
