// boundingbox.json: the written text (exact for a hand case, decoded independently for random boxes),
// round trips, and hand-written bad manifests for every error path (.parse, .format, .notABox, .io).
import FathomCore
import FoundationEssentials
import Glibc
import Testing

/// A minimal JSON tree for writing test manifests by hand, with edits by dotted path.
indirect enum JSON {
    case raw(String)
    case object([(String, JSON)])
    case array([JSON])

    static func number(_ v: Double) -> JSON { .raw("\(v)") }

    var text: String {
        switch self {
        case .raw(let s): return s
        case .object(let fields): return "{" + fields.map { "\"\($0.0)\":\($0.1.text)" }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        }
    }

    /// The tree with the value at `path` (keys joined by ".") replaced, or removed when `value` is nil.
    func replacing(_ path: [String], with value: JSON?) -> JSON {
        guard case .object(let fields) = self, let key = path.first else { return self }
        var out = [(String, JSON)]()
        for (k, v) in fields {
            if k != key { out.append((k, v)); continue }
            if path.count == 1 {
                if let value { out.append((k, value)) }
            } else {
                out.append((k, v.replacing(Array(path.dropFirst()), with: value)))
            }
        }
        return .object(out)
    }

    func replacing(_ path: String, with value: JSON?) -> JSON {
        replacing(path.split(separator: ".").map(String.init), with: value)
    }
}

/// The manifest of a box, written by the test from its own computation of the corners (Double).
func handManifest(center: SIMD3<Double>, scale: SIMD3<Double>, rotY: Double, floor: Double? = nil) -> JSON {
    func point(_ p: SIMD3<Double>) -> JSON { .object([("x", .number(p.x)), ("y", .number(p.y)), ("z", .number(p.z))]) }
    let r = DMatrix3.rotationY(rotY)
    let positions: [(String, JSON)] = zip(Box.cornerNames, Box.cornerSigns).map { name, sign in
        var corner = center + r * (SIMD3<Double>(sign) * scale / 2)
        if sign.y < 0, let floor { corner.y = max(corner.y, floor) }
        return (name, point(corner))
    }
    let identity = JSON.array((0..<4).map { c in .array((0..<4).map { r in .raw(c == r ? "1" : "0") }) })
    return .object([("center", point(center)), ("rad_rot_about_y", .number(rotY)),
                    ("positions", .object(positions)), ("entity_anchor_4x4", identity)])
}

/// An independent decoder of what the engine writes.
struct DecodedManifest: Decodable {
    struct P: Decodable { var x: Float, y: Float, z: Float }
    var center: P
    var rad_rot_about_y: Float
    var positions: [String: P]
    var entity_anchor_4x4: [[Float]]
}

func readManifest(_ text: String) throws(FathomError) -> Box {
    try Box(manifestJSON: Array(text.utf8))
}

@Suite("Manifest")
struct ManifestTests {
    static let leafPaths: [String] = ["center.x", "center.y", "center.z", "rad_rot_about_y"]
        + Box.cornerNames.flatMap { name in ["x", "y", "z"].map { "positions.\(name).\($0)" } }
    static let objectPaths: [String] = ["center", "positions", "entity_anchor_4x4"] + Box.cornerNames.map { "positions.\($0)" }

    static let sample = handManifest(center: SIMD3(0.5, 1, -2), scale: SIMD3(0.4, 0.6, 0.8), rotY: 0.3)

    @Test("the written text for a simple box, exactly: compact, the app's key order, integers without .0")
    func exactText() throws {
        let box = try Box(center: SIMD3(0, 1, 0), scale: SIMD3(2, 2, 2))
        let expected = #"{"center":{"x":0,"y":1,"z":0},"rad_rot_about_y":0,"positions":{"# +
            #""top_left_front":{"x":-1,"y":2,"z":-1},"top_right_front":{"x":1,"y":2,"z":-1},"# +
            #""bot_right_front":{"x":1,"y":0,"z":-1},"bot_left_front":{"x":-1,"y":0,"z":-1},"# +
            #""top_left_back":{"x":-1,"y":2,"z":1},"top_right_back":{"x":1,"y":2,"z":1},"# +
            #""bot_right_back":{"x":1,"y":0,"z":1},"bot_left_back":{"x":-1,"y":0,"z":1}},"# +
            #""entity_anchor_4x4":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}"#
        #expect(box.manifestJSON() == expected)
    }

