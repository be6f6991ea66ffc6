import Glibc

/// Readers for triangle mesh files: Wavefront OBJ and PLY (ascii and binary little-endian).
///
/// Every reader checks what it reads: errors are `.parse` for text or data that is malformed or cut short,
/// `.format` for well-formed content that cannot be a mesh (an index out of range, a non-finite
/// coordinate, a missing x/y/z or vertex_indices property, big-endian PLY). Messages start with the
/// line (OBJ, PLY header, ascii PLY body) or the byte offset (binary PLY body) of the first problem.
/// No input traps, and no count read from a file allocates more than the file's size justifies.
public enum MeshFile {
    /// Reads the mesh file at `path`: PLY when it starts with "ply" and a line end, OBJ when its name ends in
    /// ".obj". `.io` when the file cannot be read; `.format` for a file that is neither (a ".ply" without the
    /// PLY line is `.parse`); `.noData` for a file without triangles (a ray cast at it could only miss);
    /// parse and format errors are prefixed with the path.
    public static func load(path: String) throws(FathomError) -> MeshData {
        let bytes = try FileIO.read(path)
        let name = path.lowercased()
        do throws(FathomError) {
            let mesh: MeshData
            if isPLY(bytes) {
                mesh = try parsePLY(bytes)
            } else if name.hasSuffix(".obj") {
                mesh = try parseOBJ(bytes)
            } else if name.hasSuffix(".ply") {
                throw FathomError(.parse, bytes.isEmpty ? "not a PLY file: the file is empty" : "not a PLY file: it does not start with a 'ply' line")
            } else {
                throw FathomError(.format, "not a mesh file: neither PLY (the first line 'ply') nor OBJ (a name ending in .obj)")
            }
            guard mesh.triangleCount > 0 else {
                throw FathomError(.noData, "no triangles (\(mesh.vertexCount) vertices): not a mesh to cast rays at")
            }
            return mesh
        } catch {
            throw FathomError(error.kind, "\(path): \(error.message)")
        }
    }

    /// True when `bytes` starts with the PLY magic line ("ply\n" or "ply\r\n").
    static func isPLY(_ bytes: [UInt8]) -> Bool {
        let magic: [UInt8] = [0x70, 0x6C, 0x79]  // "ply"
        guard bytes.count >= 4, bytes[0..<3].elementsEqual(magic) else { return false }
        return bytes[3] == 0x0A || (bytes[3] == 0x0D && bytes.count >= 5 && bytes[4] == 0x0A)
    }
}

// MARK: - Text scanning shared by the OBJ and ascii PLY readers

extension MeshFile {
    /// Walks text one line at a time. Tokens are runs of bytes between blanks (space, tab, CR) on a line;
    /// lines end at LF (a CR before it is a blank, so CRLF files read the same).
    struct TextCursor {
        let text: UnsafeBufferPointer<UInt8>
        var position: Int
        /// 1-based number of the line holding `position`.
        var line: Int

        init(_ text: UnsafeBufferPointer<UInt8>, position: Int = 0, line: Int = 1) {
            self.text = text
            self.position = position
            self.line = line
        }

        var atEnd: Bool { position >= text.count }

        @inline(__always)
        static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D }

        /// The next token on the current line, or nil at the end of the line (the cursor then stays on
        /// the LF, so a later call returns nil again until `nextLine`).
        @inline(__always)
        mutating func token() -> Range<Int>? {
            let n = text.count
            var i = position
            while i < n && Self.isBlank(text[i]) { i &+= 1 }
            guard i < n, text[i] != 0x0A else {
                position = i
                return nil
            }
            let start = i
            i &+= 1
            while i < n {
                let c = text[i]
                if c <= 0x20 && (Self.isBlank(c) || c == 0x0A) { break }
                i &+= 1
            }
            position = i
            return start..<i
        }

        /// Moves to the start of the next line (or the end of the text).
        mutating func nextLine() {
            let n = text.count
            guard position < n, let base = text.baseAddress else {
                position = Swift.max(position, n)
                return
            }
            if let found = memchr(base + position, 0x0A, n - position) {
                position = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base + 1
                line += 1
            } else {
                position = n
            }
        }

        /// The bytes of `range` as a String, for messages and header keywords.
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
        }

        /// The token for a message: quoted, and cut after 40 bytes.
        func quoted(_ range: Range<Int>) -> String {
            range.count <= 40 ? "'\(string(range))'" : "'\(string(range.lowerBound..<(range.lowerBound + 40)))...'"
        }
    }
}

// MARK: - Decimal numbers

