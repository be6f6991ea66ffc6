/// A strict RFC 8259 syntax check. JSONDecoder is lenient (it takes trailing commas, for one), so text
/// is checked here first and errors give the byte offset. Numbers beyond the range of a Double are
/// valid syntax but unusable: they are reported as `.format`, naming the field.
enum JSONSyntax {
    /// Throws `.parse` with the byte offset of the first error.
    static func validate(_ bytes: [UInt8]) throws(FathomError) {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.atEnd else { throw reader.error("unexpected text after the JSON value") }
        if let rangeError = reader.rangeError { throw rangeError }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        /// Keys and indices leading to the current value, for messages.
        var path: [String] = []
        /// The first number beyond the range of a Double, thrown once the whole text is known to be JSON.
        var rangeError: FathomError?

        var pathText: String {
            let text = path.reduce(into: "") { $0 += $1.hasPrefix("[") || $0.isEmpty ? $1 : "." + $1 }
            return text.isEmpty ? "the top level" : text
        }

        var atEnd: Bool { offset >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[offset] }

        func error(_ message: String) -> FathomError {
            FathomError(.parse, atEnd ? "not valid JSON: the text ends early (\(message))" : "not valid JSON at byte \(offset): \(message)")
        }

        mutating func skipWhitespace() {
            while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { offset += 1 }
        }

        mutating func expect(_ c: UInt8, _ what: String) throws(FathomError) {
            guard peek == c else { throw error("expected \(what)") }
            offset += 1
        }

        mutating func value(depth: Int) throws(FathomError) {
            guard depth < 64 else { throw error("nested too deeply") }
            switch peek {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case .some(let c) where c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39): try number()
            // What other writers put where a number is (Python's json writes NaN and Infinity): said by name.
            case UInt8(ascii: "N"), UInt8(ascii: "I"):
                throw error("\(peek == UInt8(ascii: "N") ? "NaN" : "Infinity") is not a JSON number (JSON has no NaN or infinity)")
            default: throw error("expected a value")
            }
        }

        mutating func object(depth: Int) throws(FathomError) {
            offset += 1
            skipWhitespace()
            if peek == UInt8(ascii: "}") { offset += 1; return }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                let keyStart = offset + 1
                try string()
                path.append(String(decoding: bytes[keyStart..<(offset - 1)], as: UTF8.self))
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "':'")
                skipWhitespace()
                try value(depth: depth + 1)
                path.removeLast()
                skipWhitespace()
                if peek == UInt8(ascii: ",") { offset += 1; continue }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                return
            }
        }

        mutating func array(depth: Int) throws(FathomError) {
            offset += 1
            skipWhitespace()
            if peek == UInt8(ascii: "]") { offset += 1; return }
            var index = 0
            while true {
                skipWhitespace()
                path.append("[\(index)]")
                try value(depth: depth + 1)
                path.removeLast()
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: ",") { offset += 1; continue }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return
            }
        }

        mutating func string() throws(FathomError) {
            offset += 1
            while let c = peek {
                offset += 1
                switch c {
                case UInt8(ascii: "\""): return
                case UInt8(ascii: "\\"):
                    guard let e = peek else { throw error("unfinished escape") }
                    offset += 1
                    if e == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let h = peek, (h >= 0x30 && h <= 0x39) || (h | 0x20 >= 0x61 && h | 0x20 <= 0x66) else {
                                throw error("bad \\u escape")
                            }
                            offset += 1
                        }
                    } else if !"\"\\/bfnrt".utf8.contains(e) {
                        throw error("bad escape")
                    }
                case 0..<0x20: offset -= 1; throw error("control character in a string")
                default: break
                }
            }
            throw error("unterminated string")
        }

        mutating func literal(_ word: String) throws(FathomError) {
            for c in word.utf8 { try expect(c, "'\(word)'") }
        }

        mutating func number() throws(FathomError) {
            func digits(_ reader: inout Reader) -> Int {
                var n = 0
                while let c = reader.peek, c >= 0x30 && c <= 0x39 { reader.offset += 1; n += 1 }
                return n
            }
            let start = offset
            if peek == UInt8(ascii: "-") { offset += 1 }
            if peek == UInt8(ascii: "I") { throw error("-Infinity is not a JSON number (JSON has no NaN or infinity)") }
            if peek == UInt8(ascii: "0") {
                offset += 1
            } else if digits(&self) == 0 {
                throw error("expected a digit")
            }
            if peek == UInt8(ascii: ".") {
                offset += 1
                guard digits(&self) > 0 else { throw error("expected a digit after '.'") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                offset += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
                guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
            }
            let text = String(decoding: bytes[start..<offset], as: UTF8.self)
            // Valid syntax that no Double holds: the text's syntax is still checked to its end first, so that text
            // that is not JSON is always a parse error.
            if rangeError == nil, !(Double(text).map(\.isFinite) ?? false) {
                rangeError = FathomError(.format, "field \(pathText) holds \(text), beyond the range of a number")
            }
        }
    }
}
