import CIsal
import CZlib

/// The PNG of a depth or confidence frame decoded in one pass: its IDAT chunks inflated by ISA-L straight into one
/// buffer and the rows' filters undone in place. libspng inflates row by row through zlib, which is most of a
/// frame's time (bench/README.md, stray.py); this path covers what capture apps write (grayscale, not interlaced,
/// every chunk whole) and leaves anything else, damage included, to libspng and its words.
enum PNGInflate {
    /// Decodes `bytes`, a grayscale PNG whose header the caller checked (`width` x `height`, `bitDepth` 8 or 16),
    /// into `out` (row by row, host byte order). Returns false, with `out` in any state, when the image is one
    /// this path does not take: interlaced, a critical chunk other than IHDR, IDAT and IEND, a CRC or DEFLATE
    /// error, or a size that does not add up.
    static func decode(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, bitDepth: Int,
                       into out: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 45, bytes[26] == 0, bytes[27] == 0, bytes[28] == 0,
              bitDepth == 8 || bitDepth == 16 else { return false }
        let sampleBytes = bitDepth / 8, rowBytes = width * sampleBytes
        guard out.count >= rowBytes * height, let target = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        guard let idat = dataChunks(bytes) else { return false }

        // Each row is its filter byte and its samples.
        let filtered = UnsafeMutableRawBufferPointer.allocate(byteCount: (rowBytes + 1) * height, alignment: 64)
        defer { filtered.deallocate() }
        let state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
        defer { state.deallocate() }
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_ZLIB)  // the zlib header and its Adler-32 checked
        state.pointee.next_out = filtered.baseAddress!.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = UInt32(filtered.count)
        for range in idat {
            state.pointee.next_in = UnsafeMutablePointer(mutating: (base + range.lowerBound).assumingMemoryBound(to: UInt8.self))
            state.pointee.avail_in = UInt32(range.count)
            while state.pointee.avail_in > 0, state.pointee.block_state != ISAL_BLOCK_FINISH {
                let before = state.pointee.avail_in
                guard isal_inflate(state) == ISAL_DECOMP_OK else { return false }
                if state.pointee.avail_in == before, state.pointee.block_state != ISAL_BLOCK_FINISH { break }
            }
        }
        guard state.pointee.block_state == ISAL_BLOCK_FINISH, state.pointee.avail_out == 0 else { return false }
        guard unfilter(filtered, rows: height, rowBytes: rowBytes, bytesPerPixel: sampleBytes, into: target) else { return false }
        if sampleBytes == 2 {
            let samples = UnsafeMutableRawPointer(target).assumingMemoryBound(to: UInt16.self)
            for i in 0..<(width * height) { samples[i] = UInt16(bigEndian: samples[i]) }
        }
        return true
    }

    /// The byte ranges of the IDAT chunks' data, in order, when every chunk is whole with a right CRC, the only
    /// critical chunks are IHDR, IDAT and IEND, and IEND ends the image; nil otherwise.
    private static func dataChunks(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>]? {
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var ranges: [Range<Int>] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = u32(offset)
            guard length <= bytes.count - offset - 12 else { return nil }
            let type = u32(offset + 4), data = offset + 8
            let crc = crc32(0, bytes.baseAddress!.assumingMemoryBound(to: Bytef.self) + offset + 4, UInt32(length + 4))
            guard Int(truncatingIfNeeded: crc) == u32(data + length) else { return nil }
            switch type {
            case 0x4944_4154: ranges.append(data..<(data + length))  // IDAT
            case 0x4945_4E44: return ranges.isEmpty ? nil : ranges   // IEND
            case 0x4948_4452: guard offset == 8 else { return nil }    // IHDR, first
            default: guard bytes[offset + 4] & 0x20 != 0 else { return nil }  // ancillary (lower case) only
            }
            offset = data + length + 4
        }
        return nil
    }

    /// Undoes the rows' filters (None, Sub, Up, Average, Paeth) into `out`, `rowBytes` a row; false for a filter
    /// type beyond 4.
    private static func unfilter(_ filtered: UnsafeMutableRawBufferPointer, rows: Int, rowBytes: Int, bytesPerPixel bpp: Int,
                                 into out: UnsafeMutablePointer<UInt8>) -> Bool {
        let source = filtered.baseAddress!.assumingMemoryBound(to: UInt8.self)
        // The first row's row above is all zeros.
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        defer { zeros.deallocate() }
        zeros.initialize(repeating: 0, count: rowBytes)
        for j in 0..<rows {
            let line = source + j &* (rowBytes &+ 1)
            let x = line + 1, row = out + j &* rowBytes
            let up = j > 0 ? row - rowBytes : zeros
            switch line[0] {
            case 0:
                row.update(from: x, count: rowBytes)
            case 1:
                for i in 0..<min(bpp, rowBytes) { row[i] = x[i] }
                for i in min(bpp, rowBytes)..<rowBytes { row[i] = x[i] &+ row[i &- bpp] }
            case 2:
                for i in 0..<rowBytes { row[i] = x[i] &+ up[i] }
            case 3:
                for i in 0..<min(bpp, rowBytes) { row[i] = x[i] &+ up[i] >> 1 }
                for i in min(bpp, rowBytes)..<rowBytes {
                    row[i] = x[i] &+ UInt8(truncatingIfNeeded: (Int(row[i &- bpp]) &+ Int(up[i])) >> 1)
                }
            case 4:
                // With no pixel to the left, a = c = 0 and Paeth picks the byte above.
                for i in 0..<min(bpp, rowBytes) { row[i] = x[i] &+ up[i] }
                for i in min(bpp, rowBytes)..<rowBytes {
                    let a = Int(row[i &- bpp]), b = Int(up[i]), c = Int(up[i &- bpp])
                    // The predictor nearest a + b - c, ties to a then b, as selects rather than branches (noisy
                    // depth makes the branches unpredictable).
                    let pa = abs(b &- c), pb = abs(a &- c), pc = abs(a &+ b &- 2 &* c)
                    let ab = pa <= pb ? a : b, pab = Swift.min(pa, pb)
                    row[i] = x[i] &+ UInt8(truncatingIfNeeded: pab <= pc ? ab : c)
                }
            default:
                return false
            }
        }
        return true
    }
}
