// NeRF-style transforms.json: hand-written files (row-major matrices) against hand-derived poses and
// intrinsics, the intrinsics' fallbacks, timestamps, repair of nearly rigid matrices, the writer's text read
// back exactly, and errors naming the frame and the key.
import FathomCore
import Glibc
import Testing

private func parse(_ text: String) throws(FathomError) -> TransformsFile { try TransformsFile.parse(Array(text.utf8)) }

private let identityRows = "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]"

@Suite("transforms.json")
struct TransformsFileTests {
    @Test("row-major matrices, shared and per-frame intrinsics, file paths")
    func reads() throws {
        // Frame 1: 90 degrees about +y, so camera +x maps to world -z (column 0 = (0, 0, -1)), at (4, 5, 6).
        let file = try parse("""
            {"w": 1920, "h": 1440, "fl_x": 1600.5, "fl_y": 1601, "cx": 950, "cy": 700, "camera_model": "OPENCV", "k1": 0.1,
             "frames": [
               {"file_path": "images/0.png", "transform_matrix": \(identityRows)},
               {"file_path": "images/1.png", "fl_x": 800, "w": 960, "sharpness": 30.5,
                "transform_matrix": [[0,0,1,4],[0,1,0,5],[-1,0,0,6],[0,0,0,1]]}
             ]}
            """)
        #expect(file.frames.count == 2 && file.repaired == 0)
        #expect(file.frames[0].pose == .identity)
        let p = file.frames[1].pose
        #expect(p.rotation.c0 == SIMD3(0, 0, -1) && p.rotation.c2 == SIMD3(1, 0, 0) && p.translation == SIMD3(4, 5, 6))
        #expect(file.frames[0].intrinsics == (try Intrinsics(fx: 1600.5, fy: 1601, cx: 950, cy: 700, width: 1920, height: 1440)))
        #expect(file.frames[1].intrinsics == (try Intrinsics(fx: 800, fy: 1601, cx: 950, cy: 700, width: 960, height: 1440)))
        #expect(file.frames.map(\.filePath) == ["images/0.png", "images/1.png"])
    }

    @Test("fallbacks: camera_angle_x, fl_y = fl_x, the image centre")
    func fallbacks() throws {
        let angle = 0.8575560450553894
        let file = try parse("""
            {"w": 800, "h": 600, "camera_angle_x": \(angle), "frames": [{"transform_matrix": \(identityRows)},
              {"camera_angle_y": 1.0, "transform_matrix": \(identityRows)}]}
            """)
        let k = file.frames[0].intrinsics
        let fx = Float(0.5 * 800 / tan(angle / 2))
        #expect(k.fx == fx && k.fy == fx && k.cx == 400 && k.cy == 300)
        #expect(file.frames[1].intrinsics.fy == Float(0.5 * 600 / tan(0.5)))
        #expect(file.frames[0].filePath == nil)
    }

    @Test("timestamps: frame indices, or round(i * 1e9 / rate)")
    func timestamps() throws {
        #expect(try TransformsFile.timestamps(count: 4, rate: nil) == [0, 1, 2, 3])
        #expect(try TransformsFile.timestamps(count: 4, rate: 30) == [0, 33_333_333, 66_666_667, 100_000_000])
        #expect(try TransformsFile.timestamps(count: 3, rate: 0.5) == [0, 2_000_000_000, 4_000_000_000])
        #expect(try TransformsFile.timestamps(count: 0, rate: 30) == [])
        expectError(.outOfRange, containing: ["rate"]) { () throws(FathomError) in _ = try TransformsFile.timestamps(count: 2, rate: -1) }
        expectError(.notFinite, containing: ["rate"]) { () throws(FathomError) in _ = try TransformsFile.timestamps(count: 2, rate: .nan) }
        expectError(.overflow) { () throws(FathomError) in _ = try TransformsFile.timestamps(count: 2, rate: 1e-12) }
    }

