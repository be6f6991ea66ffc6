import CIsal
import Glibc

/// ISA-L's stateful inflate of a file read through `pread`, into an output buffer of its own that reads are
/// served from. Between calls ISA-L keeps everything it needs inside its state (the last 32 KiB of output, the
/// Huffman tables, the unread bits), provided each call writes at least 32 KiB, which the own buffer ensures:
/// so a copy of the state, taken with nothing pending, resumes the stream from there (a `Snapshot`).
final class Inflater {
    enum Outcome {
        /// More output may follow.
        case progressed
        /// The stream ended properly (and a zlib wrapper's Adler-32 matched).
        case streamEnd
        /// The file ended inside the stream.
        case needInput
        /// Invalid DEFLATE data.
        case dataError(String)
        /// Every block inflated, but the zlib wrapper's Adler-32 does not match them.
        case checksumError
    }

    /// The state at an output offset, with the file offset of the first compressed byte it has not loaded.
    struct Snapshot {
        let state: [UInt8]
        let inOffset: Int
    }

    private static let outputBytes = 1 << 18
    private let state: UnsafeMutablePointer<inflate_state>
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    /// Bytes of `output` inflated but not yet handed out.
    private var pending = 0..<0
    private var ended: Outcome?
    private let fd: Int32
    private let fileSize: Int
    /// File offset of the next byte to load into `input`.
    private var nextRead: Int

    /// File offset of the next compressed byte ISA-L has not loaded.
    var inOffset: Int { nextRead - Int(state.pointee.avail_in) }
    /// After the stream ended: the file offset just past its last byte (whole bytes ISA-L loaded into its bit
    /// buffer beyond the end are not part of it).
    var endOffset: Int { inOffset - Int(state.pointee.read_in_length) / 8 }

    /// Starts at the beginning of the file: a zlib-wrapped stream when `wrapped`, otherwise raw DEFLATE.
    init(fd: Int32, fileSize: Int, wrapped: Bool) {
        self.fd = fd
        self.fileSize = fileSize
        nextRead = 0
        state = .allocate(capacity: 1)
        input = .allocate(byteCount: 1 << 16, alignment: 64)
        output = .allocate(byteCount: Inflater.outputBytes, alignment: 64)
        restart(wrapped: wrapped)
    }

    /// Starts again at the beginning of the file.
    func restart(wrapped: Bool) {
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(wrapped ? ISAL_ZLIB : ISAL_DEFLATE)
        nextRead = 0
        pending = 0..<0
        ended = nil
    }

    /// Resumes where `snapshot` was taken.
    func restart(from snapshot: Snapshot) {
        snapshot.state.withUnsafeBytes { UnsafeMutableRawPointer(state).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        state.pointee.next_in = nil
        state.pointee.avail_in = 0
        nextRead = snapshot.inOffset
        pending = 0..<0
        ended = nil
    }

    deinit {
        state.deallocate()
        input.deallocate()
        output.deallocate()
    }

    /// The state now; only while nothing inflated is pending (true after `read` used up its output, and always
    /// in `skip`).
    func snapshot() -> Snapshot {
        assert(pending.isEmpty, "a snapshot needs every inflated byte handed out")
        let bytes = [UInt8](UnsafeRawBufferPointer(start: state, count: MemoryLayout<inflate_state>.size))
        return Snapshot(state: bytes, inOffset: inOffset)
    }

    /// Fills `destination` (or as much as the stream gives before it ends) and returns how it stopped and the
    /// bytes written; `.progressed` means `destination` is full. `boundary(done)` is called each time nothing
    /// inflated is pending before more is inflated (after `done` bytes of `destination`): where a `snapshot`
    /// may be taken.
    func read(into destination: UnsafeMutableRawBufferPointer,
              boundary: ((Int) -> Void)? = nil) throws(FathomError) -> (Outcome, Int) {
        var done = 0
        while done < destination.count {
            if pending.isEmpty {
                if let ended { return (ended, done) }
                boundary?(done)
                try inflateMore()
                continue
            }
            let n = Swift.min(pending.count, destination.count - done)
            (destination.baseAddress! + done).copyMemory(from: output.baseAddress! + pending.lowerBound, byteCount: n)
            pending = (pending.lowerBound + n)..<pending.upperBound
            done += n
        }
        return (.progressed, done)
    }

    /// Inflates one buffer's worth and drops it: the index pass, which only counts. Returns the outcome and the
    /// bytes inflated; after it nothing is pending.
    func skip() throws(FathomError) -> (Outcome, Int) {
        if let ended { return (ended, 0) }
        try inflateMore()
        let n = pending.count
        pending = 0..<0
        return (ended ?? .progressed, n)
    }

    /// One ISA-L call into `output`; sets `pending`, and `ended` when the stream can give no more.
    private func inflateMore() throws(FathomError) {
        while true {
            if state.pointee.avail_in == 0, nextRead < fileSize {
                let n = pread(fd, input.baseAddress, Swift.min(input.count, fileSize - nextRead), off_t(nextRead))
                guard n > 0 else {
                    throw FathomError(.io, "read failed at byte \(nextRead): \(n < 0 ? String(cString: strerror(errno)) : "the file ended early")")
                }
                state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                state.pointee.avail_in = UInt32(n)
                nextRead += n
            }
            let before = inOffset
            state.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_out = UInt32(output.count)
            let status = isal_inflate(state)
            let produced = output.count - Int(state.pointee.avail_out)
            pending = 0..<produced
            switch status {
            case ISAL_INVALID_BLOCK: ended = .dataError("invalid block")
            case ISAL_INVALID_SYMBOL: ended = .dataError("invalid code")
            case ISAL_INVALID_LOOKBACK: ended = .dataError("invalid distance too far back")
            case ISAL_INVALID_WRAPPER, ISAL_UNSUPPORTED_METHOD: ended = .dataError("invalid zlib header")
            case ISAL_NEED_DICT: ended = .dataError("the stream needs a preset dictionary")
            case ISAL_INCORRECT_CHECKSUM: ended = .checksumError
            default:
                if state.pointee.block_state == ISAL_BLOCK_FINISH {
                    ended = .streamEnd
                } else if produced == 0, state.pointee.avail_in == 0, nextRead >= fileSize {
                    ended = .needInput
                } else if produced == 0, inOffset == before {
                    ended = .dataError("inflate made no progress")
                }
            }
            if produced > 0 || ended != nil { return }
        }
    }
}
