/// An error from the engine: what kind of failure, and a message that names the bad value.
///
/// The C ABI maps each `Kind` to one `fathom_status`; the REPL prints `message`.
public struct FathomError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        case notFinite, outOfRange, overflow, bufferTooSmall, notRigid, degenerate, invalidState
        case parse, format, notABox, io, lapack, outOfMemory, noData
        /// A required pointer argument was NULL (raised by the C ABI layer).
        case nullPointer
    }

    public let kind: Kind
    /// Names the argument or field and the value, e.g. "scale.y must be > 0, got -0.2".
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Checks shared by every capability: finiteness and ranges, with the argument named in the message.
public enum Check {
    /// Throws `.notFinite` unless `value` is finite.
    @inlinable
    public static func finite(_ value: Float, _ name: String) throws(FathomError) {
        guard value.isFinite else { throw FathomError(.notFinite, "\(name) must be finite, got \(value)") }
    }

    /// Throws `.notFinite` unless every component of `value` is finite, naming the component.
    @inlinable
    public static func finite(_ value: SIMD3<Float>, _ name: String) throws(FathomError) {
        try finite(value.x, name + ".x")
        try finite(value.y, name + ".y")
        try finite(value.z, name + ".z")
    }

    /// Throws `.notFinite` / `.outOfRange` unless each component is finite and > 0.
    @inlinable
    public static func positive(_ value: SIMD3<Float>, _ name: String) throws(FathomError) {
        try finite(value, name)
        for (axis, component) in zip(["x", "y", "z"], [value.x, value.y, value.z]) where !(component > 0) {
            throw FathomError(.outOfRange, "\(name).\(axis) must be > 0, got \(component)")
        }
    }

    /// Throws `.notFinite` / `.outOfRange` unless `value` is finite and > 0.
    @inlinable
    public static func positive(_ value: Float, _ name: String) throws(FathomError) {
        try finite(value, name)
        guard value > 0 else { throw FathomError(.outOfRange, "\(name) must be > 0, got \(value)") }
    }
}
