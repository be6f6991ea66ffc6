import CZlib
import Glibc

/// zlib's inflate stopping at every block boundary (`Z_BLOCK`), from the start of a file read through `pread`:
/// what locates a damaged block precisely (ISA-L's `Inflater`, which reads, does not stop at blocks). The
/// `z_stream` sits at a fixed address because zlib keeps a pointer back to it.
final class ZlibInflater {
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

    /// Starts inflating the file: a zlib-wrapped stream when `wrapped` (the header is read), otherwise raw DEFLATE.
    init(fd: Int32, fileSize: Int, wrapped: Bool) throws(FathomError) {
        self.fd = fd
        self.fileSize = fileSize
        self.nextRead = 0
        input = .allocate(byteCount: 1 << 16, alignment: 64)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, wrapped ? 15 : -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw FathomError(.outOfMemory, "zlib could not start an inflater (status \(status))")
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

    /// Inflates into `out` until it is full, a block ends, the stream ends, the file ends, or the data is
    /// corrupt. Returns the outcome and the bytes written.
    func inflate(into out: UnsafeMutableRawBufferPointer) throws(FathomError) -> (Outcome, Int) {
        guard let base = out.baseAddress, out.count > 0 else { return (.progressed, 0) }
        stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(out.count)
        while stream.pointee.avail_out > 0 {
            // inflate is called even when the file has no byte left: the end of the last block (and of a raw
            // stream) may already sit in its bit buffer, and only it can say so. Without progress and without
            // input left, the stream is cut.
            let more = try refill()
            let status = CZlib.inflate(stream, Z_BLOCK)
            let written = out.count - Int(stream.pointee.avail_out)
            switch status {
            case Z_STREAM_END: return (.streamEnd, written)
            case Z_OK:
                if stream.pointee.data_type & 128 != 0 { return (.blockEnd, written) }
            case Z_BUF_ERROR:
                // No byte consumed or written, yet the state may have moved: the last block's end code decoded
                // from held bits stops at the boundary (Z_BLOCK) as a call that made no progress.
                if stream.pointee.data_type & 128 != 0 { return (.blockEnd, written) }
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
}
