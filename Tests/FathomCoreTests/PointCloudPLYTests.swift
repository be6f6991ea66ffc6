// Point clouds as PLY: the writer's exact bytes for a hand-made cloud, round trips in both encodings with
// every combination of optional arrays, files written here byte by byte (big-endian, doubles, extra
// properties and elements, a mesh), bounded reads of lying counts, every error with its kind and position;
// and mesh export: Mesh.vertices / indices / classes, and MeshData's OBJ and PLY read back by MeshFile.
import FathomCore
import Glibc
import Testing

private func temporaryPath(_ name: String) -> String { "/tmp/fathom-pointcloud-\(getpid())-\(name)" }

/// Bytes of a PLY written by hand.
private struct PLYBytes {
    var data: [UInt8] = []
    mutating func text(_ s: String) { data += Array(s.utf8) }
    mutating func f32(_ v: Float, bigEndian: Bool = false) { int(v.bitPattern, bigEndian: bigEndian) }
    mutating func f64(_ v: Double, bigEndian: Bool = false) { int(v.bitPattern, bigEndian: bigEndian) }
    mutating func int<T: FixedWidthInteger>(_ v: T, bigEndian: Bool = false) {
        withUnsafeBytes(of: bigEndian ? v.bigEndian : v.littleEndian) { data += $0 }
    }
}

private func sampleCloud(normals: Bool, colors: Bool, confidence: Bool) throws -> PointCloud {
    var rng = SplitMix64(seed: 11)
    var points = (0..<60).map { _ in rng.float(-20...20) }
    points[0] = -0.0; points[1] = 1e-40; points[2] = 3.4e38  // sign, a subnormal, a huge value
    let n = (0..<60).map { _ in rng.float(-1...1) }
    let c = (0..<60).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    let q = (0..<20).map { UInt8($0 % 3) }
    return try PointCloud(points: points, normals: normals ? n : nil, colors: colors ? c : nil, confidence: confidence ? q : nil)
}

/// Bit-for-bit equality of float arrays (so -0.0 and 0.0 differ).
private func sameBits(_ a: [Float]?, _ b: [Float]?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.map(\.bitPattern) == b.map(\.bitPattern)
}

@Suite("Point clouds as PLY")
struct PointCloudPLYTests {
    @Test("binary bytes of a hand-made cloud")
    func binaryBytes() throws {
        let cloud = try PointCloud(points: [1, 2, 3], normals: [0, 0, 1], colors: [10, 20, 30], confidence: [2])
        var expected = PLYBytes()
        expected.text("ply\nformat binary_little_endian 1.0\ncomment written by Fathom\nelement vertex 1\n"
                      + "property float x\nproperty float y\nproperty float z\nproperty float nx\nproperty float ny\nproperty float nz\n"
                      + "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar confidence\nend_header\n")
        for v: Float in [1, 2, 3, 0, 0, 1] { expected.f32(v) }
        expected.data += [10, 20, 30, 2]
        #expect(cloud.plyBytes(.binary) == expected.data)
    }

    @Test("ascii text of a hand-made cloud")
    func asciiText() throws {
        let cloud = try PointCloud(points: [1, -0.5, 0.1, 1e-5, 2, 3], colors: [1, 2, 3, 255, 0, 7])
        let text = String(decoding: cloud.plyBytes(.ascii), as: UTF8.self)
        #expect(text.hasSuffix("end_header\n1 -0.5 0.1 1 2 3\n1e-05 2 3 255 0 7\n"))
    }

    @Test("round trips: both encodings, every combination of optional arrays", arguments: 0..<8)
    func roundTrip(mask: Int) throws {
        let cloud = try sampleCloud(normals: mask & 1 != 0, colors: mask & 2 != 0, confidence: mask & 4 != 0)
        for encoding in [PointCloud.PLYEncoding.binary, .ascii] {
            let back = try PointCloud.parsePLY(cloud.plyBytes(encoding))
            #expect(sameBits(back.points, cloud.points))
            #expect(sameBits(back.normals, cloud.normals))
            #expect(back.colors == cloud.colors && back.confidence == cloud.confidence)
        }
    }

