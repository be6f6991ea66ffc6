import Glibc

/// A strict RFC 8259 JSON reader that decodes as it reads, for the files a scan is made of (camera info lines,
/// metadata, transforms.json) and the syntax check of every other JSON text the library reads.
///
/// Nothing is built but what the caller keeps: members are handed to a closure by key, values read straight into
/// numbers and strings, the rest skipped (and still checked). Text is UTF-8 without a byte-order mark; NaN,
/// Infinity, trailing commas, comments and nesting deeper than 64 are refused.
///
/// Errors name the line, the byte offset in the file and what was found: `.parse` for text that is not JSON,
/// `.format` for JSON that does not fit (a missing or mistyped field, named by its path: `streams[2].resolution`).
/// A format error is reported only once the whole text is known to be JSON, so that text that is not JSON is
/// always a parse error, wherever its first fault lies.
struct JSONReader {
    /// The whole file (offsets in messages count from its start).
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The text read: `bytes[range]` (a line of a file, or all of it).
    private let range: Range<Int>
    /// The byte being read (an offset into the whole of `bytes`).
    private(set) var offset: Int
    /// The path of the value being read, kept as cheaply as it can be and spelled out only for a message
    /// (`pathText`): slot k (k < `depth`) says where the value is within container k, the byte offset of its
    /// key's opening quote in an object, the bitwise complement of its index (a negative number) in an array.
    private let levels: UnsafeMutablePointer<Int>
    private var depth = 0
    /// Set for a syntax check: a number beyond the range of a Double is kept in `rangeError`, not thrown.
    private var checkingSyntaxOnly = false
    private var rangeError: FathomError?

    static let maxDepth = 64

    private init(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>, levels: UnsafeMutablePointer<Int>) {
        self.bytes = bytes
        self.range = range
        self.levels = levels
        offset = range.lowerBound
    }

