/// A JSON object written key by key, in insertion order.
struct JSONObject {
    private var members: [String] = []

    subscript(key: String) -> String {
        get { "" }
        set { members.append(JSONObject.string(key) + ":" + newValue) }
    }

    var text: String { "{" + members.joined(separator: ",") + "}" }

    /// A number, or null when it is not finite.
    static func number(_ v: Float) -> String { v.isFinite ? NumberText.float(v) : "null" }

    static func number(_ v: Double) -> String { v.isFinite ? NumberText.double(v) : "null" }

    static func vector(_ v: SIMD3<Float>) -> String { "[\(number(v.x)),\(number(v.y)),\(number(v.z))]" }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

    /// A JSON string literal (RFC 8259 escapes).
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