    @Test("the written JSON decodes (independently) to the box's centre, angle, corners and an identity anchor")
    func writtenDecodes() throws {
        var rng = SplitMix64(seed: 60)
        for trial in 0..<200 {
            let floor: Float? = trial % 2 == 0 ? nil : rng.float(-1...1)
            let box = try Box(center: rng.vector(-100...100), scale: rng.vector(1e-3...20),
                              rotY: rng.float(-10...10), floor: floor)
            let text = box.manifestJSON()
            let decoded = try JSONDecoder().decode(DecodedManifest.self, from: Data(text.utf8))
            #expect(SIMD3(decoded.center.x, decoded.center.y, decoded.center.z) == box.center)
            #expect(decoded.rad_rot_about_y == box.rotY)
            #expect(decoded.positions.count == 8)
            for (name, corner) in zip(Box.cornerNames, box.corners) {
                let p = decoded.positions[name]
                #expect(p.map { SIMD3($0.x, $0.y, $0.z) } == corner, "\(name)")
            }
            #expect(decoded.entity_anchor_4x4 == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
            // Key order: center, rad_rot_about_y, positions (in corner order), entity_anchor_4x4.
            let keys = ["\"center\"", "\"rad_rot_about_y\"", "\"positions\""] + Box.cornerNames.map { "\"\($0)\"" }
                + ["\"entity_anchor_4x4\""]
            let offsets = keys.map { text.firstRange(of: $0)?.lowerBound }
            #expect(offsets.allSatisfy { $0 != nil })
            #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0! < $1! }, "keys out of order: \(text)")
        }
    }

