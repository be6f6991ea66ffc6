import CZlib
import Glibc

/// One zlib inflate state at a fixed address (zlib keeps a pointer back to its `z_stream`, so the struct
/// must not move), fed from a file through `pread`.
final class Inflater {
    enum Outcome { case progressed, blockEnd, streamEnd, needInput, dataError(String) }

    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    private let fd: Int32
    private let fileSize: Int
    /// File offset of the next byte to load into `input`.
    private(set) var nextRead: Int

    /// File offset of the next compressed byte inflate will consume.
    var inOffset: Int { nextRead - Int(stream.pointee.avail_in) }
    /// `data_type` after the last call: bit 7 at a block boundary, bit 6 in the last block, bits 0-2 the
    /// unused bits of the last consumed byte.
    var dataType: Int32 { stream.pointee.data_type }

    /// Starts inflating at file offset `offset`: a zlib-wrapped stream when `wrapped` (the header is read),
    /// otherwise raw DEFLATE. `bits` > 0 primes the first `bits` high bits of the byte before `offset`;
    /// `dictionary` restores the sliding window of a checkpoint.
    init(fd: Int32, fileSize: Int, offset: Int, wrapped: Bool, bits: Int32 = 0, primeByte: UInt8 = 0,
         dictionary: [UInt8] = []) throws(FathomError) {
        self.fd = fd
        self.fileSize = fileSize
        self.nextRead = offset
        input = .allocate(byteCount: 1 << 16, alignment: 64)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, wrapped ? 15 : -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw FathomError(.outOfMemory, "zlib could not start an inflater (status \(status))")
        }
        if bits > 0 { inflatePrime(stream, bits, Int32(primeByte >> (8 - bits))) }
        if !dictionary.isEmpty {
            _ = dictionary.withUnsafeBufferPointer { inflateSetDictionary(stream, $0.baseAddress, UInt32($0.count)) }
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// Loads more input when inflate has consumed all it had. Returns false at the end of the file.
    private func refill() throws(FathomError) -> Bool {
        guard stream.pointee.avail_in == 0 else { return true }
        guard nextRead < fileSize else { return false }
        let n = pread(fd, input.baseAddress, Swift.min(input.count, fileSize - nextRead), off_t(nextRead))
        guard n > 0 else {
            throw FathomError(.io, "read failed at byte \(nextRead): \(n < 0 ? String(cString: strerror(errno)) : "the file ended early")")
        }
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(n)
        nextRead += n
        return true
    }

    /// Inflates into `out` until it is full, a block ends (when `stopAtBlocks`), the stream ends, the file
    /// ends, or the data is corrupt. Returns the outcome and the bytes written.
    func inflate(into out: UnsafeMutableRawBufferPointer, stopAtBlocks: Bool) throws(FathomError) -> (Outcome, Int) {
        guard let base = out.baseAddress, out.count > 0 else { return (.progressed, 0) }
        stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(out.count)
        while stream.pointee.avail_out > 0 {
            // inflate is called even when the file has no byte left: the end of the last block (and of a raw
            // stream) may already sit in its bit buffer, and only it can say so. Without progress and without
            // input left, the stream is cut.
            let more = try refill()
            let status = CZlib.inflate(stream, stopAtBlocks ? Z_BLOCK : Z_NO_FLUSH)
            let written = out.count - Int(stream.pointee.avail_out)
            switch status {
            case Z_STREAM_END: return (.streamEnd, written)
            case Z_OK:
                if stopAtBlocks, stream.pointee.data_type & 128 != 0 { return (.blockEnd, written) }
            case Z_BUF_ERROR:
                // No byte consumed or written, yet the state may have moved: the last block's end code decoded
                // from held bits stops at the boundary (Z_BLOCK) as a call that made no progress.
                if stopAtBlocks, stream.pointee.data_type & 128 != 0 { return (.blockEnd, written) }
                if !more { return (.needInput, written) }
                if stream.pointee.avail_in > 0 { return (.dataError("inflate made no progress"), written) }
            case Z_NEED_DICT: return (.dataError("the stream needs a preset dictionary"), written)
            case Z_MEM_ERROR: throw FathomError(.outOfMemory, "zlib ran out of memory")
            default:
                let text = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
                return (.dataError(text), written)
            }
        }
        return (.progressed, out.count)
    }

    /// The last 32 KiB (or fewer) of output: the window a checkpoint needs to resume here.
    func window() -> [UInt8] {
        var window = [UInt8](repeating: 0, count: 1 << 15)
        var length: UInt32 = 0
        window.withUnsafeMutableBufferPointer { _ = inflateGetDictionary(stream, $0.baseAddress, &length) }
        window.removeLast(window.count - Int(length))
        return window
    }
}
