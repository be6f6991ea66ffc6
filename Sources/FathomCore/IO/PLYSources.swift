// The sources a PLY body is read from: ascii text and binary data in either byte order.

/// A PLY body read value by value: ascii text or binary little-endian data.
protocol PLYSource {
    /// The element and record being read, for messages.
    var element: String { get set }
    var record: Int { get set }
    /// A position for messages: a line number or a byte offset.
    var mark: Int { get }
    /// "line N" or "byte offset N".
    func location(_ mark: Int) -> String
    mutating func beginRecord() throws(FathomError)
    mutating func endRecord() throws(FathomError)
    mutating func coordinate(_ type: PLYScalar) throws(FathomError) -> Float
    mutating func integer(_ type: PLYScalar) throws(FathomError) -> Int64
    mutating func skip(_ type: PLYScalar) throws(FathomError)
    /// Whether `count` values of `type` could still follow (a bound, not a promise).
    func canHold(_ count: Int64, _ type: PLYScalar) -> Bool
    mutating func skipItems(_ count: Int, _ type: PLYScalar) throws(FathomError)
    /// Reads past `count` records made only of the scalars in `fields`.
    mutating func skipScalarRecords(_ count: Int, _ fields: [PLYField]) throws(FathomError)
}

/// An ascii body: one record per line, values separated by blanks.
struct PLYTextSource: PLYSource {
    var cursor: MeshFile.TextCursor
    var element = ""
    var record = 0

    init(cursor: MeshFile.TextCursor) {
        self.cursor = cursor
    }

    var mark: Int { cursor.line }

    func location(_ mark: Int) -> String { "line \(mark)" }

    /// Moves to the next non-blank line.
    mutating func beginRecord() throws(FathomError) {
        let text = cursor.text
        var i = cursor.position
        while i < text.count {
            let c = text[i]
            if c == 0x0A {
                cursor.line += 1
            } else if !MeshFile.TextCursor.isBlank(c) {
                break
            }
            i &+= 1
        }
        cursor.position = i
        guard i < text.count else { throw FathomError(.parse, "line \(cursor.line): the file ends before \(element) \(record)") }
    }

    mutating func endRecord() throws(FathomError) {
        guard cursor.token() == nil else {
            throw FathomError(.parse, "line \(cursor.line): \(element) \(record) has more values than the header's properties")
        }
        cursor.nextLine()
    }

    /// After the last element: only blank lines may follow.
    mutating func finish() throws(FathomError) {
        element = "nothing"
        do {
            try beginRecord()
        } catch {
            return
        }
        throw FathomError(.parse, "line \(cursor.line): data after the last element (the header's counts are too small)")
    }

    @inline(__always)
    mutating func value() throws(FathomError) -> Range<Int> {
        guard let token = cursor.token() else {
            throw FathomError(.parse, "line \(cursor.line): \(element) \(record) has too few values")
        }
        return token
    }

    @inline(never)
    func notANumber(_ token: Range<Int>, integer: Bool) -> FathomError {
        FathomError(.parse, "line \(cursor.line): \(cursor.quoted(token)) is not \(integer ? "an integer" : "a number"), in \(element) \(record)")
    }

    @inline(__always)
    mutating func coordinate(_ type: PLYScalar) throws(FathomError) -> Float {
        let token = try value()
        guard let v = MeshFile.DecimalText.float(cursor.text, token) else { throw notANumber(token, integer: false) }
        return v
    }

    @inline(__always)
    mutating func integer(_ type: PLYScalar) throws(FathomError) -> Int64 {
        let token = try value()
        guard let v = MeshFile.DecimalText.integer(cursor.text, token) else { throw notANumber(token, integer: true) }
        return v
    }

    mutating func skip(_ type: PLYScalar) throws(FathomError) {
        if type.isInteger {
            _ = try integer(type)
        } else {
            _ = try coordinate(type)
        }
    }

    func canHold(_ count: Int64, _ type: PLYScalar) -> Bool {
        count >= 0 && count <= Int64((cursor.text.count - cursor.position) / 2 + 1)
    }

