import FoundationEssentials

/// Strict JSON decoding with messages that name the byte or the field: RFC 8259 syntax and UTF-8 checked by
/// `JSONReader` (JSONDecoder is lenient: it takes trailing commas, for one), then JSONDecoder for the schema of
/// the files that are not read in one pass by `JSONReader` (a report's JSON).
enum JSONText {
    /// Decodes `bytes` as `T`. Throws `.parse` for text that is not JSON and `.format` for a missing or
    /// mistyped field, naming its path (`streams[2].resolution`).
    static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws(FathomError) -> T {
        try JSONReader.validate(Array(bytes))
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw FathomError(.parse, "not valid JSON")
        }
    }

    /// Maps a decoding failure to a status: syntax errors are `.parse`, everything else `.format`.
    static func describe(_ error: DecodingError) -> FathomError {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.reduce(into: "") { text, key in
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the top level" : text
        }
        func kind(_ type: Any.Type) -> String {
            let name = "\(type)"
            if type == Double.self || type == Float.self { return "a number" }
            if type == Int64.self || type == Int.self { return "an integer" }
            if type == String.self { return "a string" }
            if name.hasPrefix("Array") { return "an array" }
            return "an object"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return FathomError(.format, "missing field \(path(context.codingPath + [key]))")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return FathomError(.format, "field \(path(context.codingPath)) must be \(kind(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // The syntax was checked before decoding: what the decoder refuses here is a number that does not fit the
            // field it is in (its own words say only that the data is not valid JSON).
            return FathomError(.format, "a number does not fit its field: a fraction where a whole number is expected, or a value "
                + "beyond the range of the field's type (an integer, or a float: about 1.2e-38 to 3.4e38)")
        case .dataCorrupted(let context):
            return FathomError(.format, "field \(path(context.codingPath)) is not valid")
        @unknown default:
            return FathomError(.format, "the JSON does not fit its schema")
        }
    }
}