extension MeshFile {
    /// Decimal text to numbers, without allocating, and the same in every locale (strtof follows LC_NUMERIC).
    enum DecimalText {
        /// The Float nearest to the decimal number that is exactly `text[range]` (`[+-]digits[.digits][e[+-]digits]`,
        /// either digit run may be empty but not both), or ±infinity / NaN for "inf", "infinity", "nan"
        /// (any case, optional sign); nil for anything else. Values beyond Float's range give ±infinity,
        /// values below half the least subnormal ±0.
        ///
        /// Fast path: up to 19 significant digits m and the exponent e give d = m * 10^e in Double
        /// (10^e from a table of correctly rounded powers). Each of Double(m), the power and the product
        /// rounds once, and digits dropped beyond the 19th change the value by less than 1e-18 relative,
        /// so d is within 4 ulps (of a Double) of the exact value. Rounding d to Float then gives the
        /// correctly rounded result unless d is that close to a midpoint between two floats (where
        /// rounding twice could differ from rounding once): a midpoint is a Double whose low 29 significand
        /// bits are exactly 1 << 28, so a window of +-16 ulps around it, and the subnormal and overflow
        /// ranges, go to the standard library's correctly rounded conversion instead.
        @inline(__always)
        static func float(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Float? {
            var i = range.lowerBound
            let end = range.upperBound
            guard i < end else { return nil }
            var negative = false
            if text[i] == 0x2D {
                negative = true
                i &+= 1
            } else if text[i] == 0x2B {
                i &+= 1
            }
            var mantissa: UInt64 = 0
            var digits = 0     // significant digits held in mantissa, at most 19
            var exponent = 0   // the number is mantissa * 10^exponent (before the exponent part)
            var sawDigit = false
            while i < end {
                let d = text[i] &- 0x30
                guard d < 10 else { break }
                sawDigit = true
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    if mantissa != 0 { digits &+= 1 }
                } else {
                    exponent &+= 1
                }
                i &+= 1
            }
            if i < end && text[i] == 0x2E {
                i &+= 1
                while i < end {
                    let d = text[i] &- 0x30
                    guard d < 10 else { break }
                    sawDigit = true
                    if digits < 19 {
                        mantissa = mantissa &* 10 &+ UInt64(d)
                        if mantissa != 0 { digits &+= 1 }
                        exponent &-= 1
                    }
                    i &+= 1
                }
            }
            guard sawDigit else { return special(text, i..<end, negative: negative) }
            if i < end && (text[i] | 0x20) == 0x65 {  // e or E
                i &+= 1
                var exponentNegative = false
                if i < end && text[i] == 0x2D {
                    exponentNegative = true
                    i &+= 1
                } else if i < end && text[i] == 0x2B {
                    i &+= 1
                }
                var value = 0
                var sawExponentDigit = false
                while i < end {
                    let d = text[i] &- 0x30
                    guard d < 10 else { break }
                    sawExponentDigit = true
                    if value < 1_000_000 { value = value &* 10 &+ Int(d) }
                    i &+= 1
                }
                guard sawExponentDigit else { return nil }
                exponent &+= exponentNegative ? -value : value
            }
            guard i == end else { return nil }
            if mantissa == 0 { return negative ? -0.0 : 0.0 }

            // The value lies in [10^(magnitude - 1), 10^magnitude).
            let magnitude = exponent &+ digits
            if magnitude > 40 { return negative ? -.infinity : .infinity }  // >= 1e40
            if magnitude < -46 { return negative ? -0.0 : 0.0 }            // < 1e-47, under half of 1.4e-45
            // Now exponent is in -65...39.
            var d = Double(mantissa)
            if exponent >= 0 {
                d *= powersOfTen[exponent]
            } else {
                d /= powersOfTen[-exponent]
            }
            if d >= Double(Float.leastNormalMagnitude) && d <= Double(Float.greatestFiniteMagnitude) {
                let low = d.bitPattern & 0x1FFF_FFFF
                if low &- 0x0FFF_FFF0 > 32 {
                    let f = Float(d)
                    return negative ? -f : f
                }
            }
            return slowFloat(text, range)
        }

        /// The standard library's conversion (strtof in the C locale, correctly rounded), for the rare
        /// numbers the fast path cannot settle. Only called on text that `float` has checked.
        @inline(never)
        static func slowFloat(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Float? {
            Float(String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self))
        }

        /// "inf", "infinity" or "nan" in any case (the sign already read), else nil.
        @inline(never)
        static func special(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, negative: Bool) -> Float? {
            guard range.count <= 8 else { return nil }
            let word = String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self).lowercased()
            switch word {
            case "inf", "infinity": return negative ? -.infinity : .infinity
            case "nan": return .nan
            default: return nil
            }
        }

        /// The integer that is exactly `text[range]` (`[+-]digits`), or nil. Magnitudes beyond 10^18
        /// saturate (stay above 10^18 without overflowing): every caller treats them as out of range.
        @inline(__always)
        static func integer(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int64? {
            var i = range.lowerBound
            let end = range.upperBound
            guard i < end else { return nil }
            var negative = false
            if text[i] == 0x2D {
                negative = true
                i &+= 1
            } else if text[i] == 0x2B {
                i &+= 1
            }
            guard i < end else { return nil }
            var value: Int64 = 0
            while i < end {
                let d = text[i] &- 0x30
                guard d < 10 else { return nil }
                if value <= 100_000_000_000_000_000 { value = value &* 10 &+ Int64(d) }
                i &+= 1
            }
            return negative ? -value : value
        }

        /// 10^k for k in 0...65, each the Double nearest to it (exact up to 10^22).
        static let powersOfTen: [Double] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
            1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32,
            1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39, 1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48,
            1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59, 1e60, 1e61, 1e62, 1e63, 1e64,
            1e65,
        ]
    }
}
