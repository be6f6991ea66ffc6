/// Decimal text of numbers for the text writers (JSON, ascii PLY, OBJ): the shortest text that reads back as
/// the same value (Swift's description), without a trailing ".0" ("1" rather than "1.0"). Finite values only.
enum NumberText {
    static func float(_ v: Float) -> String {
        let text = v.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    static func double(_ v: Double) -> String {
        let text = v.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

extension NumberText {
    /// `v` rounded to `digits` (0...6) decimals, for words a person reads ("0.25", "-1.5"); values too large
    /// for that are written as `double` does.
    static func fixed(_ v: Double, digits: Int) -> String {
        let scale = [1.0, 10, 100, 1e3, 1e4, 1e5, 1e6][Swift.min(6, Swift.max(0, digits))]
        let scaled = (v * scale).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return double(v) }
        let units = Int64(abs(scaled)), whole = units / Int64(scale), part = units % Int64(scale)
        var text = (scaled < 0 ? "-" : "") + "\(whole)"
        if digits > 0 {
            let fraction = String(part)
            text += "." + String(repeating: "0", count: Swift.max(0, Swift.min(6, digits) - fraction.count)) + fraction
        }
        return text
    }
}