    @Test("files on disk: save and load, errors name the path")
    func files() throws {
        let path = temporaryPath("cloud.ply")
        defer { unlink(path) }
        let cloud = try sampleCloud(normals: true, colors: true, confidence: false)
        try cloud.savePLY(path: path, encoding: .ascii)
        #expect(try PointCloud.load(plyPath: path) == cloud)
        expectError(.io, containing: ["missing.ply"]) { () throws(FathomError) in _ = try PointCloud.load(plyPath: temporaryPath("missing.ply")) }
        try FileIO.write(Array(cloud.plyBytes(.binary).dropLast(5)), to: path)
        // Fixed-size records: the shortfall is found from the header's count, before reading.
        expectError(.parse, containing: [path, "line 4", "declares 20 records"]) { () throws(FathomError) in _ = try PointCloud.load(plyPath: path) }
        let bad = try PointCloud(points: [0, .nan, 0])
        expectError(.notFinite, containing: ["point 0"]) { () throws(FathomError) in try bad.savePLY(path: path) }
    }

    @Test("big-endian doubles, extra properties and elements, written byte by byte")
    func bigEndianAndExtras() throws {
        var b = PLYBytes()
        b.text("ply\nformat binary_big_endian 1.0\nelement info 1\nproperty list uint short values\nelement vertex 2\n"
               + "property uchar alpha\nproperty double x\nproperty float intensity\nproperty double y\nproperty double z\n"
               + "property double nx\nproperty double ny\nproperty double nz\nproperty uchar red\nproperty uchar green\n"
               + "property uchar blue\nproperty uchar confidence\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n")
        b.int(UInt32(2), bigEndian: true); b.int(Int16(-1), bigEndian: true); b.int(Int16(7), bigEndian: true)
        let xyz: [[Double]] = [[0.1, 0.2, 0.3], [-1e10, 4, 1.0 / 3]]
        for (i, p) in xyz.enumerated() {
            b.data.append(255)
            b.f64(p[0], bigEndian: true)
            b.f32(9.5, bigEndian: true)
            b.f64(p[1], bigEndian: true); b.f64(p[2], bigEndian: true)
            for v in [0.0, 0.6, 0.8] { b.f64(v, bigEndian: true) }
            b.data += [UInt8(i), 2, 3, 1]
        }
        b.data.append(3)
        for i: Int32 in [0, 1, 1] { b.int(i, bigEndian: true) }
        let cloud = try PointCloud.parsePLY(b.data)
        #expect(cloud.points == xyz.flatMap { $0.map { Float($0) } })  // doubles to the nearest float
        #expect(cloud.normals == [0, 0.6, 0.8, 0, 0.6, 0.8].map { Float($0) })
        #expect(cloud.colors == [0, 2, 3, 1, 2, 3] && cloud.confidence == [1, 1])
    }

    @Test("a mesh's PLY reads as the cloud of its vertices; an empty cloud")
    func meshAndEmpty() throws {
        let mesh = MeshData(vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2], classes: [4])
        #expect(try PointCloud.parsePLY(mesh.plyBytes()).points == mesh.vertices)
        let empty = try PointCloud(points: [])
        for encoding in [PointCloud.PLYEncoding.binary, .ascii] {
            #expect(try PointCloud.parsePLY(empty.plyBytes(encoding)).count == 0)
        }
    }

    @Test("header and body errors with kind and position")
    func errors() {
        let xyz = "property float x\nproperty float y\nproperty float z\n"
        let cases: [(String, FathomError.Kind, [String])] = [
            ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n1 2\n", .format, ["line 3", "no z"]),
            ("ply\nformat ascii 1.0\nelement vertex 1\n" + xyz + "property float nx\nend_header\n1 2 3 4\n", .format, ["nx", "no ny"]),
            ("ply\nformat ascii 1.0\nelement vertex 1\n" + xyz + "property ushort red\nproperty ushort green\nproperty ushort blue\n"
                + "end_header\n1 2 3 4 5 6\n", .format, ["line 7", "red must be uchar"]),
            ("ply\nformat ascii 1.0\nelement vertex 1\n" + xyz + "property float confidence\nend_header\n1 2 3 4\n", .format,
             ["confidence must be uchar"]),
            ("ply\nformat ascii 1.0\nelement vertex 1\nproperty list uchar float x\nproperty float y\nproperty float z\nend_header\n1 1 2 3\n",
             .format, ["x must be a scalar"]),
            ("ply\nformat ascii 1.0\nelement vertex 2\n" + xyz + "end_header\n1 2 3\ninf 0 0\n", .format, ["line 9", "vertex 1 is not finite"]),
            ("ply\nformat ascii 1.0\nelement vertex 1\n" + xyz + "property uchar red\nproperty uchar green\nproperty uchar blue\n"
                + "end_header\n1 2 3 4 5 -1\n", .format, ["blue -1"]),
            ("ply\nformat ascii 1.0\nelement vertex 2\n" + xyz + "end_header\n1.0000 2.0000 3.0000\n1.0000 2.0000 3.0000 4\n", .parse,
             ["line 9", "more values"]),
            ("ply\nformat ascii 1.0\nelement vertex 9999999\n" + xyz + "end_header\n1 2 3\n", .parse, ["line 3", "declares 9999999"]),
            ("ply\nformat binary_little_endian 1.0\nelement vertex 2\n" + xyz + "element vertex 1\n" + xyz + "end_header\n", .format,
             ["second vertex"]),
            ("ply\nformat ascii 2.0\nend_header\n", .format, ["version"]),
            ("plx\n", .parse, ["not a PLY"]),
        ]
        for (text, kind, fragments) in cases {
            expectError(kind, containing: fragments) { () throws(FathomError) in _ = try PointCloud.parsePLY(Array(text.utf8)) }
        }
    }
}

