import Glibc

/// A DEFLATE-compressed file read as a sequence of fixed-size records (the frames of a scan stream).
///
/// Opening inflates the file once with ISA-L, in bounded memory, to count the whole records and find damage;
/// on that pass it keeps checkpoints (copies of the inflater's state, which holds its 32 KiB window: the idea of
/// zlib's zran example, with ISA-L's state in place of zlib's bit position and window): one after every 256 KiB
/// of output, thinned to every other one whenever there are more than `maxCheckpoints`, so they stay evenly
/// spread in bounded memory. Reading record i later inflates only from the checkpoint before it: a short scan's
/// frames are read almost independently, a long one's at most 1/`maxCheckpoints` of the stream away. Reading in
/// order continues from where the last read stopped.
///
/// Indexed while read (`indexWhileReading`), opening inflates only the first record, to check that the file is
/// DEFLATE data; the record count is then the one expected, and the checkpoints are kept as reads go past the
/// part inflated so far (the frontier), so reading every record in order inflates the stream once. Damage is
/// found when a read reaches it: the stream is then indexed as at opening (its problems as below), and a read
/// of a record it does not hold throws `.format` naming the damage. (Records inflated from a block before
/// inflate failed inside it, which indexing at opening drops, read until then: nothing shows the damage earlier.)
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
    /// Checkpoints kept at most (a checkpoint holds 85 KiB: 22 MB per stream).
    public static let maxCheckpoints = 256

    public let path: String
    public let recordBytes: Int
    /// True when the file is zlib-wrapped (RFC 1950) rather than raw DEFLATE (RFC 1951).
    public let wrapped: Bool
    public let compressedBytes: Int
    /// True when the stream is indexed as it is read rather than at opening.
    public let indexesWhileReading: Bool
    /// Bytes that inflated cleanly (before a cut or damage); in a stream indexed while read, nil until a read
    /// found the stream's end or damage.
    public var inflatedBytes: Int? { locked { indexed ? found.inflated : nil } }
    /// What indexing found wrong: a cut, corrupt data (inflate failed, the length or the checksum is wrong), a
    /// partial last record, trailing bytes.
    public var problems: [String] { locked { found.problems } }
    /// The whole records; in a stream indexed while read, the count expected until a read found damage.
    public var recordCount: Int { locked { records } }
    /// True when indexing stopped at `maxRecords` records with more data after them.
    public var holdsMore: Bool { locked { found.more } }
    /// Places reads can start from: the stream's start and the checkpoints.
    public var checkpointCount: Int { locked { found.checkpoints.count + 1 } }

    private struct Checkpoint {
        let out: Int
        let snapshot: Inflater.Snapshot
    }

    /// What indexing found: of the whole stream (at opening, or once a read met its end or damage), or, in a
    /// stream indexed while read, the checkpoints kept so far.
    private struct Index {
        var inflated: Int
        /// Of which ISA-L gives: all but, in a cut stream, the last few symbols (it stops short of the end of
        /// its input), which zlib gives.
        var fast: Int
        /// After the stream's start (which needs none).
        var checkpoints: [Checkpoint]
        var problems: [String]
        var more: Bool
    }

    private let fd: Int32
    private let maxRecords: Int
    // The index, guarded by `lock` once the stream is shared. Indexed while read, `indexed` is false until a
    // read meets the stream's end or damage, and `frontier` is the output offset inflated so far.
    private var found = Index(inflated: 0, fast: 0, checkpoints: [], problems: [], more: false)
    private var indexed = false
    private var frontier = 0
    /// Output bytes between checkpoints taken while reading: doubled when they are thinned.
    private var spacing = CompressedStream.checkpointSpacing
    private static let checkpointSpacing = 1 << 18
    private var records: Int { indexed ? found.inflated / recordBytes : maxRecords }
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    /// The inflater reads continue from, at output offset `cursorOut` (when `cursorValid`).
    private let cursor: Inflater
    private var cursorOut = 0, cursorValid = false
    private let scratch: UnsafeMutableRawBufferPointer

    /// Opens and indexes `path` as records of `recordBytes`, at most `maxRecords` of them: indexing stops once
    /// the stream is known to hold more (said in `problems`), so a stream that inflates to far more than its
    /// scan uses costs no more than the part used. With `indexWhileReading`, `maxRecords` is the count expected
    /// and the stream is indexed as it is read (see above). Throws `.io` for a missing or unreadable file and
    /// `.format` for an empty file or one that is not DEFLATE data (no whole record inflates).
    public init(path: String, recordBytes: Int, maxRecords: Int = .max, indexWhileReading: Bool = false) throws(FathomError) {
        guard recordBytes > 0 else { throw FathomError(.outOfRange, "record size must be > 0, got \(recordBytes)") }
        guard maxRecords > 0 else { throw FathomError(.outOfRange, "the most records to index must be > 0, got \(maxRecords)") }
        guard !indexWhileReading || maxRecords <= Int.max / recordBytes else {
            throw FathomError(.outOfRange, "a stream indexed while read needs the record count it holds, got \(maxRecords)")
        }
        let (fd, size) = try FileIO.openRegular(path)
        guard size > 0 else { close(fd); throw FathomError(.format, "'\(path)' is empty") }
        var header: (UInt8, UInt8) = (0, 0)
        let wrapped = size >= 2 && withUnsafeMutableBytes(of: &header) { pread(fd, $0.baseAddress, 2, 0) } == 2
            && CompressedStream.isZlibHeader(header.0, header.1)

        self.path = path
        self.recordBytes = recordBytes
        self.wrapped = wrapped
        self.compressedBytes = size
        self.indexesWhileReading = indexWhileReading
        self.maxRecords = maxRecords
        self.fd = fd
        scratch = .allocate(byteCount: 1 << 18, alignment: 64)
        cursor = Inflater(fd: fd, fileSize: size, wrapped: wrapped)
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        // On failure deinit closes the file and frees what was allocated.
        if indexWhileReading {
            try check(record: 0)
        } else {
            try indexWhole()
        }
    }

    deinit {
        close(fd)
        scratch.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// RFC 1950: CM = 8 (deflate), CINFO <= 7, no preset dictionary, header check a multiple of 31.
    static func isZlibHeader(_ cmf: UInt8, _ flg: UInt8) -> Bool {
        cmf & 0x0F == 8 && cmf >> 4 <= 7 && flg & 0x20 == 0 && (Int(cmf) << 8 | Int(flg)) % 31 == 0
    }

    /// Indexes the whole stream (at opening, or when a read indexing while it goes meets the stream's end or
    /// damage); the cursor stays where it is.
    private func indexWhole() throws(FathomError) {
        do {
            found = try CompressedStream.index(fd: fd, size: compressedBytes, wrapped: wrapped, recordBytes: recordBytes,
                                               maxRecords: maxRecords, path: path)
            indexed = true
        } catch {
            throw CompressedStream.named(error, path)
        }
    }

    private static func index(fd: Int32, size: Int, wrapped: Bool, recordBytes: Int, maxRecords: Int,
                              path: String) throws(FathomError) -> Index {
        let (limit, overflow) = maxRecords.multipliedReportingOverflow(by: recordBytes)
        let inflater = Inflater(fd: fd, fileSize: size, wrapped: wrapped)
        var checkpoints = [Checkpoint]()
        var problems = [String]()
        var out = 0, fast = 0, calls = 0, every = 1
        var cut = false, lengthDamaged = false, more = false
        pass: while true {
            let (outcome, n) = try inflater.skip()
            out += n
            switch outcome {
            case .progressed:
                if !overflow, out > limit {
                    problems.append("the stream holds more than the \(maxRecords) frames the scan can use: the rest was not read")
                    out = limit
                    more = true
                    break pass
                }
                calls += 1
                guard calls % every == 0 else { continue }
                checkpoints.append(Checkpoint(out: out, snapshot: inflater.snapshot()))
                if checkpoints.count > maxCheckpoints {
                    checkpoints = thinned(checkpoints)
                    every *= 2
                }
            case .streamEnd:
                let trailing = size - inflater.endOffset
                if trailing > 0 {
                    problems.append("\(trailing) bytes after the end of the compressed stream (from byte \(inflater.endOffset)) were ignored")
                }
                // A stream that ends properly holds whole frames. If it does not, bytes were changed somewhere
                // without breaking the DEFLATE syntax (raw DEFLATE has no checksum): where is unknown.
                lengthDamaged = out % recordBytes != 0
                break pass
            case .needInput:
                problems.append("the compressed stream is cut: it ends at byte \(size) without its end marker")
                cut = true
                // ISA-L leaves the last symbols of a cut stream undecoded; zlib decodes every one.
                fast = out
                out = try zlibPass(fd: fd, size: size, wrapped: wrapped).bytes
                break pass
            case .checksumError:
                // Every block inflated; the zlib trailer's Adler-32 does not match them: some output is wrong,
                // and nothing says which.
                problems.append("corrupt data: the stream's checksum does not match its \(out) inflated bytes (incorrect data check): "
                                + "some frames are damaged and which is unknown")
                break pass
            case .dataError:
                // Output of the block being decoded when the damage showed may already be wrong: keep the blocks
                // that ended before it, which zlib's block-by-block inflate finds (damage is rare: the slower
                // pass runs only then).
                let zlib = try zlibPass(fd: fd, size: size, wrapped: wrapped)
                let kept = Swift.min(zlib.beforeDamage, out)
                problems.append("corrupt data near byte \(zlib.at) (\(zlib.message ?? "invalid DEFLATE data")): kept the \(kept) bytes inflated before the damaged block")
                out = kept
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
        return Index(inflated: out, fast: cut ? fast : out, checkpoints: checkpoints.filter { $0.out <= out },
                     problems: problems, more: more)
    }

    /// zlib's inflate of the whole file, block by block: the bytes it gives, those before the block where it
    /// fails, the file offset where it stopped and its message (nil when it did not fail).
    private static func zlibPass(fd: Int32, size: Int, wrapped: Bool)
        throws(FathomError) -> (bytes: Int, beforeDamage: Int, at: Int, message: String?) {
        let inflater = try ZlibInflater(fd: fd, fileSize: size, wrapped: wrapped)
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 64)
        defer { scratch.deallocate() }
        var out = 0, lastBoundary = 0
        while true {
            let (outcome, n) = try inflater.inflate(into: scratch)
            out += n
            switch outcome {
            case .progressed: continue
            case .blockEnd: lastBoundary = out
            case .dataError(let message): return (out, lastBoundary, inflater.inOffset, message)
            case .streamEnd, .needInput: return (out, out, inflater.inOffset, nil)
            }
        }
    }

    /// Bytes `range` of the output by zlib from the start of the file: the end of a cut stream, which ISA-L
    /// does not give.
    private func zlibRead(_ range: Range<Int>, into destination: UnsafeMutableRawBufferPointer) throws(FathomError) {
        let inflater = try ZlibInflater(fd: fd, fileSize: compressedBytes, wrapped: wrapped)
        var out = 0
        while out < range.upperBound {
            let chunk = Swift.min(scratch.count, range.upperBound - out)
            let (_, n) = try inflater.inflate(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<chunk]))
            guard n > 0 else { throw FathomError(.io, "'\(path)' changed since it was opened: it ends at output byte \(out)") }
            let from = Swift.max(out, range.lowerBound), to = Swift.min(out + n, range.upperBound)
            if from < to {
                (destination.baseAddress! + from - range.lowerBound).copyMemory(from: scratch.baseAddress! + from - out, byteCount: to - from)
            }
            out += n
        }
    }

    /// Inflates record `index` (0..<recordCount) into `destination`, which holds `recordBytes` bytes.
    public func read(record index: Int, into destination: UnsafeMutableRawBufferPointer) throws(FathomError) {
        guard destination.count >= recordBytes, destination.baseAddress != nil else {
            throw FathomError(.bufferTooSmall, "a frame needs \(recordBytes) bytes, the buffer holds \(destination.count)")
        }
        let frame = UnsafeMutableRawBufferPointer(start: destination.baseAddress, count: recordBytes)
        try locked { () throws(FathomError) in try access(record: index, into: frame) }
    }

    /// Makes sure record `index` can be read: in a stream indexed while read, inflates (indexing) up to its
    /// end unless done before, and throws `.format` naming the damage when the stream does not hold it.
    public func check(record index: Int) throws(FathomError) {
        try locked { () throws(FathomError) in try access(record: index, into: nil) }
    }

    /// Record `index` into `frame`, or (nil) only inflated up to its end.
    private func access(record index: Int, into frame: UnsafeMutableRawBufferPointer?) throws(FathomError) {
        do throws(FathomError) {
            try checkRange(index)
            let target = index * recordBytes
            if !indexed, target + recordBytes > frontier {
                var reached = try seek(to: target)
                if reached, let frame {
                    // Inflated aside, so a record the stream turns out not to hold leaves `frame` as it was.
                    reached = try fillAside(frame)
                } else if reached {
                    reached = try seek(to: target + recordBytes)
                }
                if reached { return }
                // The stream ended or broke before the record's end: index it whole to know what it holds.
                try indexWhole()
                try checkRange(index)
            }
            guard let frame else { return }
            if indexed, target + recordBytes > found.fast { return try zlibRead(target..<(target + recordBytes), into: frame) }
            guard try seek(to: target), try fill(frame) else {
                throw FathomError(.io, "'\(path)' changed since it was opened: frame data ends or is corrupt at output byte \(cursorOut)")
            }
        } catch {
            throw CompressedStream.named(error, path)
        }
    }

    /// Throws unless record `index` is one the stream holds (as far as known).
    private func checkRange(_ index: Int) throws(FathomError) {
        guard index >= 0, index < records else {
            if indexesWhileReading, indexed, index >= 0, index < maxRecords {
                throw FathomError(.format, "frame \(index) is not in the stream, which holds \(records) whole frames: "
                                  + found.problems.joined(separator: "; "))
            }
            throw FathomError(.outOfRange, "frame \(index) is out of range: the stream has \(records) frames (0 to \(records - 1))")
        }
    }

    /// `error` with the file's name, which the inflaters (reading a descriptor) do not know.
    private static func named(_ error: FathomError, _ path: String) -> FathomError {
        error.message.contains("'\(path)'") ? error : FathomError(error.kind, "'\(path)': \(error.message)")
    }

    /// Positions the cursor at output offset `target`: from the nearest checkpoint at or before it (or the
    /// stream's start) unless the cursor is already at or before it and no farther from it. False when the
    /// stream ends or breaks before `target`.
    private func seek(to target: Int) throws(FathomError) -> Bool {
        let checkpoints = found.checkpoints
        var lo = -1, hi = checkpoints.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if checkpoints[mid].out <= target { lo = mid } else { hi = mid - 1 }
        }
        let start = lo >= 0 ? checkpoints[lo].out : 0
        if !cursorValid || cursorOut > target || start > cursorOut {
            if lo >= 0 { cursor.restart(from: checkpoints[lo].snapshot) } else { cursor.restart(wrapped: wrapped) }
            cursorOut = start
            cursorValid = true
        }
        while cursorOut < target {
            guard try fill(UnsafeMutableRawBufferPointer(rebasing: scratch[0..<Swift.min(scratch.count, target - cursorOut)])) else { return false }
        }
        return true
    }

    /// Inflates exactly `buffer.count` bytes at the cursor; false when the stream ends or breaks first. Past
    /// the frontier of a stream indexed while read, keeps checkpoints on the way.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(FathomError) -> Bool {
        let start = cursorOut
        let (outcome, n) = indexed || start + buffer.count <= frontier
            ? try cursor.read(into: buffer)
            : try cursor.read(into: buffer) { done in self.checkpoint(at: start + done) }
        cursorOut += n
        if !indexed { frontier = Swift.max(frontier, cursorOut) }
        guard n < buffer.count else {
            // The frame is whole; if the stream ended or failed right after it (a zlib trailer checked after the
            // last frame, as when the index was made), the next read starts afresh.
            if case .progressed = outcome {} else { cursorValid = false }
            return true
        }
        cursorValid = false
        return false
    }

    /// `fill(frame)` through a buffer of its own: `frame` is written only when the whole record inflated.
    private func fillAside(_ frame: UnsafeMutableRawBufferPointer) throws(FathomError) -> Bool {
        let owned = frame.count > scratch.count ? UnsafeMutableRawBufferPointer.allocate(byteCount: frame.count, alignment: 64) : nil
        defer { owned?.deallocate() }
        let aside = owned ?? UnsafeMutableRawBufferPointer(rebasing: scratch[0..<frame.count])
        guard try fill(aside) else { return false }
        frame.copyMemory(from: UnsafeRawBufferPointer(aside))
        return true
    }

    /// Keeps a checkpoint at output offset `out` (the cursor's, with nothing pending) when it is past the
    /// frontier and `spacing` past the last one; thins them as the index pass does.
    private func checkpoint(at out: Int) {
        guard out > frontier, out - (found.checkpoints.last?.out ?? 0) >= spacing else { return }
        found.checkpoints.append(Checkpoint(out: out, snapshot: cursor.snapshot()))
        if found.checkpoints.count > CompressedStream.maxCheckpoints {
            found.checkpoints = CompressedStream.thinned(found.checkpoints)
            spacing *= 2
        }
    }

    /// Every other checkpoint (the 2nd, 4th, ...): still evenly spread, twice as far apart.
    private static func thinned(_ checkpoints: [Checkpoint]) -> [Checkpoint] {
        Swift.stride(from: 1, to: checkpoints.count, by: 2).map { checkpoints[$0] }
    }

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body()
    }
}
