import Glibc

/// The capture app's `boundingbox.json`: centre, angle, the eight corners and an anchor matrix.
/// The scale is not stored; reading recovers it (and a clamping floor) from the corners.
extension Box {
    /// The manifest's JSON (compact, keys in the app's order: center, rad_rot_about_y, positions in
    /// corner order, entity_anchor_4x4). Numbers are the shortest text that reads back as the same
    /// Float, as JSONEncoder writes a Float.
    public func manifestJSON() -> String {
        let number = NumberText.float
        func point(_ p: SIMD3<Float>) -> String { "{\"x\":\(number(p.x)),\"y\":\(number(p.y)),\"z\":\(number(p.z))}" }
        let positions = zip(Box.cornerNames, corners).map { "\"\($0)\":\(point($1))" }.joined(separator: ",")
        return "{\"center\":\(point(center)),\"rad_rot_about_y\":\(number(rotY)),\"positions\":{\(positions)},"
            + "\"entity_anchor_4x4\":[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]}"
    }

    /// Reads a manifest. Throws `.parse` for text that is not JSON, `.format` for a missing, mistyped or
    /// non-finite field or a non-identity anchor, `.notABox` when the corners are not the box of the
    /// stated centre and angle.
    public init(manifestJSON text: some Collection<UInt8>) throws(FathomError) {
        let file = try ManifestFile(Array(text))
        try self.init(manifest: file)
    }

    private init(manifest file: ManifestFile) throws(FathomError) {
        let center = try file.center.vector("center")
        let angle = Float(file.rad_rot_about_y)
        guard angle.isFinite else {
            throw FathomError(.format, "field rad_rot_about_y holds \(file.rad_rot_about_y), beyond the range of a float (about 3.4e38)")
        }
        var corners = [SIMD3<Float>]()
        for (name, point) in zip(Box.cornerNames, file.positions) {
            corners.append(try point.vector("positions.\(name)"))
        }
        try Box.checkIdentity(file.entity_anchor_4x4)

        // Top corners are never clamped: they give the scale and the angle.
        // Corners are float sums: they are exact to a few ulps of the largest coordinate.
        let maxAbs = ([center] + corners).map { componentAbs($0).max() }.max() ?? 0
        let tolerance = 32 * Float.ulpOfOne * Swift.max(maxAbs, Float.leastNormalMagnitude)
        // In Double: the float length of a corner difference overflows beyond 1.8e19 m and underflows below 1e-19.
        let sx = Float(length(SIMD3<Double>(corners[1]) - SIMD3<Double>(corners[0])))
        let sz = Float(length(SIMD3<Double>(corners[4]) - SIMD3<Double>(corners[0])))
        let sy = 2 * (corners[0].y - center.y)
        guard sx > tolerance, sy > tolerance, sz > tolerance else {
            throw FathomError(.notABox, "the corners span no volume at float precision (extents \(sx), \(sy), \(sz) from top_left_front)")
        }
        let xAxis = corners[1] - corners[0]
        let cornerAngle = atan2(-xAxis.z, xAxis.x)
        // In Double: rot_y is not wrapped, and near 1e5 a Float's spacing (and Float 2 pi's error per
        // turn) would exceed the tolerance.
        let difference = Float(abs(remainder(Double(cornerAngle) - Double(angle), 2 * Double.pi)))
        guard difference <= 1e-3 + tolerance / sx else {
            throw FathomError(.notABox, "the corners are turned by \(cornerAngle) rad about y, but rad_rot_about_y is \(angle)")
        }
        // Bottom corners raised above the unclamped bottom reveal the floor.
        let bottomY = [2, 3, 6, 7].map { corners[$0].y }
        let meanBottom = bottomY.reduce(0) { $0 + $1 / 4 }
        let floor: Float? = meanBottom > center.y - sy / 2 + tolerance ? meanBottom : nil
        // A box the file's numbers describe but the floats cannot hold is a bad field of the file.
        let box: Box
        do throws(FathomError) { box = try Box(center: center, scale: SIMD3(sx, sy, sz), rotY: angle, floor: floor) } catch {
            throw FathomError(error.kind == .notFinite ? .format : error.kind, error.message)
        }

        let expected = box.corners
        var worst = (index: 0, distance: Float(0))
        for i in 0..<8 {
            let d = length(expected[i] - corners[i])
            if d > worst.distance { worst = (i, d) }
        }
        guard worst.distance <= tolerance else {
            throw FathomError(.notABox, "the corners do not form a box rotated about y: \(Box.cornerNames[worst.index]) is \(worst.distance) m from where the other corners put it")
        }
        self = box
    }

