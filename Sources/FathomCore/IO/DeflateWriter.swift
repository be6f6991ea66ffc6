import CZlib
import Glibc

/// Writes one DEFLATE stream to a file, raw (RFC 1951, as the scanner app does) or zlib-wrapped (RFC 1950). The
/// file appears at its path only on `commit` after `finish` (an `AtomicFile`); a writer dropped before that
/// leaves the old file or none.
final class DeflateWriter {
    let path: String
    private var file: AtomicFile
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    private var finished = false, committed = false

    /// Creates or replaces `path`. `level` is zlib's 0...9.
    init(path: String, wrapped: Bool = false, level: Int32 = 6) throws(FathomError) {
        guard (0...9).contains(level) else { throw FathomError(.outOfRange, "compression level must be in 0...9, got \(level)") }
        var file = try AtomicFile(path)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(stream, level, Z_DEFLATED, wrapped ? 15 : -15, 8, Z_DEFAULT_STRATEGY,
                                   ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            file.discard()
            stream.deallocate()
            throw FathomError(.outOfMemory, "zlib could not start a compressor (status \(status))")
        }
        self.path = path
        self.file = file
        output = .allocate(byteCount: 1 << 16, alignment: 64)
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        output.deallocate()
        if !committed { file.discard() }
    }

    /// Compresses `bytes` into the stream.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FathomError) {
        guard !finished else { throw FathomError(.invalidState, "'\(path)' is already finished") }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        try run(Z_NO_FLUSH)
    }

    /// Ends the stream (all of it written to the temporary file).
    func finish() throws(FathomError) {
        guard !finished else { return }
        finished = true
        try run(Z_FINISH)
    }

    /// Puts the finished file in place.
    func commit() throws(FathomError) {
        guard finished, !committed else { throw FathomError(.invalidState, "'\(path)' is not finished or already in place") }
        try file.commit()
        committed = true
    }

    private func run(_ flush: Int32) throws(FathomError) {
        while true {
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(output.count)
            let status = deflate(stream, flush)
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 { try file.write(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            if flush == Z_FINISH {
                if status == Z_STREAM_END { return }
            } else if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 {
                return
            }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw FathomError(.invalidState, "zlib's compressor failed (status \(status))")
            }
        }
    }
}