    /// `body` with a reader of `bytes[range]` whose path slots live on the stack for the call.
    private static func withReader<T>(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>,
                                      _ body: (inout JSONReader) -> T) -> T {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: maxDepth) { levels in
            var reader = JSONReader(bytes, in: range, levels: levels.baseAddress.unsafelyUnwrapped)
            return body(&reader)
        }
    }

    /// Reads the one value `bytes[range]` holds (default: all of `bytes`) with `body`, then checks that nothing but
    /// whitespace follows it.
    static func read<T>(_ bytes: [UInt8], in range: Range<Int>? = nil,
                        _ body: (inout JSONReader) throws(FathomError) -> T) throws(FathomError) -> T {
        let result: Result<T, FathomError> = bytes.withUnsafeBufferPointer { all in
            do throws(FathomError) { return .success(try read(all, in: range, body)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `read` of bytes in memory the caller holds.
    static func read<T>(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>? = nil,
                        _ body: (inout JSONReader) throws(FathomError) -> T) throws(FathomError) -> T {
        let result: Result<T, FathomError> = withReader(bytes, in: range ?? 0..<bytes.count) { reader in
            do throws(FathomError) { return .success(try reader.document(body)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private mutating func document<T>(_ body: (inout JSONReader) throws(FathomError) -> T) throws(FathomError) -> T {
        skipWhitespace()
        let value = try body(&self)
        skipWhitespace()
        guard offset == range.upperBound else { throw syntaxError("unexpected text after the JSON value") }
        return value
    }

    /// Checks that the text is one JSON value and nothing else.
    static func validate(_ bytes: [UInt8]) throws(FathomError) {
        let result: Result<Void, FathomError> = bytes.withUnsafeBufferPointer { all in
            withReader(all, in: 0..<all.count) { reader in
                do throws(FathomError) {
                    try reader.checkSyntax()
                    return reader.rangeError.map { .failure($0) } ?? .success(())
                } catch {
                    return .failure(error)
                }
            }
        }
        try result.get()
    }

    private mutating func checkSyntax() throws(FathomError) {
        checkingSyntaxOnly = true
        try document { (r: inout JSONReader) throws(FathomError) in try r.skip() }
    }

    // MARK: - Containers

    /// An object: `member` is called with each key and must read (or skip) its value; a value it leaves
    /// unread is skipped. A key given twice is handed over twice (the last value wins where the caller keeps one).
    mutating func object(_ member: (inout JSONReader, JSONKey) throws(FathomError) -> Void) throws(FathomError) {
        guard peek == UInt8(ascii: "{") else { throw try mistyped("an object") }
        try enter()
        skipWhitespace()
        if peek == UInt8(ascii: "}") { offset += 1; depth -= 1; return }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw syntaxError("expected a quoted key") }
            let quote = offset
            let (keyStart, escaped) = try scanString()
            let keyText = keyStart..<(offset - 1)
            let key = JSONKey(raw: bytes[keyText], decoded: escaped ? decode(keyText) : nil)
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after the key")
            skipWhitespace()
            levels[depth - 1] = quote
            let start = offset
            try member(&self, key)
            if offset == start { try skip() }
            skipWhitespace()
            if peek == UInt8(ascii: ",") { offset += 1; continue }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            depth -= 1
            return
        }
    }

    /// An array: `element` is called with each index and must read (or skip) the element; one it leaves unread
    /// is skipped.
    mutating func array(_ element: (inout JSONReader, Int) throws(FathomError) -> Void) throws(FathomError) {
        guard peek == UInt8(ascii: "[") else { throw try mistyped("an array") }
        try enter()
        skipWhitespace()
        if peek == UInt8(ascii: "]") { offset += 1; depth -= 1; return }
        var index = 0
        while true {
            skipWhitespace()
            levels[depth - 1] = ~index
            let start = offset
            try element(&self, index)
            if offset == start { try skip() }
            index += 1
            skipWhitespace()
            if peek == UInt8(ascii: ",") { offset += 1; continue }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            depth -= 1
            return
        }
    }

    private mutating func enter() throws(FathomError) {
        guard depth < JSONReader.maxDepth else { throw syntaxError("nested deeper than \(JSONReader.maxDepth) levels") }
        depth += 1
        offset += 1
    }

    // MARK: - Values

    /// True (and the null consumed) when the value is null.
    mutating func null() throws(FathomError) -> Bool {
        guard peek == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// A string (escapes decoded).
    mutating func string() throws(FathomError) -> String {
        guard peek == UInt8(ascii: "\"") else { throw try mistyped("a string") }
        return try readString()
    }

    /// A number, as the nearest Double.
    mutating func double() throws(FathomError) -> Double {
        let number = try readNumber("a number")
        if let exact = number.exactDouble { return exact }
        return try slowDouble(number)
    }

    /// A number as a Float: exactly `Float(double())`, without the slow conversion that needs where it can.
    mutating func float() throws(FathomError) -> Float {
        let number = try readNumber("a number")
        if let near = number.nearDouble {
            // Up to 15 digits `near` is the nearest Double itself; beyond, it is within 2 ulps of it: if every Double
            // that close rounds to the same Float, so does the nearest one.
            if number.digits <= 15 || JSONReader.roundsAlike(near) { return try finiteFloat(Float(near), number) }
        }
        return try finiteFloat(Float(try slowDouble(number)), number)
    }

    /// Whether every Double within 2 ulps of `near` (2 steps of its bit pattern) rounds to the same Float as `near`.
    /// A Double becomes a Float by rounding off the 29 low bits of its significand, and the result changes only
    /// where those bits pass the halfway point 2^28 (ties to even: between 2^28 - 1 and 2^28, or 2^28 and 2^28 + 1),
    /// so they must be more than 2 from it. That holds for Floats of the normal range (a subnormal Float keeps
    /// fewer bits): below it, the answer is no.
    @inline(__always) private static func roundsAlike(_ near: Double) -> Bool {
        let low = near.bitPattern & 0x1FFF_FFFF
        return low &- (0x1000_0000 - 2) > 4 && near.magnitude >= 0x1p-125
    }

    /// A whole number in `bounds` (written with or without a fraction or exponent: 3, 3.0 and 3e0 are 3).
    mutating func integer(in bounds: ClosedRange<Int64> = Int64.min...Int64.max, _ what: String = "a whole number")
        throws(FathomError) -> Int64 {
        let number = try readNumber(what)
        if number.exponent == 0, !number.truncated {
            // At most 19 digits: the magnitude fits a UInt64.
            let magnitude = number.mantissa
            let value: Int64? = number.negative
                ? (magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : magnitude == UInt64(Int64.max) + 1 ? Int64.min : nil)
                : (magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil)
            if let value, bounds.contains(value) { return value }
        } else {
            // A fraction or exponent: whole only when the value is; exact within +-2^53.
            let value = try slowDouble(number)
            if value.rounded() == value, abs(value) <= 0x1p53, bounds.contains(Int64(value)) { return Int64(value) }
        }
        throw try formatError("field \(pathText) must be \(what) in \(bounds.lowerBound)...\(bounds.upperBound), found \(text(number))",
                              at: number.start)
    }

    /// An array of exactly `count` numbers as Floats (see `float`).
    mutating func floats(count: Int) throws(FathomError) -> [Float] {
        var failure: FathomError?
        let values = [Float](unsafeUninitializedCapacity: Swift.max(count, 1)) { buffer, initialized in
            do throws(FathomError) { try floats(count: count, into: buffer.baseAddress.unsafelyUnwrapped) } catch { failure = error }
            initialized = failure == nil ? count : 0
        }
        if let failure { throw failure }
        return values
    }

    /// An array of exactly `count` numbers as Floats (see `float`) into `out[0..<count]`.
    mutating func floats(count: Int, into out: UnsafeMutablePointer<Float>) throws(FathomError) {
        // `array` with its element inlined: this is the hot loop of poses and intrinsics.
        guard peek == UInt8(ascii: "[") else { throw try mistyped("an array") }
        let start = offset
        try enter()
        skipWhitespace()
        var found = 0
        if peek == UInt8(ascii: "]") {
            offset += 1
        } else {
            while true {
                skipWhitespace()
                levels[depth - 1] = ~found
                let value = try float()
                if found < count { out[found] = value }
                found += 1
                skipWhitespace()
                if peek == UInt8(ascii: ",") { offset += 1; continue }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                break
            }
        }
        depth -= 1
        guard found == count else {
            throw try formatError("field \(pathText) must hold \(count) numbers, found \(found)", at: start)
        }
    }

    /// Skips one value, checking its syntax.
    mutating func skip() throws(FathomError) {
        switch peek {
        case UInt8(ascii: "{"): try object { _, _ in }
        case UInt8(ascii: "["): try array { _, _ in }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try readNumber("a value")
        }
    }

    // MARK: - Errors

    /// The path of the value being read, for messages (`frames[3].transform_matrix`).
    var pathText: String {
        var text = ""
        for level in 0..<depth {
            let slot = levels[level]
            if slot < 0 { text += "[\(~slot)]" } else { text += (text.isEmpty ? "" : ".") + keyText(at: slot) }
        }
        return text.isEmpty ? "the top level" : text
    }

    /// The key whose opening quote is at `quote` (read before, so known to be a well-formed string), decoded.
    private func keyText(at quote: Int) -> String {
        var key = self
        key.offset = quote
        guard let scanned = try? key.scanString() else { return "" }
        let body = scanned.start..<(key.offset - 1)
        return scanned.escaped ? decode(body) : String(decoding: bytes[body], as: UTF8.self)
    }

    /// A `.format` error at byte `at` (default: the current offset), or the text's first syntax error if it has
    /// one (see the type's note).
    func formatError(_ message: String, at: Int? = nil) throws(FathomError) -> FathomError {
        let syntax: FathomError? = JSONReader.withReader(bytes, in: range) { syntax in
            do throws(FathomError) { try syntax.checkSyntax() } catch { return error }
            return nil
        }
        if let syntax { throw syntax }
        return FathomError(.format, "\(location(at ?? offset)): \(message)")
    }

    private mutating func mistyped(_ expected: String) throws(FathomError) -> FathomError {
        guard let c = peek, "{[\"tfn-0123456789".utf8.contains(c) else { return notAValue() }
        if c == UInt8(ascii: "-"), offset + 1 < range.upperBound, bytes[offset + 1] == UInt8(ascii: "I") { return notAValue() }
        return try formatError("field \(pathText) must be \(expected), found \(foundText)")
    }

    /// The error for text where a value should start: what other writers put there (Python's json writes NaN and
    /// Infinity) is said by name.
    private func notAValue() -> FathomError {
        let rest = bytes[offset..<range.upperBound]
        for name in ["NaN", "Infinity", "-Infinity"] where rest.starts(with: name.utf8) {
            return syntaxError("\(name) is not a JSON number (JSON has no NaN or infinity)")
        }
        return syntaxError("expected a value")
    }

    private func syntaxError(_ message: String) -> FathomError {
        if offset >= range.upperBound { return FathomError(.parse, "not valid JSON: the text ends early at \(location(offset)) (\(message))") }
        return FathomError(.parse, "not valid JSON at \(location(offset)): \(message), found \(foundText)")
    }

    /// "line L, byte B": the line in the file (from 1) and the byte offset from the file's start.
    private func location(_ at: Int) -> String {
        var line = 1
        for b in bytes[0..<Swift.min(at, bytes.count)] where b == 0x0A { line += 1 }
        return "line \(line), byte \(at)"
    }

    /// What the text holds at the current offset, for messages: a token, or a character.
    private var foundText: String {
        guard let c = peek else { return "the end of the text" }
        switch c {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), 0x30...0x39:
            var end = offset
            while end < range.upperBound, end - offset < 40, "+-.eE0123456789".utf8.contains(bytes[end]) { end += 1 }
            return String(decoding: bytes[offset..<end], as: UTF8.self)
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        default: return "byte 0x" + String(c, radix: 16, uppercase: true)
        }
    }

    // MARK: - Lexing

    private var peek: UInt8? { offset < range.upperBound ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while offset < range.upperBound {
            // Indented text (json.dumps(indent=2)) is mostly runs of spaces: eight at a time.
            if offset + 8 <= range.upperBound,
               UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + offset).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020 {
                offset += 8
                continue
            }
            let c = bytes[offset]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            offset += 1
        }
    }

    private mutating func expect(_ c: UInt8, _ what: String) throws(FathomError) {
        guard peek == c else { throw syntaxError("expected \(what)") }
        offset += 1
    }

    private mutating func literal(_ word: StaticString) throws(FathomError) {
        for i in 0..<word.utf8CodeUnitCount {
            guard peek == word.utf8Start[i] else { throw syntaxError("expected '\(word)'") }
            offset += 1
        }
    }

    /// Skips a string, checking its escapes and its UTF-8.
    private mutating func skipString() throws(FathomError) {
        _ = try scanString()
    }

    /// Reads a string, decoding its escapes.
    private mutating func readString() throws(FathomError) -> String {
        let (start, escaped) = try scanString()
        return escaped ? decode(start..<(offset - 1)) : String(decoding: bytes[start..<(offset - 1)], as: UTF8.self)
    }

    /// The text of a string's body (between its quotes) with its escapes decoded; its syntax was checked.
    private func decode(_ range: Range<Int>) -> String {
        let body = bytes[range]
        var scalars = String.UnicodeScalarView()
        var i = body.startIndex
        while i < body.endIndex {
            guard body[i] == UInt8(ascii: "\\") else {
                // An unescaped run: UTF-8 already checked.
                var j = i
                while j < body.endIndex, body[j] != UInt8(ascii: "\\") { j += 1 }
                scalars.append(contentsOf: String(decoding: body[i..<j], as: UTF8.self).unicodeScalars)
                i = j
                continue
            }
            let e = body[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var unit = JSONReader.hex(body, i)
                i += 4
                // A surrogate pair is one scalar; a lone surrogate (which UTF-16 text cannot hold) is U+FFFD.
                if (0xD800..<0xDC00).contains(unit), i + 6 <= body.endIndex, body[i] == UInt8(ascii: "\\"), body[i + 1] == UInt8(ascii: "u") {
                    let low = JSONReader.hex(body, i + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
            default: scalars.append(Unicode.Scalar(e))
            }
        }
        return String(scalars)
    }

    private static func hex(_ body: Slice<UnsafeBufferPointer<UInt8>>, _ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for c in body[at..<(at + 4)] {
            let digit = c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Moves past a string at `offset` (its opening quote): the offset of its first byte and whether it holds
    /// escapes.
    private mutating func scanString() throws(FathomError) -> (start: Int, escaped: Bool) {
        offset += 1
        let start = offset
        var escaped = false
        while offset < range.upperBound {
            // Most of a string is plain ASCII: eight bytes at a time while they are.
            if offset + 8 <= range.upperBound,
               JSONReader.plainASCII(UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + offset).loadUnaligned(as: UInt64.self)) {
                offset += 8
                continue
            }
            let c = bytes[offset]
            switch c {
            case UInt8(ascii: "\""):
                offset += 1
                return (start, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                offset += 1
                guard let e = peek else { throw syntaxError("unfinished escape") }
                if e == UInt8(ascii: "u") {
                    for k in 1...4 {
                        let at = offset + k
                        guard at < range.upperBound, JSONReader.isHexDigit(bytes[at]) else {
                            offset = Swift.min(at, range.upperBound)
                            throw syntaxError("expected 4 hex digits after \\u")
                        }
                    }
                    offset += 5
                } else {
                    guard "\"\\/bfnrt".utf8.contains(e) else { throw syntaxError("not an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)") }
                    offset += 1
                }
            case 0..<0x20:
                throw syntaxError("a control character in a string (write it as an escape)")
            case 0x80...:
                let length = JSONReader.utf8SequenceLength(bytes, offset, range.upperBound)
                guard length > 0 else { throw syntaxError("a string that is not UTF-8") }
                offset += length
            default:
                offset += 1
            }
        }
        throw syntaxError("unterminated string")
    }

    /// Whether none of the 8 bytes of `w` is a quote, a backslash, a control character or part of a multi-byte UTF-8
    /// sequence. Each term sets a byte's high bit where it finds one: below 0x20 (subtracting 0x20 wraps), a quote
    /// or a backslash (the difference is 0, and subtracting 1 wraps), 0x80 or above (the byte itself). A borrow
    /// between bytes starts only at a byte that is found, so it never hides one.
    @inline(__always) private static func plainASCII(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let found = (w &- 0x20 &* ones) | ((w ^ 0x22 &* ones) &- ones) | ((w ^ 0x5C &* ones) &- ones) | w
        return found & 0x8080_8080_8080_8080 == 0
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)
    }

    /// The length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlong forms, no surrogates, at most
    /// U+10FFFF), 0 when it is not one.
    private static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        let b0 = bytes[i]
        let length: Int, low: UInt8, high: UInt8
        switch b0 {
        case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
        case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
        case 0xED: (length, low, high) = (3, 0x80, 0x9F)
        case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
        case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
        case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
        default: return 0
        }
        guard i + length <= end, (low...high).contains(bytes[i + 1]) else { return 0 }
        for k in 2..<length where !(0x80...0xBF).contains(bytes[i + k]) { return 0 }
        return length
    }

    // MARK: - Numbers

    /// A number's text, `[start, end)`, and its value as digits: up to 19 significant digits in `mantissa`
    /// (`digits` of them; more digits are not kept and leave `truncated` set), times 10^`exponent`.
    private struct Number {
        var start = 0, end = 0
        var negative = false
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var truncated = false

        /// 10^0 ... 10^22, each exact in a Double (a literal, so the table needs no initialization at run time).
        static let powers: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

        /// The value when the Double arithmetic below is exact (Clinger's fast path: at most 15 digits, a power
        /// of ten that a Double holds exactly): the nearest Double.
        @inline(__always) var exactDouble: Double? {
            guard digits <= 15 else { return nil }
            return nearDouble
        }

        /// Within 2 ulps of the nearest Double (two roundings, each half an ulp) for up to 19 digits; the nearest
        /// Double itself (`exactDouble`) for up to 15.
        @inline(__always) var nearDouble: Double? {
            guard !truncated, exponent >= -22, exponent <= 22 else { return nil }
            // Up to 18 digits the mantissa is below 2^63, where the signed conversion (one instruction) rounds as the
            // unsigned one does.
            let m = digits <= 18 ? Double(Int64(truncatingIfNeeded: mantissa)) : Double(mantissa)
            let v = exponent >= 0 ? m * Number.powers[exponent] : m / Number.powers[-exponent]
            return negative ? -v : v
        }
    }

    /// 10^0 ... 10^8.
    private static let integerPowers: [UInt64] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// Reads a number (RFC 8259 grammar); anything else is a format error saying that `what` was expected, or
    /// a parse error if it is no JSON value at all.
    private mutating func readNumber(_ what: String) throws(FathomError) -> Number {
        guard let first = peek, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39),
              !(first == UInt8(ascii: "-") && offset + 1 < range.upperBound && bytes[offset + 1] == UInt8(ascii: "I")) else {
            throw try mistyped(what)
        }
        var n = Number()
        n.start = offset
        let (end, fault) = JSONReader.scanNumber(bytes, from: offset, to: range.upperBound, into: &n)
        offset = end
        if let fault { throw syntaxError(fault) }
        n.end = offset
        // Valid syntax that no Double holds (beyond about 1.8e308) is refused where it is read.
        if n.digits > 0, n.digits + n.exponent > 308, !(try slowDouble(n)).isFinite {
            let message = "field \(pathText) holds \(text(n)), beyond the range of a number (about 1.8e308)"
            guard checkingSyntaxOnly else { throw try formatError(message, at: n.start) }
            if rangeError == nil { rangeError = FathomError(.format, "\(location(n.start)): \(message)") }
        }
        return n
    }

    /// Scans the number at `start` (its first byte is '-' or a digit) into `n`: its digits, up to 19 significant
    /// ones, and its power of ten. Returns where it ends, or where and why its syntax fails.
    private static func scanNumber(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                   into n: inout Number) -> (Int, String?) {
        // The value is gathered in locals, which stay in registers, and stored into `n` once.
        var i = start
        var mantissa: UInt64 = 0, digits = 0, exponent = 0, truncated = false
        @inline(__always) func digit(at i: Int) -> UInt64? {
            guard i < end else { return nil }
            let d = p[i] &- 0x30
            return d < 10 ? UInt64(d) : nil
        }
        /// The digits from `i` on, each scaling the value by 10^`scale` (0 in the integer part, -1 in the fraction):
        /// up to 19 significant ones kept, the rest only counted. (The counts cannot overflow: they are bounded by
        /// the text's length.)
        @inline(__always) func digitRun(scale: Int) {
            while true {
                // Up to eight significant digits at once (SWAR: the 8 bytes as one little-endian word, the first byte
                // lowest), not from a leading zero (not significant).
                if i + 8 <= end, digits > 0 || p[i] != 0x30 {
                    let word = UInt64(littleEndian: UnsafeRawPointer(p.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self))
                    // A byte is a digit when its high nibble is 3 and adding 6 does not carry out of its low one (a carry
                    // out of the byte reaches only bytes after it, which are not taken): a zero byte of `other`.
                    let other = ((word & 0xF0F0_F0F0_F0F0_F0F0) | (((word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4))
                        ^ 0x3333_3333_3333_3333
                    let k = other.trailingZeroBitCount >> 3
                    guard k > 0 else { return }
                    if digits + k <= 19 {
                        // The k digits moved to the top of the word, below them zeros: an 8-digit number, combined
                        // pairwise.
                        var v = (word & 0x0F0F_0F0F_0F0F_0F0F) << (8 * (8 - k))
                        v = (v &* 2561) >> 8
                        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
                        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
                        mantissa = mantissa &* JSONReader.integerPowers[k] &+ (v & 0xFFFF_FFFF)
                        digits &+= k
                        exponent &+= k &* scale
                        i &+= k
                        if k < 8 { return }
                        continue
                    }
                }
                guard let d = digit(at: i) else { return }
                if digits < 19 {
                    // Leading zeros (of a fraction) are not significant.
                    if digits > 0 || d != 0 {
                        mantissa = mantissa &* 10 &+ d
                        digits &+= 1
                    }
                    exponent &+= scale
                } else {
                    if d != 0 { truncated = true }
                    exponent &+= 1 &+ scale
                }
                i &+= 1
            }
        }
        if p[i] == UInt8(ascii: "-") { n.negative = true; i += 1 }
        guard let lead = digit(at: i) else { return (i, "expected a digit") }
        if lead == 0 { i += 1 } else { digitRun(scale: 0) }
        if i < end, p[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(at: i) != nil else { return (i, "expected a digit after '.'") }
            digitRun(scale: -1)
        }
        if i < end, p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var sign = 1
            if i < end, p[i] == UInt8(ascii: "+") { i += 1 } else if i < end, p[i] == UInt8(ascii: "-") { sign = -1; i += 1 }
            guard digit(at: i) != nil else { return (i, "expected a digit in the exponent") }
            var e = 0
            while let d = digit(at: i) {
                e = Swift.min(e * 10 + Int(d), 1 << 20)
                i += 1
            }
            exponent += sign * e
        }
        n.mantissa = mantissa
        n.digits = digits
        n.exponent = exponent
        n.truncated = truncated
        return (i, nil)
    }

    /// The nearest Double to the number's text (the C library's conversion, which any number of digits takes).
    private func slowDouble(_ n: Number) throws(FathomError) -> Double {
        let value = String(decoding: bytes[n.start..<n.end], as: UTF8.self)
        guard let v = Double(value) else { throw syntaxError("not a number") }
        return v
    }

    private func finiteFloat(_ f: Float, _ n: Number) throws(FathomError) -> Float {
        guard f.isFinite else {
            throw try formatError("field \(pathText) holds \(text(n)), beyond the range of a float (about 3.4e38)", at: n.start)
        }
        return f
    }

    private func text(_ n: Number) -> String {
        let count = n.end - n.start
        let shown = bytes[n.start..<(n.start + Swift.min(count, 40))]
        return String(decoding: shown, as: UTF8.self) + (count > 40 ? "..." : "")
    }
}

/// An object's key as the reader hands it over: its bytes in the text, compared without making a String
/// (`case "timestamp":`), or its decoded text when it holds escapes.
struct JSONKey {
    fileprivate let raw: Slice<UnsafeBufferPointer<UInt8>>
    fileprivate let decoded: String?

    var text: String { decoded ?? String(decoding: raw, as: UTF8.self) }

    static func ~= (pattern: StaticString, key: JSONKey) -> Bool {
        if let decoded = key.decoded { return decoded == pattern.description }
        guard key.raw.count == pattern.utf8CodeUnitCount else { return false }
        guard let base = key.raw.base.baseAddress else { return pattern.utf8CodeUnitCount == 0 }
        return memcmp(base + key.raw.startIndex, pattern.utf8Start, pattern.utf8CodeUnitCount) == 0
    }
}
