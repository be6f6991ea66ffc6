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
