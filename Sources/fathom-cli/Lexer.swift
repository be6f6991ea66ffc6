/// Tokens of the REPL language, each with the 1-based column where it starts.
struct Token: Equatable {
    enum Kind: Equatable {
        case number(Double)
        case degrees(Double)   // `30deg`: converted to radians by the parser
        case identifier(String)
        case string(String)
        case symbol(Character) // ( ) [ ] , = + - * / .
        case end
    }
    let kind: Kind
    let column: Int
}

/// An error in a line, at a 1-based column.
struct ReplError: Error {
    let message: String
    let column: Int
}

/// Splits one line into tokens; `#` starts a comment.
func tokenize(_ line: String) throws(ReplError) -> [Token] {
    let chars = Array(line)
    var tokens = [Token]()
    var i = 0
    while i < chars.count {
        let c = chars[i]
        let column = i + 1
        if c == " " || c == "\t" || c == "\r" { i += 1; continue }
        if c == "#" { break }
        if c.isNumber || (c == "." && i + 1 < chars.count && chars[i + 1].isNumber) {
            var j = i
            while j < chars.count, chars[j].isNumber || chars[j] == "." { j += 1 }
            if j < chars.count, chars[j] == "e" || chars[j] == "E" {
                var k = j + 1
                if k < chars.count, chars[k] == "+" || chars[k] == "-" { k += 1 }
                if k < chars.count, chars[k].isNumber {
                    j = k
                    while j < chars.count, chars[j].isNumber { j += 1 }
                }
            }
            guard let value = Double(String(chars[i..<j])) else {
                throw ReplError(message: "bad number '\(String(chars[i..<j]))'", column: column)
            }
            if j + 3 <= chars.count, String(chars[j..<j + 3]) == "deg",
               j + 3 == chars.count || !(chars[j + 3].isLetter || chars[j + 3].isNumber || chars[j + 3] == "_") {
                tokens.append(Token(kind: .degrees(value), column: column))
                i = j + 3
            } else {
                tokens.append(Token(kind: .number(value), column: column))
                i = j
            }
        } else if c.isLetter || c == "_" {
            var j = i
            while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" { j += 1 }
            tokens.append(Token(kind: .identifier(String(chars[i..<j])), column: column))
            i = j
        } else if c == "\"" {
            var j = i + 1
            while j < chars.count, chars[j] != "\"" { j += 1 }
            guard j < chars.count else { throw ReplError(message: "unterminated string", column: column) }
            tokens.append(Token(kind: .string(String(chars[(i + 1)..<j])), column: column))
            i = j + 1
        } else if "()[],=+-*/.".contains(c) {
            tokens.append(Token(kind: .symbol(c), column: column))
            i += 1
        } else {
            throw ReplError(message: "unexpected character '\(c)'", column: column)
        }
    }
    tokens.append(Token(kind: .end, column: chars.count + 1))
    return tokens
}
