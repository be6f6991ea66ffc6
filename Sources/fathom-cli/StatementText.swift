/// Physical lines joined into one statement, so a long call can be written over several lines: a line that
/// leaves a ( or [ open and ends with one or with a comma goes on on the next line. (Open brackets alone would
/// let one missing `)` swallow the rest of a script.) Each line's comment is dropped before joining (a `#`
/// would otherwise hide the lines after it), and error columns are mapped back to the physical line.
struct StatementText {
    private(set) var text = ""
    /// Where each physical line starts in `text` (0-based characters) and its line number.
    private var starts: [(offset: Int, line: Int)] = []
    private var length = 0
    private var depth = 0
    private var endsOpen = false

    var isEmpty: Bool { starts.isEmpty }

    /// The number of physical lines joined.
    var lineCount: Int { starts.count }

    /// True while more ( or [ have been opened than closed and the last line ends with one or a comma: the
    /// statement goes on on the next line.
    var isOpen: Bool { depth > 0 && endsOpen }

    mutating func append(_ line: String, number: Int) {
        let code = StatementText.code(of: line)
        if !starts.isEmpty { text += " "; length += 1 }
        starts.append((length, number))
        text += code.text
        length += code.length
        depth += code.balance
        endsOpen = code.text.trimmingWhitespace.last.map { "([,".contains($0) } ?? false
    }

    /// The physical line and 1-based column of a 1-based column of `text`.
    func position(ofColumn column: Int) -> (line: Int, column: Int) {
        let start = starts.last { $0.offset < column } ?? starts.first ?? (0, 1)
        return (start.line, column - start.offset)
    }

    /// A line without its comment (a `#` outside a string), its length in characters, and how many more
    /// brackets it opens than it closes.
    private static func code(of line: String) -> (text: String, length: Int, balance: Int) {
        var balance = 0, length = 0, inString = false
        var kept = Substring(line)
        for (i, c) in zip(line.indices, line) {
            if c == "\"" { inString.toggle() }
            if !inString {
                if c == "#" { kept = line[..<i]; break }
                if c == "(" || c == "[" { balance += 1 }
                if c == ")" || c == "]" { balance -= 1 }
            }
            length += 1
        }
        return (String(kept), length, balance)
    }
}
