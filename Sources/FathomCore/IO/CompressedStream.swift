import Glibc

/// A DEFLATE-compressed file read as a sequence of fixed-size records (the frames of a scan stream).
///
/// Opening inflates the file once, in bounded memory, to count the whole records and find damage; on that
/// pass it keeps a checkpoint every `span` bytes of output at a block boundary (the inflater's bit position
/// and its 32 KiB window, the method of zlib's zran example), so reading record i later inflates at most
/// `span` bytes before it. Reading in order continues from where the last read stopped.
///
/// Raw DEFLATE (what the scanner app writes) and zlib-wrapped streams are both read; a valid zlib header
/// in the first two bytes decides. Thread-safe: reads are serialized on one lock.
///
/// Damage (each is one of `problems`): a stream cut short keeps its whole records; where inflate fails, the
/// records inflated before the damaged block are kept. Raw DEFLATE has no checksum, so a changed byte that
/// still decodes is seen only by the length: a stream that ends properly inside a record is reported corrupt
/// (its whole records are kept, some may be wrong); a zlib-wrapped stream's Adler-32 catches the rest, again
/// without saying where. Bytes after the end of the stream are ignored.
public final class CompressedStream: @unchecked Sendable {
    /// Output bytes between checkpoints (a 10-minute depth stream of 3.5 GB keeps about 850 windows, 27 MB).
    public static let span = 4 << 20

    public let path: String
    public let recordBytes: Int
    /// True when the file is zlib-wrapped (RFC 1950) rather than raw DEFLATE (RFC 1951).
    public let wrapped: Bool
    public let compressedBytes: Int
    /// Bytes that inflated cleanly (before a cut or damage).
    public let inflatedBytes: Int
    /// What the first pass found wrong: a cut, corrupt data (inflate failed, the length or the checksum is
    /// wrong), a partial last record, trailing bytes.
    public let problems: [String]

    public var recordCount: Int { inflatedBytes / recordBytes }
    /// Places reads can start from: the stream's start and one block boundary every `span` bytes of output.
    public var checkpointCount: Int { checkpoints.count }

    private struct Checkpoint {
        let out: Int, inOffset: Int, bits: Int32, primeByte: UInt8
        let window: [UInt8]
    }

    private let fd: Int32
    private let checkpoints: [Checkpoint]
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private var cursor: Inflater?
    private var cursorOut = 0
    private let scratch: UnsafeMutableRawBufferPointer