@Suite("Mesh export")
struct MeshExportTests {
    /// Five vertices (the last unused), a degenerate triangle, classes.
    static let data = MeshData(vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, -0.0, 1e-40, 3e38],
                               indices: [0, 1, 2, 1, 3, 2, 0, 1, 3], classes: [1, 2, 7])

    @Test("a mesh keeps its input: copied, borrowed, compact, from MeshData")
    func keepsInput() throws {
        let d = Self.data
        let made = try Mesh.make(from: d)
        #expect(sameBits(made.vertices, d.vertices) && made.indices == d.indices && made.triangleClasses == d.classes)
        #expect(made.data == d && made.exportBytes == 4 * (15 + 9))
        let compact = try Mesh.make(from: d, storage: .compact)
        #expect(compact.storage == .compact && compact.data == d && compact.exportBytes == 4 * 9)
        try d.vertices.withUnsafeBufferPointer { v in
            try d.indices.withUnsafeBufferPointer { i in
                let points = try PointBuffer(base: v.baseAddress!, count: 5, strideBytes: 12)
                for storage in [Mesh.Storage.copy, .borrow, .compact] {
                    let mesh = try Mesh(vertices: points, indices: i, classes: nil, storage: storage)
                    #expect(sameBits(mesh.vertices, d.vertices) && mesh.indices == d.indices && mesh.triangleClasses == nil)
                    #expect(mesh.exportBytes == (storage == .copy ? 96 : 36))
                }
            }
        }
    }

    @Test("OBJ and PLY read back exactly by MeshFile")
    func readBack() throws {
        let d = Self.data
        let ply = try MeshFile.parsePLY(d.plyBytes())
        #expect(sameBits(ply.vertices, d.vertices) && ply.indices == d.indices && ply.classes == d.classes)
        let obj = try MeshFile.parseOBJ(d.objBytes())
        #expect(sameBits(obj.vertices, d.vertices) && obj.indices == d.indices && obj.classes == nil)
        let text = String(decoding: MeshData(vertices: [1, 0.5, -2], indices: []).objBytes(), as: UTF8.self)
        #expect(text == "# written by Fathom: 1 vertices, 0 triangles\nv 1 0.5 -2\n")
        for name in ["m.ply", "m.OBJ"] {
            let path = temporaryPath(name)
            defer { unlink(path) }
            try d.save(path: path)
            let back = try MeshFile.load(path: path)
            #expect(sameBits(back.vertices, d.vertices) && back.indices == d.indices)
        }
    }

    @Test("refused: extensions, bad indices, classes, non-finite vertices")
    func refused() {
        expectError(.format, containing: ["m.stl", ".ply or .obj"]) { () throws(FathomError) in try Self.data.save(path: temporaryPath("m.stl")) }
        let cases: [(MeshData, FathomError.Kind, String)] = [
            (MeshData(vertices: [0, 0, 0], indices: [0, 0, 1]), .outOfRange, "triangle 0 has vertex index 1"),
            (MeshData(vertices: [0, 0, 0], indices: [0, 0, 0], classes: [8]), .outOfRange, "classes[0] = 8"),
            (MeshData(vertices: [0, 0, 0], indices: [0, 0, 0], classes: []), .outOfRange, "one per triangle"),
            (MeshData(vertices: [0, .infinity, 0], indices: []), .notFinite, "vertex 0"),
            (MeshData(vertices: [0, 0], indices: []), .outOfRange, "3 floats per vertex"),
        ]
        for (data, kind, fragment) in cases {
            expectError(kind, containing: [fragment]) { () throws(FathomError) in try data.validateForWriting() }
        }
    }
}
