import Glibc

extension MeshFile {
    /// Reads Wavefront OBJ text: `v x y z [w]` records (w and any further numbers, such as vertex
    /// colours, are ignored) and `f` records whose vertices are `i`, `i/t`, `i/t/n` or `i//n`, where the
    /// texture and normal slots may also be empty as exporters write them (`i/`, `i//`, `i/t/`), with
    /// 1-based indices or negative ones counting back from the last vertex read so far. Polygons are fanned
    /// into triangles (v0, vi, vi+1). Every other record (vt, vn, vp, o, g, s, usemtl, mtllib, l, ...),
    /// comments (`#`, also after a record's values) and blank lines are skipped; lines end with LF or CRLF. A
    /// record continues on the next line when its line ends with `\` (outside a comment). A UTF-8 byte-order
    /// mark at the start is skipped.
    ///
    /// Errors name the line: `.parse` for a malformed number or face vertex, a vertex with fewer than three
    /// coordinates, a face with fewer than three vertices, a NUL byte (not a text file); `.format` for a
    /// face index that is 0 or beyond the vertices read so far, and for a non-finite coordinate (including
    /// one beyond Float's range).
    ///
    /// Complexity: one pass, O(bytes); no index of the file is held beyond the output arrays.
    public static func parseOBJ(_ bytes: [UInt8]) throws(FathomError) -> MeshData {
        try bytes.withUnsafeBufferPointer { (whole: UnsafeBufferPointer<UInt8>) throws(FathomError) -> MeshData in
            // A UTF-8 byte-order mark is not part of the first record: read past it, or that line would be lost.
            let text = whole.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeBufferPointer(rebasing: whole[3...]) : whole
            var reader = OBJReader(text)
            try reader.read()
            return MeshData(vertices: reader.vertices, indices: reader.indices, classes: nil)
        }
    }
}

private struct OBJReader {
    var cursor: MeshFile.TextCursor
    var vertices: [Float] = []
    var indices: [UInt32] = []

    init(_ text: UnsafeBufferPointer<UInt8>) {
        cursor = MeshFile.TextCursor(text)
    }

    var text: UnsafeBufferPointer<UInt8> { cursor.text }

    func error(_ kind: FathomError.Kind, _ message: String) -> FathomError {
        FathomError(kind, "line \(cursor.line): \(message)")
    }

    mutating func read() throws(FathomError) {
        try rejectNUL()
        while !cursor.atEnd {
            if let record = value(), record.count == 1 {
                switch text[record.lowerBound] {
                case UInt8(ascii: "v"): try vertex()
                case UInt8(ascii: "f"): try face()
                default: break
                }
            }
            endRecord()
        }
    }

    /// Moves past the rest of the record: its values, continuation lines included.
    mutating func endRecord() {
        while value() != nil {}
        cursor.nextLine()
    }

    /// OBJ is text: a NUL byte means some other kind of file, which would otherwise read as an empty mesh.
    func rejectNUL() throws(FathomError) {
        guard let base = text.baseAddress, let found = memchr(base, 0, text.count) else { return }
        let offset = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
        let line = 1 + text[0..<offset].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        throw FathomError(.parse, "line \(line): a NUL byte (at byte offset \(offset)); an OBJ file is text")
    }

    /// The next value of the record, or nil at its end: the end of a line that does not end with `\`, or a
    /// comment. A `\` ending a line (alone, or the last byte of a value) joins the next line to the record.
    @inline(__always)
    mutating func value() -> Range<Int>? {
        while true {
            guard let token = cursor.token() else { return nil }
            if text[token.lowerBound] == UInt8(ascii: "#") {
                while cursor.token() != nil {}  // the comment runs to the end of the line, a final `\` too
                return nil
            }
            guard text[token.upperBound &- 1] == UInt8(ascii: "\\") else { return token }
            var probe = cursor
            guard probe.token() == nil else { return token }  // not the line's last value
            cursor.nextLine()
            if token.count > 1 { return token.lowerBound..<(token.upperBound &- 1) }
        }
    }

    mutating func vertex() throws(FathomError) {
        var p = SIMD3<Float>()
        for axis in 0..<3 {
            guard let token = value() else { throw error(.parse, "a vertex needs x, y and z") }
            guard let v = MeshFile.DecimalText.float(text, token) else {
                throw error(.parse, "\(cursor.quoted(token)) is not a number")
            }
            p[axis] = v
        }
        while let token = value() {  // w, or colours
            guard MeshFile.DecimalText.float(text, token) != nil else {
                throw error(.parse, "\(cursor.quoted(token)) is not a number")
            }
        }
        guard p.x.isFinite && p.y.isFinite && p.z.isFinite else {
            throw error(.format, "vertex \(vertices.count / 3 + 1) is not finite as a float: (\(p.x), \(p.y), \(p.z))")
        }
        vertices.append(p.x)
        vertices.append(p.y)
        vertices.append(p.z)
    }

    mutating func face() throws(FathomError) {
        let vertexCount = vertices.count / 3
        var n = 0
        var first: UInt32 = 0, previous: UInt32 = 0
        while let token = value() {
            let index = try faceIndex(token, vertexCount: vertexCount)
            switch n {
            case 0: first = index
            case 1: previous = index
            default:
                indices.append(first)
                indices.append(previous)
                indices.append(index)
                previous = index
            }
            n += 1
        }
        guard n >= 3 else { throw error(.parse, "a face needs at least 3 vertices, got \(n)") }
    }

    /// The 0-based vertex index of a face vertex `i`, `i/t` or `i/t/n`, either slot possibly empty (t and n are
    /// checked, not used).
    @inline(__always)
    func faceIndex(_ token: Range<Int>, vertexCount: Int) throws(FathomError) -> UInt32 {
        var slash = token.lowerBound
        while slash < token.upperBound && text[slash] != UInt8(ascii: "/") { slash &+= 1 }
        let indexText = token.lowerBound..<slash
        guard let value = MeshFile.DecimalText.integer(text, indexText),
              slash == token.upperBound || validTail(slash + 1..<token.upperBound) else {
            throw error(.parse, "malformed face vertex \(cursor.quoted(token)) (expected i, i/t, i//n or i/t/n)")
        }
        // 1-based, or negative: -1 is the last vertex read so far. Saturated values stay out of range.
        let resolved = value > 0 ? value - 1 : Int64(vertexCount) + value
        guard value != 0, resolved >= 0, resolved < Int64(vertexCount), resolved <= Int64(UInt32.max) else {
            throw error(.format, "face index \(cursor.string(indexText)) is out of range (\(vertexCount) vertices)")
        }
        return UInt32(truncatingIfNeeded: resolved)
    }

    /// After the first slash: `t` or `t/n`, where t and n are integers or empty.
    func validTail(_ tail: Range<Int>) -> Bool {
        func slot(_ range: Range<Int>) -> Bool { range.isEmpty || MeshFile.DecimalText.integer(text, range) != nil }
        var slash = tail.lowerBound
        while slash < tail.upperBound && text[slash] != UInt8(ascii: "/") { slash += 1 }
        if slash == tail.upperBound { return slot(tail) }
        return slot(tail.lowerBound..<slash) && slot((slash + 1)..<tail.upperBound)
    }
}