    /// Opens and indexes `path` as records of `recordBytes`. Throws `.io` for a missing or unreadable file
    /// and `.format` for an empty file or one that is not DEFLATE data (no whole record inflates).
    public init(path: String, recordBytes: Int) throws(FathomError) {
        guard recordBytes > 0 else { throw FathomError(.outOfRange, "record size must be > 0, got \(recordBytes)") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FathomError(.io, "cannot open '\(path)': \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FathomError(.io, "'\(path)' is not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else { close(fd); throw FathomError(.format, "'\(path)' is empty") }
        var header: (UInt8, UInt8) = (0, 0)
        let wrapped = size >= 2 && withUnsafeMutableBytes(of: &header) { pread(fd, $0.baseAddress, 2, 0) } == 2
            && CompressedStream.isZlibHeader(header.0, header.1)

        self.path = path
        self.recordBytes = recordBytes
        self.wrapped = wrapped
        self.compressedBytes = size
        self.fd = fd
        scratch = .allocate(byteCount: 1 << 18, alignment: 64)
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        do {
            (inflatedBytes, checkpoints, problems) = try CompressedStream.index(fd: fd, size: size, wrapped: wrapped,
                                                                                recordBytes: recordBytes, scratch: scratch, path: path)
        } catch {
            close(fd)
            scratch.deallocate()
            pthread_mutex_destroy(lock)
            lock.deallocate()
            throw error
        }
    }

    deinit {
        cursor = nil
        close(fd)
        scratch.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// RFC 1950: CM = 8 (deflate), CINFO <= 7, no preset dictionary, header check a multiple of 31.
    static func isZlibHeader(_ cmf: UInt8, _ flg: UInt8) -> Bool {
        cmf & 0x0F == 8 && cmf >> 4 <= 7 && flg & 0x20 == 0 && (Int(cmf) << 8 | Int(flg)) % 31 == 0
    }

    private static func index(fd: Int32, size: Int, wrapped: Bool, recordBytes: Int, scratch: UnsafeMutableRawBufferPointer,
                              path: String) throws(FathomError) -> (Int, [Checkpoint], [String]) {
        let inflater = try Inflater(fd: fd, fileSize: size, offset: 0, wrapped: wrapped)
        var checkpoints = [Checkpoint(out: 0, inOffset: 0, bits: 0, primeByte: 0, window: [])]
        var problems = [String]()
        var out = 0, lastBoundary = 0
        var finalBlockEnded = false
        var cut = false, lengthDamaged = false
        pass: while true {
            let (outcome, n) = try inflater.inflate(into: scratch, stopAtBlocks: true)
            out += n
            switch outcome {
            case .progressed: continue
            case .blockEnd:
                lastBoundary = out
                let type = inflater.dataType
                if type & 64 != 0 { finalBlockEnded = true }
                guard type & 64 == 0, out - checkpoints[checkpoints.count - 1].out >= span else { continue }
                let bits = type & 7, at = inflater.inOffset
                var prime: UInt8 = 0
                if bits > 0 { _ = pread(fd, &prime, 1, off_t(at - 1)) }
                checkpoints.append(Checkpoint(out: out, inOffset: at, bits: bits, primeByte: prime, window: inflater.window()))
            case .streamEnd:
                let trailing = size - inflater.inOffset
                if trailing > 0 {
                    problems.append("\(trailing) bytes after the end of the compressed stream (from byte \(inflater.inOffset)) were ignored")
                }
                // A stream that ends properly holds whole frames. If it does not, bytes were changed somewhere
                // without breaking the DEFLATE syntax (raw DEFLATE has no checksum): where is unknown.
                lengthDamaged = out % recordBytes != 0
                break pass
            case .needInput:
                problems.append("the compressed stream is cut: it ends at byte \(size) without its end marker")
                cut = true
                break pass
            case .dataError(let message) where finalBlockEnded:
                // Every block inflated; the zlib trailer's Adler-32 does not match them: some output is wrong,
                // and nothing says which.
                problems.append("corrupt data: the stream's checksum does not match its \(out) inflated bytes (\(message)): "
                                + "some frames are damaged and which is unknown")
                break pass
            case .dataError(let message):
                // Output of the block being decoded when the damage showed may already be wrong: keep the
                // blocks that ended before it.
                problems.append("corrupt data near byte \(inflater.inOffset) (\(message)): kept the \(lastBoundary) bytes inflated before the damaged block")
                out = lastBoundary
                break pass
            }
        }
        guard out >= recordBytes else {
            let what = problems.first.map { ": \($0)" } ?? ""
            throw FathomError(.format, "'\(path)' holds no whole frame of \(recordBytes) bytes (\(out) bytes inflated)\(what)")
        }
        if lengthDamaged {
            problems.append("corrupt data: the stream ends with its end marker \(out % recordBytes) bytes into a frame of \(recordBytes) "
                            + "(\(out / recordBytes) whole frames kept): bytes were changed or lost somewhere, so frames may be damaged")
        } else if out % recordBytes != 0 {
            let why = cut ? "" : " after the damage"
            problems.append("the last frame is partial\(why): \(out % recordBytes) of its \(recordBytes) bytes (\(out / recordBytes) whole frames kept)")
        }
        return (out, checkpoints.filter { $0.out <= out }, problems)
    }

    /// Inflates record `index` (0..<recordCount) into `destination`, which holds `recordBytes` bytes.
    public func read(record index: Int, into destination: UnsafeMutableRawBufferPointer) throws(FathomError) {
        guard index >= 0, index < recordCount else {
            throw FathomError(.outOfRange, "frame \(index) is out of range 0..<\(recordCount)")
        }
        guard destination.count >= recordBytes, destination.baseAddress != nil else {
            throw FathomError(.bufferTooSmall, "a frame needs \(recordBytes) bytes, the buffer holds \(destination.count)")
        }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        let target = index * recordBytes
        try seek(to: target)
        let frame = UnsafeMutableRawBufferPointer(start: destination.baseAddress, count: recordBytes)
        try fill(frame)
    }

    /// Positions the cursor at output offset `target`: from the nearest checkpoint at or before it unless
    /// the cursor is already at or before it and no farther from it.
    private func seek(to target: Int) throws(FathomError) {
        var lo = 0, hi = checkpoints.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if checkpoints[mid].out <= target { lo = mid } else { hi = mid - 1 }
        }
        let checkpoint = checkpoints[lo]
        if cursor == nil || cursorOut > target || checkpoint.out > cursorOut {
            cursor = nil
            cursor = try Inflater(fd: fd, fileSize: compressedBytes, offset: checkpoint.inOffset,
                                  wrapped: checkpoint.out == 0 && wrapped, bits: checkpoint.bits,
                                  primeByte: checkpoint.primeByte, dictionary: checkpoint.window)
            cursorOut = checkpoint.out
        }
        while cursorOut < target {
            try fill(UnsafeMutableRawBufferPointer(rebasing: scratch[0..<Swift.min(scratch.count, target - cursorOut)]))
        }
    }

    /// Inflates exactly `buffer.count` bytes at the cursor.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(FathomError) {
        guard let cursor else { return }
        var done = 0
        while done < buffer.count {
            let part = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
            let (outcome, n) = try cursor.inflate(into: part, stopAtBlocks: false)
            done += n
            cursorOut += n
            switch outcome {
            case .progressed, .blockEnd: continue
            case .streamEnd where done == buffer.count: return
            case .dataError where done == buffer.count:
                // The frame was whole before inflate found the damage (as when the index was made: a zlib
                // trailer checked right after the last frame): keep it, start the next read afresh.
                self.cursor = nil
                return
            default:
                self.cursor = nil
                throw FathomError(.io, "'\(path)' changed since it was opened: frame data ends or is corrupt at output byte \(cursorOut)")
            }
        }
    }
}
