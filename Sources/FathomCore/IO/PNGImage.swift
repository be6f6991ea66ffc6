import CSpng
import Glibc

/// Grayscale PNG images of 8 or 16 bits, decoded (in one pass by `PNGInflate` where it can, else by libspng) and
/// encoded by libspng (depth and confidence frames of Stray Scanner and nerfstudio captures). Samples cross this
/// type in host byte order.
enum PNGImage {
    /// What the header (IHDR) of a PNG says.
    struct Header: Equatable {
        var width: Int, height: Int
        /// 8 or 16 for the grayscale images read here.
        var bitDepth: Int
        var colorType: Int
    }

    /// The largest image decoded: 4096 x 4096 (a depth map is 256 x 192; larger ones are refused before any
    /// memory is reserved for them).
    static let maxSide = 4096

    /// The header of `bytes` (`.format` when they do not start a PNG: signature, then an IHDR chunk).
    static func header(_ bytes: UnsafeRawBufferPointer) throws(FathomError) -> Header {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 33, bytes.prefix(8).elementsEqual(signature), Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw FathomError(.format, "not a PNG image (no PNG signature and IHDR chunk)")
        }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        return Header(width: u32(16), height: u32(20), bitDepth: Int(bytes[24]), colorType: Int(bytes[25]))
    }

    /// Whether `bytes` end with the IEND chunk a whole PNG ends with (a cut file does not).
    static func hasEnd(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        return bytes.count >= 12 && bytes.suffix(12).elementsEqual(iend)
    }

    /// Decodes the grayscale PNG in `bytes` of `width` x `height` samples of `bitDepth` (8 or 16) bits into
    /// `destination` (width * height * bitDepth / 8 bytes, row by row, host byte order). Another size, depth or
    /// colour type, damage (a CRC or DEFLATE error) or a cut image is `.format` with libspng's words.
    static func decodeGray(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, bitDepth: Int,
                           into destination: UnsafeMutableRawBufferPointer) throws(FathomError) {
        let found = try header(bytes)
        guard found.colorType == 0, found.bitDepth == bitDepth else {
            throw FathomError(.format, "a \(found.bitDepth)-bit PNG of colour type \(found.colorType), not \(bitDepth)-bit grayscale (type 0)")
        }
        guard found.width == width, found.height == height else {
            throw FathomError(.format, "a \(found.width) x \(found.height) PNG, not \(width) x \(height)")
        }
        let size = width * height * bitDepth / 8
        guard destination.count >= size, let base = bytes.baseAddress, let out = destination.baseAddress else {
            throw FathomError(.bufferTooSmall, "the destination holds \(destination.count) bytes, \(size) needed")
        }
        // The one-pass path takes what capture apps write; libspng the rest, and says what is wrong with it.
        if PNGInflate.decode(bytes, width: width, height: height, bitDepth: bitDepth, into: destination) { return }
        guard let context = spng_ctx_new(0) else { throw FathomError(.io, "libspng could not allocate a decoder") }
        defer { spng_ctx_free(context) }
        try check(spng_set_image_limits(context, UInt32(maxSide), UInt32(maxSide)))
        // Ancillary chunks are skipped; a few MiB of them at most are looked at.
        try check(spng_set_chunk_limits(context, 1 << 24, 1 << 24))
        try check(spng_set_png_buffer(context, base, bytes.count))
        var decoded = 0
        try check(spng_decoded_image_size(context, Int32(SPNG_FMT_PNG.rawValue), &decoded))
        guard decoded == size else { throw FathomError(.format, "the PNG decodes to \(decoded) bytes, not \(size)") }
        try check(spng_decode_image(context, out, size, Int32(SPNG_FMT_PNG.rawValue), 0))
    }

    /// A grayscale PNG of `width` x `height` samples of `bitDepth` (8 or 16) bits from `samples` (row by row,
    /// host byte order).
    static func encodeGray(_ samples: UnsafeRawBufferPointer, width: Int, height: Int, bitDepth: Int) throws(FathomError) -> [UInt8] {
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else { throw FathomError(.io, "libspng could not allocate an encoder") }
        defer { spng_ctx_free(context) }
        try check(spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1))
        // zlib level 1 and the Paeth filter only: depth maps are smooth, so Paeth predicts them well, and neither the
        // search over every filter per row nor zlib's slower levels is paid for (bench/README.md, stray.py).
        try check(spng_set_option(context, SPNG_IMG_COMPRESSION_LEVEL, 1))
        try check(spng_set_option(context, SPNG_FILTER_CHOICE, Int32(SPNG_FILTER_CHOICE_PAETH.rawValue)))
        var ihdr = spng_ihdr(width: UInt32(width), height: UInt32(height), bit_depth: UInt8(bitDepth),
                             color_type: UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue), compression_method: 0, filter_method: 0,
                             interlace_method: 0)
        try check(spng_set_ihdr(context, &ihdr))
        try check(spng_encode_image(context, samples.baseAddress, samples.count, Int32(SPNG_FMT_PNG.rawValue),
                                    Int32(SPNG_ENCODE_FINALIZE.rawValue)))
        var length = 0, error: Int32 = 0
        guard let png = spng_get_png_buffer(context, &length, &error) else {
            throw FathomError(.format, "PNG: " + (error != 0 ? String(cString: spng_strerror(error)) : "libspng gave no image"))
        }
        defer { free(png) }
        return Array(UnsafeRawBufferPointer(start: png, count: length))
    }

    private static func check(_ code: Int32) throws(FathomError) {
        guard code != 0 else { return }
        throw FathomError(.format, "PNG: " + String(cString: spng_strerror(code)))
    }
}
