// The mask's body (largest connected region, bridging small gaps) against masks drawn by hand.
import FathomCore
import Testing

@Suite("Mask body")
struct MaskBodyTests {
    /// A 20 x 12 mask with `rows` strings ('#' inside) at the top left.
    private func body(_ rows: [String], gap: Int) throws -> MaskBody {
        var bytes = [UInt8](repeating: 0, count: 20 * 12)
        for (y, row) in rows.enumerated() {
            for (x, c) in row.enumerated() where c == "#" { bytes[y * 20 + x] = 1 }
        }
        return try bytes.withUnsafeBufferPointer { try Mask(base: $0.baseAddress!, width: 20, height: 12).body(gap: gap) }
    }

    @Test("a stray pixel and a blob apart from the body are left out; a piece one gap away stays")
    func components() throws {
        let rows = [
            "#...................",
            "....................",
            "....######.##.......",  // the body, with a piece one empty pixel to its right
            "....######..........",
            "....######..........",
            "....................",
            "....................",
            "...............###..",  // a blob of 6 pixels
            "...............###..",
        ]
        #expect(try body(rows, gap: 1).pixels == 18 + 2)
        // Without bridging the piece is its own region, and the body loses it.
        #expect(try body(rows, gap: 0).pixels == 18)
        // A gap of 4 reaches the blob (from the piece: 5 rows down, 3 columns right) and the stray pixel (4
        // columns left of the body, 2 rows up).
        #expect(try body(rows, gap: 4).pixels == 18 + 2 + 6 + 1)
    }

    @Test("two rows apart with one empty row between them connect at gap 1, not at gap 0")
    func rowsApart() throws {
        let rows = ["..####..............", "....................", "...####............."]
        #expect(try body(rows, gap: 1).pixels == 8)
        #expect(try body(rows, gap: 0).pixels == 4)
    }

    @Test("an empty mask is no data")
    func empty() throws {
        #expect(throws: FathomError.self) { try body([], gap: 1) }
    }
}