    @Test("nearly rigid matrices are re-orthonormalized; others refused naming the frame")
    func rigidity() throws {
        // A rotation about z by 0.3 rad with its entries rounded to 3 decimals (off by up to 5e-4).
        let c = (cos(0.3) * 1000).rounded() / 1000, s = (sin(0.3) * 1000).rounded() / 1000
        let file = try parse("""
            {"w": 4, "h": 4, "fl_x": 2, "frames": [{"transform_matrix": [[\(c),\(-s),0,1],[\(s),\(c),0,2],[0,0,1,3],[0,0,0,1]]}]}
            """)
        #expect(file.repaired == 1)
        let r = file.frames[0].pose.rotation
        #expect(abs(r.c0.x - Float(cos(0.3))) < 1e-3 && abs(r.c0.y - Float(sin(0.3))) < 1e-3)
        #expect(r.rotationDeviation < 1e-6)
        #expect(file.frames[0].pose.translation == SIMD3(1, 2, 3))
        expectError(.notRigid, containing: ["frame 1 (frames[1].transform_matrix)"]) { () throws(FathomError) in
            _ = try parse("""
                {"w": 4, "h": 4, "fl_x": 2, "frames": [{"transform_matrix": \(identityRows)},
                  {"transform_matrix": [[2,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}
                """)
        }
        expectError(.notRigid, containing: ["frame 0", "reflection"]) { () throws(FathomError) in
            _ = try parse("""
                {"w": 4, "h": 4, "fl_x": 2, "frames": [{"transform_matrix": [[-1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}
                """)
        }
    }

    @Test("written text reads back exactly; shared or per-frame intrinsics")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 5)
        let shared = try Intrinsics(fx: 1500.25, fy: 1499.75, cx: 960.5, cy: 719.5, width: 1920, height: 1440)
        var frames = [TransformsFile.Frame]()
        for i in 0..<6 {
            let pose = Pose(rotation: rng.rotation().matrix, translation: rng.vector(-3...3))
            frames.append(.init(pose: pose, intrinsics: shared, filePath: i == 2 ? nil : "img/\(i) \"q\"\\\n.png"))
        }
        for perFrame in [false, true] {
            var file = TransformsFile(frames: frames)
            if perFrame { file.frames[3].intrinsics = try shared.scaled(width: 960, height: 720) }
            let text = String(decoding: file.jsonBytes(), as: UTF8.self)
            #expect(text.hasPrefix("{\n  \"w\": 1920") == !perFrame)
            let back = try TransformsFile.parse(file.jsonBytes())
            #expect(back.frames == file.frames && back.repaired == 0)
        }
        let empty = try TransformsFile.parse(TransformsFile(frames: []).jsonBytes())
        #expect(empty.frames.isEmpty)
    }

    @Test("errors name the frame and the key")
    func errors() {
        let cases: [(String, FathomError.Kind, [String])] = [
            ("{\"w\": 4, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": \(identityRows)}, {}]}", .format,
             ["missing field frames[1].transform_matrix"]),
            ("{\"w\": 4, \"h\": 4, \"fl_x\": 2}", .format, ["missing field frames"]),
            ("{\"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": \(identityRows)}]}", .format, ["frame 0: no w"]),
            ("{\"w\": 4, \"h\": 4, \"frames\": [{\"transform_matrix\": \(identityRows)}]}", .format, ["frame 0: no fl_x"]),
            ("{\"w\": 4, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"fl_y\": \"x\", \"transform_matrix\": \(identityRows)}]}", .format,
             ["frames[0].fl_y must be a number"]),
            ("{\"w\": 4.5, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": \(identityRows)}]}", .format,
             ["frame 0: field w must be a whole number"]),
            ("{\"w\": 4, \"h\": 4, \"fl_x\": 0, \"frames\": [{\"transform_matrix\": \(identityRows)}]}", .format, ["frame 0: fl_x must be > 0"]),
            ("{\"w\": 4, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": [[1,0,0,0],[0,1,0,0],[0,0,1,0]]}]}", .format,
             ["frames[0].transform_matrix must be 4 rows of 4 numbers, found 3 rows"]),
            ("{\"w\": 4, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": [[1,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}", .format,
             ["field frames[0].transform_matrix[0] must hold 4 numbers, found 3"]),
            ("{\"w\": 4, \"h\": 4, \"fl_x\": 2, \"frames\": [{\"transform_matrix\": [[1,0,0,1e39],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}]}",
             .format, ["field frames[0].transform_matrix[0][3] holds 1e39, beyond the range of a float"]),
            ("{\"w\": 4, \"h\": 4, \"camera_angle_x\": 3.5, \"frames\": [{\"transform_matrix\": \(identityRows)}]}", .format,
             ["camera_angle_x must be a field of view"]),
            ("{\"frames\": [", .parse, ["the text ends early at line 1, byte 12"]),
            ("{\"frames\": [],\n \"w\": 4,}", .parse, ["not valid JSON at line 2, byte 23: expected a quoted key, found '}'"]),
        ]
        for (text, kind, fragments) in cases {
            expectError(kind, containing: fragments) { () throws(FathomError) in _ = try parse(text) }
        }
        expectError(.io) { () throws(FathomError) in _ = try TransformsFile.load(path: "/nonexistent/transforms.json") }
    }
}