    @Test("write -> read round trips: centre and angle exactly, scale within ulps, floor only when it clamps")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 61)
        for trial in 0..<400 {
            let center = rng.vector(-100...100), scale = rng.vector(0.1...20)
            let rotY = rng.float(-10...10)
            let bottom = center.y - scale.y / 2
            // None; below the bottom (no clamping); inside the box (clamps).
            let floor: Float? = [nil, bottom - rng.float(0.01...5), bottom + rng.float(0.05...0.9) * scale.y][trial % 3]
            let box = try Box(center: center, scale: scale, rotY: rotY, floor: floor)
            let back: Box
            do { back = try readManifest(box.manifestJSON()) } catch {
                Issue.record("reading back \(box) failed: .\(error.kind) \(error.message)")
                continue
            }
            #expect(back.center == box.center)
            #expect(back.rotY == box.rotY)
            let magnitude = maxAbs(center) + maxAbs(scale)
            #expect(close(back.scale, box.scale, 8 * ulp * magnitude), "\(back.scale) vs \(box.scale)")
            if trial % 3 == 2 {
                #expect(back.floor != nil, "a clamping floor was lost")
                if let f = back.floor, let g = box.floor { #expect(close(f, g, 2 * ulp * magnitude)) }
            } else {
                #expect(back.floor == nil, "a floor that clamps nothing was read back: \(String(describing: back.floor))")
            }
            for (a, b) in zip(back.corners, box.corners) { #expect(close(a, b, 16 * ulp * magnitude)) }
        }
    }

    @Test("any finite rot_y round trips (fathom_box: \"any finite value; not wrapped\")",
          arguments: [Float(-1e6), -12345.5, -200, 100, 1000, 1e4, 1e5, 3e7])
    func largeAngles(rotY: Float) throws {
        let box = try Box(center: SIMD3(1, 2, 3), scale: SIMD3(0.5, 1, 2), rotY: rotY)
        let back: Box
        do { back = try readManifest(box.manifestJSON()) } catch {
            Issue.record("rot_y \(rotY): .\(error.kind) \(error.message)")
            return
        }
        #expect(back.rotY == rotY && back.center == box.center)
        #expect(close(back.scale, box.scale, 64 * ulp))
    }

    @Test("reads a hand-written manifest (numbers as another writer prints them)")
    func handWritten() throws {
        for rotY in [0, 0.3, -1.2, 3.0, 7.5] {
            for floor: Double? in [nil, 0.9] {
                let json = handManifest(center: SIMD3(0.5, 1, -2), scale: SIMD3(0.4, 0.6, 0.8), rotY: rotY, floor: floor)
                let box = try readManifest(json.text)
                #expect(close(box.center, SIMD3(0.5, 1, -2), ulp))
                #expect(close(box.rotY, Float(rotY), 2 * ulp * 8))
                #expect(close(box.scale, SIMD3(0.4, 0.6, 0.8), 16 * ulp * 3))
                if let floor { #expect(close(box.floor ?? .nan, Float(floor), 2 * ulp)) } else { #expect(box.floor == nil) }
            }
        }
        // Whitespace, key order and extra spaces do not matter.
        let spaced = Self.sample.text.replacing(",", with: " ,\n ").replacing(":", with: " : ")
        #expect(try readManifest(spaced) == readManifest(Self.sample.text))
    }

    @Test("every proper prefix of a manifest (truncated text) is .parse, and so is other non-JSON")
    func truncated() {
        let text = Array(Self.sample.text.utf8)
        for n in 0..<text.count {
            do {
                _ = try Box(manifestJSON: text[0..<n])
                Issue.record("the first \(n) bytes were read as a box")
            } catch {
                #expect(error.kind == .parse, "first \(n) bytes, ending \"\(String(decoding: text[max(0, n - 24)..<n], as: UTF8.self))\": .\(error.kind) \(error.message)")
            }
        }
        for bad in ["not json", "{", "}", "{\"center\": }", "[1, 2", "{\"center\":{\"x\":1,}}", Self.sample.text + " x"] {
            expectError(.parse) { () throws(FathomError) in _ = try readManifest(bad) }
        }
        expectError(.parse) { () throws(FathomError) in _ = try Box(manifestJSON: [0xFF, 0xFE, 0x7B]) }
    }

    @Test("unknown fields are ignored, at every level")
    func unknownFields() throws {
        let expected = try readManifest(Self.sample.text)
        guard case .object(var top) = Self.sample else { return }
        top.append(("scale", .raw("{\"x\":1,\"y\":2,\"z\":3}")))
        top.insert(("app_version", .raw("\"2.1\"")), at: 0)
        var extended = JSON.object(top)
        extended = extended.replacing("center", with: .raw("{\"x\":0.5,\"w\":[],\"y\":1,\"z\":-2}"))
        #expect(try readManifest(extended.text) == expected)
    }

    @Test("text that is not UTF-8 JSON is .parse: NUL bytes, UTF-16, a byte-order mark")
    func notUTF8() {
        let text = Array(Self.sample.text.utf8)
        expectError(.parse) { () throws(FathomError) in _ = try Box(manifestJSON: text + [0]) }
        expectError(.parse) { () throws(FathomError) in _ = try Box(manifestJSON: [0] + text) }
        let utf16 = Array(Self.sample.text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        expectError(.parse) { () throws(FathomError) in _ = try Box(manifestJSON: [0xFF, 0xFE] + utf16) }
        expectError(.parse) { () throws(FathomError) in _ = try Box(manifestJSON: utf16) }
    }

    @Test("boxes of any size Float resolves round trip: from 10 micrometres to a kilometre")
    func sizes() throws {
        for center in [SIMD3<Float>(0, 0, 0), SIMD3(1, 1, 1), SIMD3(-3, 0.5, 2)] {
            for size: Float in [1e-5, 1e-4, 1e-3, 0.01, 1, 100, 1000] {
                // Extents at least ~1000 ulps of the coordinates: distinguishable from flat.
                guard size >= 1000 * ulp * maxAbs(center) else { continue }
                let box = try Box(center: center, scale: SIMD3(size, 2 * size, 3 * size), rotY: 0.4)
                let back: Box
                do { back = try readManifest(box.manifestJSON()) } catch {
                    Issue.record("size \(size) at \(center): .\(error.kind) \(error.message)")
                    continue
                }
                #expect(back.center == box.center && back.rotY == box.rotY && back.floor == nil)
                #expect(close(back.scale, box.scale, 16 * ulp * (maxAbs(center) + 3 * size)), "size \(size): \(back.scale)")
            }
        }
    }

    @Test("a missing field is .format, naming the field's path", arguments: leafPaths + objectPaths)
    func missingField(path: String) {
        let text = Self.sample.replacing(path, with: nil).text
        expectError(.format, containing: ["missing", path]) { () throws(FathomError) in _ = try readManifest(text) }
    }

    @Test("a mistyped field is .format", arguments: leafPaths + objectPaths)
    func mistypedField(path: String) {
        for wrong in ["\"1\"", "true", "null", "[1]", "{}"] {
            // A number field given a string, a bool, null, an array or an object; likewise object fields.
            let text = Self.sample.replacing(path, with: .raw(wrong)).text
            expectError(.format) { () throws(FathomError) in _ = try readManifest(text) }
        }
        if !Self.leafPaths.contains(path) {
            let text = Self.sample.replacing(path, with: .raw("1.5")).text
            expectError(.format) { () throws(FathomError) in _ = try readManifest(text) }
        }
    }

    @Test("a number that is not a finite Float is .format", arguments: leafPaths)
    func nonFiniteField(path: String) {
        for huge in ["1e39", "-1e39", "3.5e38"] {
            let text = Self.sample.replacing(path, with: .raw(huge)).text
            expectError(.format, containing: [path]) { () throws(FathomError) in _ = try readManifest(text) }
        }
    }

    @Test("a well-formed number beyond the Double range (1e400) is a non-finite field: .format naming it")
    func beyondDouble() {
        // RFC 8259's grammar accepts 1e400; the header's FATHOM_ERR_PARSE is for text that is not well-formed
        // JSON and FATHOM_ERR_FORMAT for "a missing, mistyped or non-finite field".
        for path in ["center.x", "rad_rot_about_y", "positions.bot_left_back.z"] {
            for huge in ["1e400", "-1e400"] {
                let text = Self.sample.replacing(path, with: .raw(huge)).text
                expectError(.format, containing: [path]) { () throws(FathomError) in _ = try readManifest(text) }
            }
        }
    }

    @Test("entity_anchor_4x4 must be 4 columns of 4 numbers forming the identity: otherwise .format")
    func anchor() {
        for c in 0..<4 {
            for r in 0..<4 {
                let columns = JSON.array((0..<4).map { cc in .array((0..<4).map { rr in
                    .raw(cc == c && rr == r ? (c == r ? "2" : "0.5") : (cc == rr ? "1" : "0")) }) })
                let text = Self.sample.replacing("entity_anchor_4x4", with: columns).text
                expectError(.format, containing: ["entity_anchor_4x4", "column \(c), row \(r)"]) { () throws(FathomError) in
                    _ = try readManifest(text)
                }
            }
        }
        let shapes = ["[]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0]]", "[[1,0,0],[0,1,0],[0,0,1],[0,0,0]]",
                      "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1],[0,0,0,0]]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,\"1\"]]",
                      "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"]
        for shape in shapes {
            let text = Self.sample.replacing("entity_anchor_4x4", with: .raw(shape)).text
            expectError(.format) { () throws(FathomError) in _ = try readManifest(text) }
        }
    }

    @Test("corners that are not the box of the stated centre and angle are .notABox")
    func notABox() throws {
        let center = SIMD3<Double>(0.5, 1, -2), scale = SIMD3<Double>(0.4, 0.6, 0.8)
        let good = handManifest(center: center, scale: scale, rotY: 0.3)
        _ = try readManifest(good.text)
        // One corner moved 1 cm sideways; the message names it when the others fix the box.
        let r = DMatrix3.rotationY(0.3)
        for (i, name) in Box.cornerNames.enumerated() {
            var corner = center + r * (SIMD3<Double>(Box.cornerSigns[i]) * scale / 2)
            corner.x += 0.01
            let moved = good.replacing("positions.\(name)", with: .object([
                ("x", .number(corner.x)), ("y", .number(corner.y)), ("z", .number(corner.z))]))
            let fragments = [0, 1, 4].contains(i) ? [] : [name]
            expectError(.notABox, containing: fragments) { () throws(FathomError) in _ = try readManifest(moved.text) }
        }
        // The angle disagrees with the corners.
        let turned = good.replacing("rad_rot_about_y", with: .number(0.4))
        expectError(.notABox, containing: ["rad_rot_about_y"]) { () throws(FathomError) in _ = try readManifest(turned.text) }
        // Left and right swapped (a mirror image).
        var mirrored = good
        for (a, b) in [("top_left_front", "top_right_front"), ("bot_left_front", "bot_right_front"),
                       ("top_left_back", "top_right_back"), ("bot_left_back", "bot_right_back")] {
            let pa = handCorner(center, scale, 0.3, Box.cornerNames.firstIndex(of: a)!)
            let pb = handCorner(center, scale, 0.3, Box.cornerNames.firstIndex(of: b)!)
            mirrored = mirrored.replacing("positions.\(a)", with: pb).replacing("positions.\(b)", with: pa)
        }
        expectError(.notABox) { () throws(FathomError) in _ = try readManifest(mirrored.text) }
        // All corners at the centre: no volume.
        var collapsed = good
        for name in Box.cornerNames {
            collapsed = collapsed.replacing("positions.\(name)", with: .object([
                ("x", .number(center.x)), ("y", .number(center.y)), ("z", .number(center.z))]))
        }
        expectError(.notABox) { () throws(FathomError) in _ = try readManifest(collapsed.text) }
        // The centre above the top corners (negative height).
        let above = good.replacing("center.y", with: .number(5))
        expectError(.notABox) { () throws(FathomError) in _ = try readManifest(above.text) }
        // A box tilted about x: not a yaw-only box.
        var tilted = good
        let tilt = DMatrix3.rotationY(0.3) * DMatrix3.rotationX(0.2)
        for (i, name) in Box.cornerNames.enumerated() {
            let p = center + tilt * (SIMD3<Double>(Box.cornerSigns[i]) * scale / 2)
            tilted = tilted.replacing("positions.\(name)", with: .object([("x", .number(p.x)), ("y", .number(p.y)), ("z", .number(p.z))]))
        }
        expectError(.notABox) { () throws(FathomError) in _ = try readManifest(tilted.text) }
    }

    func handCorner(_ center: SIMD3<Double>, _ scale: SIMD3<Double>, _ rotY: Double, _ i: Int) -> JSON {
        let p = center + DMatrix3.rotationY(rotY) * (SIMD3<Double>(Box.cornerSigns[i]) * scale / 2)
        return .object([("x", .number(p.x)), ("y", .number(p.y)), ("z", .number(p.z))])
    }

    @Test("the floor is recovered only when the bottom corners are clamped above the box's bottom")
    func floorRecovery() throws {
        let center = SIMD3<Double>(0, 1, 0), scale = SIMD3<Double>(1, 2, 1)  // bottom at 0
        for floor in [-1.0, -0.01, 0] {
            #expect(try readManifest(handManifest(center: center, scale: scale, rotY: 0.5, floor: floor).text).floor == nil)
        }
        for floor in [0.01, 0.5, 1.5] {
            let box = try readManifest(handManifest(center: center, scale: scale, rotY: 0.5, floor: floor).text)
            #expect(close(box.floor ?? .nan, Float(floor), 2 * ulp), "floor \(floor): \(String(describing: box.floor))")
            #expect(close(box.scale.y, 2, 4 * ulp * 2))
        }
    }

    @Test("save and load through a file; unreadable and unwritable paths are .io naming the path")
    func files() throws {
        var template = Array("/tmp/fathom-manifest-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { rmdir(dir) }
        let path = dir + "/boundingbox.json"
        defer { unlink(path) }
        let box = try Box(center: SIMD3(1, 2, 3), scale: SIMD3(0.5, 0.25, 2), rotY: 0.7, floor: 1.9)
        try box.saveManifest(to: path)
        #expect(try FileIO.read(path) == Array(box.manifestJSON().utf8))
        let back = try Box(manifestAt: path)
        #expect(back.center == box.center && back.rotY == box.rotY && back.floor != nil)
        // Saving again replaces the file.
        let other = try Box(center: .zero, scale: SIMD3(1, 1, 1))
        try other.saveManifest(to: path)
        #expect(try Box(manifestAt: path) == other)

        let missing = dir + "/missing.json"
        expectError(.io, containing: [missing]) { () throws(FathomError) in _ = try Box(manifestAt: missing) }
        let noDirectory = dir + "/no/such/dir/boundingbox.json"
        expectError(.io, containing: [noDirectory]) { () throws(FathomError) in try box.saveManifest(to: noDirectory) }
        expectError(.io, containing: [dir]) { () throws(FathomError) in _ = try FileIO.read(dir) }  // a directory
        // A truncated file is a parse error, an empty one too.
        try FileIO.write(Array(box.manifestJSON().utf8.prefix(40)), to: path)
        expectError(.parse) { () throws(FathomError) in _ = try Box(manifestAt: path) }
        try FileIO.write([], to: path)
        #expect(try FileIO.read(path) == [])
        expectError(.parse) { () throws(FathomError) in _ = try Box(manifestAt: path) }
    }

    @Test("FileIO round trips bytes larger than its read chunk")
    func fileIOLarge() throws {
        var template = Array("/tmp/fathom-fileio-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { rmdir(dir) }
        let path = dir + "/bytes.bin"
        defer { unlink(path) }
        var rng = SplitMix64(seed: 62)
        for count in [0, 1, 65535, 65536, 65537, 200_000] {
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            try FileIO.write(bytes, to: path)
            #expect(try FileIO.read(path) == bytes, "count \(count)")
        }
    }
}
