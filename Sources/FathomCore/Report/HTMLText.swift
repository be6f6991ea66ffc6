/// Text placed in HTML or SVG: the five characters with a meaning in markup escaped.
enum HTMLText {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // Control characters other than tab and newline are not allowed in XML 1.0 (standalone SVG).
            case _ where c.value < 0x20 && c != "\t" && c != "\n": out += "\u{FFFD}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