    private static func checkIdentity(_ m: [[Double]]) throws(FathomError) {
        guard m.count == 4, m.allSatisfy({ $0.count == 4 }) else {
            throw FathomError(.format, "entity_anchor_4x4 must be 4 columns of 4 numbers")
        }
        for c in 0..<4 { for r in 0..<4 where abs(m[c][r] - (c == r ? 1 : 0)) > 1e-6 {
            throw FathomError(.format, "entity_anchor_4x4 must be the identity (the app always writes it so); got \(m[c][r]) at column \(c), row \(r)")
        } }
    }

    /// Writes the manifest to `path` (created or replaced).
    public func saveManifest(to path: String) throws(FathomError) {
        try FileIO.write(Array(manifestJSON().utf8), to: path)
    }

    /// Reads the manifest at `path`.
    public init(manifestAt path: String) throws(FathomError) {
        let bytes = try FileIO.read(path, limit: 16 << 20)
        do {
            try self.init(manifestJSON: bytes)
        } catch {
            throw FathomError(error.kind, "'\(path)': \(error.message)")
        }
    }
}

/// The manifest's fields (names as the app writes them), read in one pass; other keys are ignored.
struct ManifestFile {
    struct Point {
        var x: Double, y: Double, z: Double

        init(_ r: inout JSONReader) throws(FathomError) {
            var x: Double?, y: Double?, z: Double?
            try r.object { (r: inout JSONReader, key: JSONKey) throws(FathomError) in
                switch key {
                case "x": x = try r.double()
                case "y": y = try r.double()
                case "z": z = try r.double()
                default: break
                }
            }
            guard let x, let y, let z else {
                throw try r.formatError("missing field \(r.pathText).\(x == nil ? "x" : y == nil ? "y" : "z")")
            }
            (self.x, self.y, self.z) = (x, y, z)
        }

        func vector(_ name: String) throws(FathomError) -> SIMD3<Float> {
            for (axis, value) in zip(["x", "y", "z"], [x, y, z]) where !Float(value).isFinite {
                throw FathomError(.format, "field \(name).\(axis) holds \(value), beyond the range of a float (about 3.4e38)")
            }
            return SIMD3(Float(x), Float(y), Float(z))
        }
    }

    var center: Point
    var rad_rot_about_y: Double
    /// In `Box.cornerNames` order.
    var positions: [Point]
    var entity_anchor_4x4: [[Double]]

    init(_ bytes: [UInt8]) throws(FathomError) {
        self = try JSONReader.read(bytes) { (r: inout JSONReader) throws(FathomError) in
            var center: Point?, angle: Double?, corners: [String: Point]?, anchor: [[Double]]?
            try r.object { (r: inout JSONReader, key: JSONKey) throws(FathomError) in
                switch key {
                case "center": center = try Point(&r)
                case "rad_rot_about_y": angle = try r.double()
                case "positions":
                    var found = [String: Point]()
                    try r.object { (r: inout JSONReader, key: JSONKey) throws(FathomError) in
                        if Box.cornerNames.contains(key.text) { found[key.text] = try Point(&r) }
                    }
                    corners = found
                case "entity_anchor_4x4":
                    var columns = [[Double]]()
                    try r.array { (r: inout JSONReader, _: Int) throws(FathomError) in
                        var column = [Double]()
                        try r.array { (r: inout JSONReader, _: Int) throws(FathomError) in column.append(try r.double()) }
                        columns.append(column)
                    }
                    anchor = columns
                default: break
                }
            }
            guard let center else { throw try r.formatError("missing field center") }
            guard let angle else { throw try r.formatError("missing field rad_rot_about_y") }
            guard let corners else { throw try r.formatError("missing field positions") }
            guard let anchor else { throw try r.formatError("missing field entity_anchor_4x4") }
            var points = [Point]()
            for name in Box.cornerNames {
                guard let point = corners[name] else { throw try r.formatError("missing field positions.\(name)") }
                points.append(point)
            }
            return ManifestFile(center: center, rad_rot_about_y: angle, positions: points, entity_anchor_4x4: anchor)
        }
    }

    private init(center: Point, rad_rot_about_y: Double, positions: [Point], entity_anchor_4x4: [[Double]]) {
        (self.center, self.rad_rot_about_y, self.positions, self.entity_anchor_4x4) = (center, rad_rot_about_y, positions, entity_anchor_4x4)
    }
}