    mutating func skipItems(_ count: Int, _ type: PLYScalar) throws(FathomError) {
        for _ in 0..<count { try skip(type) }
    }

    mutating func skipScalarRecords(_ count: Int, _ fields: [PLYField]) throws(FathomError) {
        for r in 0..<count {
            record = r
            try beginRecord()
            for field in fields { try skip(field.type) }
            try endRecord()
        }
    }
}

/// The byte order of a binary PLY body (a type parameter, so each order's reader is specialised).
protocol PLYByteOrder {
    static func decode<T: FixedWidthInteger>(_ stored: T) -> T
}

enum PLYLittleEndian: PLYByteOrder {
    @inline(__always) static func decode<T: FixedWidthInteger>(_ stored: T) -> T { T(littleEndian: stored) }
}

enum PLYBigEndian: PLYByteOrder {
    @inline(__always) static func decode<T: FixedWidthInteger>(_ stored: T) -> T { T(bigEndian: stored) }
}

/// A binary body in the byte order `Order`. Values are read with unaligned loads; every read is bounds-checked once.
struct PLYBinarySource<Order: PLYByteOrder>: PLYSource {
    let data: UnsafeRawBufferPointer
    var offset: Int
    var element = ""
    var record = 0

    var mark: Int { offset }

    func location(_ mark: Int) -> String { "byte offset \(mark)" }

    mutating func beginRecord() {}
    mutating func endRecord() {}

    /// The offset of the next `size` bytes, which are then consumed.
    @inline(__always)
    mutating func take(_ size: Int) throws(FathomError) -> Int {
        guard size <= data.count &- offset else { throw truncated(size) }
        let at = offset
        offset &+= size
        return at
    }

    @inline(never)
    func truncated(_ size: Int) -> FathomError {
        FathomError(.parse, "byte offset \(offset): the file ends inside \(element) \(record) "
                    + "(\(size) more bytes needed, \(data.count - offset) left)")
    }

    @inline(__always)
    func load<T: FixedWidthInteger>(_ at: Int, as: T.Type) -> T {
        Order.decode(data.loadUnaligned(fromByteOffset: at, as: T.self))
    }

    @inline(__always)
    mutating func coordinate(_ type: PLYScalar) throws(FathomError) -> Float {
        let at = try take(type.size)
        switch type {
        case .float32: return Float(bitPattern: load(at, as: UInt32.self))
        case .float64: return Float(Double(bitPattern: load(at, as: UInt64.self)))
        default:
            offset = at
            return Float(try integer(type))
        }
    }

    @inline(__always)
    mutating func integer(_ type: PLYScalar) throws(FathomError) -> Int64 {
        let at = try take(type.size)
        switch type {
        case .int8: return Int64(load(at, as: Int8.self))
        case .uint8: return Int64(load(at, as: UInt8.self))
        case .int16: return Int64(load(at, as: Int16.self))
        case .uint16: return Int64(load(at, as: UInt16.self))
        case .int32: return Int64(load(at, as: Int32.self))
        case .uint32: return Int64(load(at, as: UInt32.self))
        // Counts, indices and classes have integer types (checked with the header); a float here would be
        // a bug, read as a value every caller rejects.
        case .float32, .float64: return Int64.min
        }
    }

    @inline(__always)
    mutating func skip(_ type: PLYScalar) throws(FathomError) {
        _ = try take(type.size)
    }

    func canHold(_ count: Int64, _ type: PLYScalar) -> Bool {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: Int64(type.size))
        return count >= 0 && !overflow && bytes <= Int64(data.count - offset)
    }

    mutating func skipItems(_ count: Int, _ type: PLYScalar) throws(FathomError) {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: type.size)
        guard !overflow else { throw truncated(Int.max) }
        _ = try take(bytes)
    }

    mutating func skipScalarRecords(_ count: Int, _ fields: [PLYField]) throws(FathomError) {
        let size = fields.reduce(0) { $0 + $1.type.size }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, bytes <= data.count - offset else {
            record = size > 0 ? (data.count - offset) / size : 0
            offset += record * size
            throw truncated(size)
        }
        offset += bytes
    }
}
