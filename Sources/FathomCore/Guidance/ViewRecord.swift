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

    /// Eight records, lane j of each word's lanes to out[j] (32-bit patterns: `distance` is the float's bits): pairs
    /// of words interleaved, then pairs of pairs, so that each record is a 16-byte and an 8-byte store.
    @inlinable @inline(__always)
    public static func store(status: SIMD8<Int32>, face: SIMD8<Int32>, cell: SIMD8<Int32>, bin: SIMD8<Int32>,
                             distance: SIMD8<Int32>, completedFace: SIMD8<Int32>, to out: UnsafeMutablePointer<ViewRecord>) {
        typealias I = SIMD8<Int32>
        @inline(__always) func low(_ a: I, _ b: I) -> I { I(a[0], b[0], a[1], b[1], a[4], b[4], a[5], b[5]) }
        @inline(__always) func high(_ a: I, _ b: I) -> I { I(a[2], b[2], a[3], b[3], a[6], b[6], a[7], b[7]) }
        @inline(__always) func low64(_ a: I, _ b: I) -> I { I(a[0], a[1], b[0], b[1], a[4], a[5], b[4], b[5]) }
        @inline(__always) func high64(_ a: I, _ b: I) -> I { I(a[2], a[3], b[2], b[3], a[6], a[7], b[6], b[7]) }
        let sf0 = low(status, face), sf1 = high(status, face), cb0 = low(cell, bin), cb1 = high(cell, bin)
        let dc0 = low(distance, completedFace), dc1 = high(distance, completedFace)
        // Views 0, 4 | 1, 5 | 2, 6 | 3, 7: (status, face, cell, bin) in each half.
        let q0 = low64(sf0, cb0), q1 = high64(sf0, cb0), q2 = low64(sf1, cb1), q3 = high64(sf1, cb1)
        let raw = UnsafeMutableRawPointer(out)
        @inline(__always) func put(_ j: Int, _ words: SIMD4<Int32>, _ tail: SIMD2<Int32>) {
            raw.storeBytes(of: words, toByteOffset: 24 &* j, as: SIMD4<Int32>.self)
            raw.storeBytes(of: tail, toByteOffset: 24 &* j &+ 16, as: SIMD2<Int32>.self)
        }
        put(0, q0.lowHalf, dc0.lowHalf.lowHalf)
        put(1, q1.lowHalf, dc0.lowHalf.highHalf)
        put(2, q2.lowHalf, dc1.lowHalf.lowHalf)
        put(3, q3.lowHalf, dc1.lowHalf.highHalf)
        put(4, q0.highHalf, dc0.highHalf.lowHalf)
        put(5, q1.highHalf, dc0.highHalf.highHalf)
        put(6, q2.highHalf, dc1.highHalf.lowHalf)
        put(7, q3.highHalf, dc1.highHalf.highHalf)
    }
}
