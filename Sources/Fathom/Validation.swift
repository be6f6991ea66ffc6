import Glibc
import FathomCore

// The argument checks of the C ABI layer, each written once: pointers (`required`), size_t counts and strides
// (`size`, `elements`, `pointBuffer`) and the capacities of caller arrays (`fits`, `requireCapacity`). Handles are
// checked in Handles.swift. Every check throws a `FathomError`, which `abiCall` maps to a status.

/// `pointer`, or a `.nullPointer` error "`name` must not be NULL`detail`" (`detail` says when a pointer that is
/// not always required is, e.g. " for FATHOM_KEYPOINT_PLANE").
@inline(__always)
func required<Pointer>(_ pointer: Pointer?, _ name: String, _ detail: String = "") throws(FathomError) -> Pointer {
    guard let pointer else { throw FathomError(.nullPointer, "\(name) must not be NULL\(detail)") }
    return pointer
}

/// A path argument: the bytes of a NUL-terminated UTF-8 path. Linux paths are bytes and Swift's strings are
/// Unicode: a path that is not UTF-8 would be read with replacement characters, naming another file, so it is
/// refused (`.outOfRange`) rather than opened or written elsewhere.
func pathArgument(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(FathomError) -> String {
    let p = try required(pointer, name)
    guard let path = String(validatingCString: p) else {
        let bytes = UnsafeBufferPointer(start: p, count: strlen(p)).map { UInt8(bitPattern: $0) }
        let shown = bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
        throw FathomError(.outOfRange, "\(name) '\(shown)' is not UTF-8: Fathom opens and writes UTF-8 paths only")
    }
    return path
}

/// A size_t argument as Int: `n`, or an `.overflow` error "`name` N is too large" when it is above Int.max (it
/// arrives negative) or `n` elements of `elementBytes` bytes overflow; below `minimum`, an `.outOfRange` error
/// "`name` must be >= `minimum`, got N".
@inline(__always)
func size(_ n: Int, _ name: String, elementBytes: Int = 1, minimum: Int = 0) throws(FathomError) -> Int {
    guard n >= 0, !n.multipliedReportingOverflow(by: elementBytes).overflow else {
        throw FathomError(.overflow, "\(name) \(UInt(bitPattern: n)) is too large")
    }
    guard n >= minimum else { throw FathomError(.outOfRange, "\(name) must be >= \(minimum), got \(n)") }
    return n
}

/// `count` elements at `pointer`, or the error naming the argument: NULL, or a count whose bytes overflow, as C
/// elements or as the `Copy` values the call makes of them, or a count below `minimum` (`size`).
func elements<T, Copy>(_ pointer: UnsafePointer<T>?, _ count: Int, _ name: String, countName: String = "count",
                       minimum: Int = 0, copiedAs _: Copy.Type) throws(FathomError) -> UnsafeBufferPointer<T> {
    let base = try required(pointer, name)
    let n = try size(count, countName, elementBytes: max(MemoryLayout<T>.stride, MemoryLayout<Copy>.stride), minimum: minimum)
    return UnsafeBufferPointer(start: base, count: n)
}

/// A validated point buffer (pointer, count, byte stride).
func pointBuffer(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                 names: (points: String, count: String, stride: String) = ("points", "count", "stride")) throws(FathomError) -> PointBuffer {
    let base = try required(points, names.points)
    return try PointBuffer(base: base, count: size(count, names.count), strideBytes: size(stride, names.stride), names: names)
}

/// The elements a size_t `capacity` allows (one above Int.max arrives negative: larger than any count).
@inline(__always)
func capacityLimit(_ capacity: Int) -> Int { capacity < 0 ? Int.max : capacity }

/// Whether a caller's array of `capacity` (size_t) elements of `elementBytes` bytes holds `needed` of them (never
/// more than the address space holds).
@inline(__always)
func fits(_ capacity: Int, _ needed: some BinaryInteger, elementBytes: Int = 1) -> Bool {
    UInt(bitPattern: capacity) >= needed && needed <= Int.max / elementBytes
}

/// Unless `fits(capacity, needed, elementBytes:)`, a `.bufferTooSmall` error "capacity C is less than the N `what`";
/// `what` names the elements and what the call did about them ("bytes needed", "points inside; the first 8 were
/// written") and is built only for the error.
@inline(__always)
func requireCapacity(_ capacity: Int, _ needed: some BinaryInteger, _ what: @autoclosure () -> String,
                     elementBytes: Int = 1) throws(FathomError) {
    guard fits(capacity, needed, elementBytes: elementBytes) else {
        throw FathomError(.bufferTooSmall, "capacity \(UInt(bitPattern: capacity)) is less than the \(needed) \(what())")
    }
}

/// Reserved fields (an array in C, a tuple here): every byte 0, else `.outOfRange` naming them (a value there is an
/// initializer that put a setting in the wrong field, or a caller built for a later version of the header).
func reserved<Fields>(bytesOf fields: Fields, _ name: String) throws(FathomError) {
    let zero = withUnsafeBytes(of: fields) { $0.allSatisfy { $0 == 0 } }
    guard zero else { throw FathomError(.outOfRange, "\(name) is reserved and must be all 0") }
}

/// A C `bool` field read from its byte: 0 or 1, else `.outOfRange` naming it. C stores nothing else there, but
/// memory filled byte by byte can, and Swift's `Bool` assumes it never holds anything else.
func boolField<Struct>(_ value: Struct, _ field: KeyPath<Struct, Bool>, _ name: String) throws(FathomError) -> Bool {
    guard let offset = MemoryLayout<Struct>.offset(of: field) else { return value[keyPath: field] }
    return try boolByte(withUnsafeBytes(of: value) { $0[offset] }, name)
}

/// The same, read in place: a copy of a struct whose first field is a bool may not keep a byte other than 0 or 1
/// (the copy can load the bool as one bit).
func boolField<Struct>(at pointer: UnsafePointer<Struct>, _ field: KeyPath<Struct, Bool>, _ name: String) throws(FathomError) -> Bool {
    guard let offset = MemoryLayout<Struct>.offset(of: field) else { return pointer.pointee[keyPath: field] }
    return try boolByte(UnsafeRawPointer(pointer).load(fromByteOffset: offset, as: UInt8.self), name)
}

private func boolByte(_ byte: UInt8, _ name: String) throws(FathomError) -> Bool {
    guard byte <= 1 else { throw FathomError(.outOfRange, "\(name) must be false (0) or true (1), got \(byte)") }
    return byte == 1
}
