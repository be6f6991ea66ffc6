import CLanes

/// A view's result in the C ABI's layout (`fathom_view_result`: six 32-bit words, `none` for no face), which the batch
/// path writes straight into the caller's buffer.
@frozen
public struct ViewRecord: Equatable, Sendable {
    /// `face` or `completedFace` when there is none (FATHOM_NO_HIT).
    public static let none = UInt32.max
    /// `ViewStatus.rawValue`.
    public var status: UInt32
    public var face: UInt32, cell: UInt32, bin: UInt32
    public var distance: Float
    public var completedFace: UInt32

    @inlinable @inline(__always)
    public init(status: UInt32, face: UInt32, cell: UInt32, bin: UInt32, distance: Float, completedFace: UInt32) {
        self.status = status
        self.face = face
        self.cell = cell
        self.bin = bin
        self.distance = distance
        self.completedFace = completedFace
    }

    /// The record of a result (its face, cell and bin are small non-negative numbers).
    @inlinable
    public init(_ r: ViewResult) {
        self.init(status: r.status.rawValue, face: r.face.map(UInt32.init) ?? Self.none, cell: UInt32(r.cell),
                  bin: UInt32(r.bin), distance: r.distance, completedFace: r.completedFace.map(UInt32.init) ?? Self.none)
    }

    /// Eight records, lane j of each word's lanes to out[j] (32-bit patterns: `distance` is the float's bits), each a
    /// 16-byte and an 8-byte store (`fathom_lanes_store_records6`).
    @inlinable @inline(__always)
    public static func store(status: SIMD8<Int32>, face: SIMD8<Int32>, cell: SIMD8<Int32>, bin: SIMD8<Int32>,
                             distance: SIMD8<Int32>, completedFace: SIMD8<Int32>, to out: UnsafeMutablePointer<ViewRecord>) {
        fathom_lanes_store_records6(out, status, face, cell, bin, distance, completedFace)
    }
}
