// Scans in the core: CompressedStream against streams made here — DEFLATE stored blocks written by hand (raw, and
// zlib-wrapped with an Adler-32 computed here) and zlib's own compressor called directly — with more than 4 MiB of
// output so reads start from several checkpoints, in random order; ScanWriter -> Scan round trips compared with the
// frames the test made; and damage: a cut stream (the whole records zlib itself inflates from what is left), a
// corrupt block, trailing bytes, empty and garbage files.
import CZlib
import FathomCore
import Glibc
import Testing

// MARK: - Streams made by the test

/// The bytes of record `index`: smooth values with noise (compressible like depth, never all alike).
private func record(_ index: Int, bytes: Int, seed: UInt64 = 1) -> [UInt8] {
    var rng = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(index))
    return (0..<bytes).map { i in UInt8(truncatingIfNeeded: (i / 7 + index * 3) & 0x3F) &+ UInt8(rng.next() & 0x0F) }
}

private func records(_ count: Int, bytes: Int, seed: UInt64 = 1) -> [UInt8] {
    (0..<count).flatMap { record($0, bytes: bytes, seed: seed) }
}

/// Adler-32 (RFC 1950, section 8), computed here.
private func adler32(_ data: [UInt8]) -> UInt32 {
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in data {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    return b << 16 | a
}

/// `data` as DEFLATE stored blocks (RFC 1951, 3.2.4) of at most `block` bytes; zlib-wrapped (RFC 1950: header
/// 78 01, big-endian Adler-32 trailer) when `wrapped`.
private func storedStream(_ data: [UInt8], block: Int = 65535, wrapped: Bool) -> [UInt8] {
    var out: [UInt8] = wrapped ? [0x78, 0x01] : []
    var start = 0
    repeat {
        let n = min(block, data.count - start)
        let last = start + n == data.count
        out.append(last ? 1 : 0)  // BFINAL, BTYPE 00; the rest of the byte is padding
        out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        out += data[start..<start + n]
        start += n
    } while start < data.count
    if wrapped {
        let a = adler32(data)
        out += [UInt8(a >> 24), UInt8((a >> 16) & 0xFF), UInt8((a >> 8) & 0xFF), UInt8(a & 0xFF)]
    }
    return out
}

/// `data` compressed by zlib's deflate (dynamic Huffman blocks: checkpoints land mid-byte), raw or wrapped.
/// (zlib keeps a pointer back to its z_stream, so it lives at a fixed address.)
private func zlibStream(_ data: [UInt8], wrapped: Bool, level: Int32 = 6) -> [UInt8] {
    let s = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    s.initialize(to: z_stream())
    defer { deflateEnd(s); s.deallocate() }
    precondition(deflateInit2_(s, level, Z_DEFLATED, wrapped ? 15 : -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                               Int32(MemoryLayout<z_stream>.size)) == Z_OK)
    var out = [UInt8](repeating: 0, count: Int(deflateBound(s, UInt(data.count))))
    let produced: Int = data.withUnsafeBytes { input in
        out.withUnsafeMutableBytes { output in
            s.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
            s.pointee.avail_in = UInt32(input.count)
            s.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            s.pointee.avail_out = UInt32(output.count)
            precondition(deflate(s, Z_FINISH) == Z_STREAM_END)
            return output.count - Int(s.pointee.avail_out)
        }
    }
    return Array(out[0..<produced])
}

/// How many bytes zlib inflates from `stream` (raw), stopping quietly where the input ends.
private func inflatedLength(_ stream: [UInt8]) -> Int {
    let s = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    s.initialize(to: z_stream())
    defer { inflateEnd(s); s.deallocate() }
    precondition(inflateInit2_(s, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
    var total = 0
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    stream.withUnsafeBytes { input in
        s.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
        s.pointee.avail_in = UInt32(input.count)
        while true {
            let status: Int32 = chunk.withUnsafeMutableBytes { output in
                s.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                s.pointee.avail_out = UInt32(output.count)
                return inflate(s, Z_NO_FLUSH)
            }
            total += chunk.count - Int(s.pointee.avail_out)
            if status != Z_OK { return }
        }
    }
    return total
}

private func temporaryPath(_ name: String) -> String { "/tmp/fathom-scantests-\(getpid())-\(name)" }

private func write(_ bytes: [UInt8], _ name: String) throws -> String {
    let path = temporaryPath(name)
    try FileIO.write(bytes, to: path)
    return path
}

private func readRecord(_ stream: CompressedStream, _ index: Int) throws(FathomError) -> [UInt8] {
    var out = [UInt8](repeating: 0xEE, count: stream.recordBytes)
    try out.withUnsafeMutableBytes { raw in Result { () throws(FathomError) in try stream.read(record: index, into: raw) } }.get()
    return out
}

/// A zlib stream of 40 records of 4096 bytes (seed 5), cut at each fraction of its length, with the whole records
/// zlib itself inflates from what is left.
private func cutStreams(at fractions: [Double]) -> [(fraction: Double, bytes: [UInt8], whole: Int)] {
    let full = zlibStream(records(cutCount, bytes: cutSize, seed: 5), wrapped: false)
    return fractions.map { fraction in
        let cut = Array(full[0..<Int(Double(full.count) * fraction)])
        return (fraction, cut, inflatedLength(cut) / cutSize)
    }
}
private let cutCount = 40, cutSize = 4096

/// 30 records of 2000 bytes (seed 6) in stored blocks of 10,000 bytes, the third block's NLEN broken: inflate fails
/// after the first two blocks (records 0..<10).
private func corruptStream() -> [UInt8] {
    var damaged = storedStream(records(30, bytes: 2000, seed: 6), block: 10_000, wrapped: false)
    // Block k starts at k * (10000 + 5).
    damaged[2 * 10_005 + 3] ^= 0xFF
    return damaged
}

/// Every scan test, under one name (`swift test --filter ScanTests`).
@Suite("Scans")
struct ScanTests {}

// MARK: - CompressedStream

extension ScanTests {
    @Suite("CompressedStream")
    struct CompressedStreamTests {
        /// 300 records of 96 KiB: 28 MiB of output, so checkpoints near 8, 16 and 24 MiB besides the start.
        static let count = 300, size = 98304

        @Test("zlib's dynamic blocks past several checkpoints: random-order reads equal the records", arguments: [false, true])
        func checkpoints(wrapped: Bool) throws {
            let data = records(Self.count, bytes: Self.size)
            let path = try write(zlibStream(data, wrapped: wrapped), "dynamic-\(wrapped).zlib")
            defer { unlink(path) }
            let stream = try CompressedStream(path: path, recordBytes: Self.size)
            #expect(stream.wrapped == wrapped)
            #expect(stream.recordCount == Self.count)
            #expect(stream.inflatedBytes == data.count)
            #expect(stream.problems == [])
            #expect(stream.checkpointCount >= 4)
            var rng = SplitMix64(seed: wrapped ? 2 : 3)
            var order = Array(0..<Self.count)
            order.shuffle(using: &rng)
            order += [299, 0, 299, 175, 174, 176, 176, 41]
            for i in order.prefix(60) + order.suffix(8) {
                #expect(try readRecord(stream, i) == Array(data[i * Self.size..<(i + 1) * Self.size]), "record \(i)")
            }
            for i in stride(from: Self.count - 1, through: 0, by: -17) {  // backwards: each read starts afresh
                #expect(try readRecord(stream, i) == record(i, bytes: Self.size), "record \(i)")
            }
        }

        @Test("stored blocks written by hand, raw and zlib-wrapped (Adler-32 computed here)", arguments: [false, true])
        func storedBlocks(wrapped: Bool) throws {
            // 40 MB in 40 kB stored blocks: more ISA-L calls than `maxCheckpoints`, so the index is thinned; records
            // straddle the blocks.
            let size = 1000, count = 40_000
            let data = records(count, bytes: size, seed: 9)
            let path = try write(storedStream(data, block: 40_000, wrapped: wrapped), "stored-\(wrapped).zlib")
            defer { unlink(path) }
            let stream = try CompressedStream(path: path, recordBytes: size)
            #expect(stream.wrapped == wrapped)
            #expect(stream.recordCount == count && stream.problems == [])
            #expect(stream.checkpointCount > CompressedStream.maxCheckpoints / 2 && stream.checkpointCount <= CompressedStream.maxCheckpoints + 1)
            var rng = SplitMix64(seed: 4)
            for _ in 0..<40 {
                let i = rng.int(0...count - 1)
                #expect(try readRecord(stream, i) == Array(data[i * size..<(i + 1) * size]), "record \(i)")
            }
            for i in 0..<count where i % 97 == 0 {
                #expect(try readRecord(stream, i) == record(i, bytes: size, seed: 9), "record \(i)")
            }
        }

        @Test("a stream cut anywhere keeps the whole records zlib inflates from what is left")
        func cut() throws {
            let size = cutSize
            for (fraction, cut, whole) in cutStreams(at: [0.11, 0.35, 0.5, 0.77, 0.999]) {
                let path = try write(cut, "cut.zlib")
                defer { unlink(path) }
                if whole == 0 {
                    _ = expectError(.format, containing: [path, "no whole frame"]) { () throws(FathomError) in
                        _ = try CompressedStream(path: path, recordBytes: size)
                    }
                    continue
                }
                let stream = try CompressedStream(path: path, recordBytes: size)
                #expect(stream.recordCount == whole, "cut at \(fraction)")
                #expect(stream.problems.contains { $0.contains("cut") }, "\(stream.problems)")
                for i in [0, whole / 2, whole - 1] {
                    #expect(try readRecord(stream, i) == record(i, bytes: size, seed: 5))
                }
                _ = expectError(.outOfRange, containing: ["\(whole)"]) { () throws(FathomError) in _ = try readRecord(stream, whole) }
            }
        }

        @Test("a corrupt block: the records inflated before it are kept, and said")
        func corrupt() throws {
            let size = 2000
            let path = try write(corruptStream(), "corrupt.zlib")
            defer { unlink(path) }
            let stream = try CompressedStream(path: path, recordBytes: size)
            #expect(stream.recordCount == 10)  // the first two blocks: 20000 bytes
            #expect(stream.problems.contains { $0.contains("corrupt") && $0.contains("20000 bytes") }, "\(stream.problems)")
            for i in 0..<10 { #expect(try readRecord(stream, i) == record(i, bytes: size, seed: 6)) }
        }

        @Test("a checksum that does not match: every record still readable, and said")
        func checksum() throws {
            let size = 1000
            let data = records(12, bytes: size, seed: 8)
            var stream = storedStream(data, wrapped: true)
            stream[stream.count - 1] ^= 0x55
            let path = try write(stream, "checksum.zlib")
            defer { unlink(path) }
            let s = try CompressedStream(path: path, recordBytes: size)
            #expect(s.recordCount == 12)
            #expect(s.problems.contains { $0.contains("checksum") }, "\(s.problems)")
            #expect(try readRecord(s, 11) == record(11, bytes: size, seed: 8))  // the last, read up to the trailer
            #expect(try readRecord(s, 3) == record(3, bytes: size, seed: 8))
        }

        @Test("trailing bytes, a partial last record after a proper end, empty and garbage files")
        func otherDamage() throws {
            let size = 1000
            let data = records(8, bytes: size, seed: 7)
            let trailing = try write(zlibStream(data, wrapped: false) + Array("tail".utf8), "trailing.zlib")
            defer { unlink(trailing) }
            let t = try CompressedStream(path: trailing, recordBytes: size)
            #expect(t.recordCount == 8 && t.problems.count == 1 && t.problems[0].contains("4 bytes after the end"))

            let partial = try write(zlibStream(Array(data.dropLast(10)), wrapped: false), "partial.zlib")
            defer { unlink(partial) }
            let p = try CompressedStream(path: partial, recordBytes: size)
            #expect(p.recordCount == 7)
            #expect(p.problems.count == 1 && p.problems[0].contains("corrupt") && p.problems[0].contains("990 bytes into"))

            let empty = try write([], "empty.zlib")
            defer { unlink(empty) }
            _ = expectError(.format, containing: [empty, "empty"]) { () throws(FathomError) in
                _ = try CompressedStream(path: empty, recordBytes: size)
            }
            var rng = SplitMix64(seed: 10)
            let garbage = try write((0..<4096).map { _ in UInt8(rng.next() & 0xFF) }, "garbage.zlib")
            defer { unlink(garbage) }
            _ = expectError(.format, containing: [garbage, "no whole frame"]) { () throws(FathomError) in
                _ = try CompressedStream(path: garbage, recordBytes: size)
            }
            _ = expectError(.io, containing: ["/nonexistent/x.zlib"]) { () throws(FathomError) in
                _ = try CompressedStream(path: "/nonexistent/x.zlib", recordBytes: size)
            }
        }
}

}

// MARK: - CompressedStream indexed while read

extension ScanTests {
    @Suite("CompressedStream indexed while read")
    struct IndexWhileReadingTests {
        static let count = 300, size = 98304

        private static func lazy(_ path: String, _ size: Int, _ count: Int) throws(FathomError) -> CompressedStream {
            try CompressedStream(path: path, recordBytes: size, maxRecords: count, indexWhileReading: true)
        }

        @Test("read in order, then at random: the records, checkpoints kept on the way", arguments: [false, true])
        func inOrder(wrapped: Bool) throws {
            let data = records(Self.count, bytes: Self.size)
            let path = try write(zlibStream(data, wrapped: wrapped), "lazy-\(wrapped).zlib")
            defer { unlink(path) }
            let stream = try Self.lazy(path, Self.size, Self.count)
            #expect(stream.indexesWhileReading && stream.recordCount == Self.count)
            #expect(stream.inflatedBytes == nil && stream.problems == [] && stream.checkpointCount == 1)
            for i in 0..<Self.count {
                let expected = Array(data[i * Self.size..<(i + 1) * Self.size])
                #expect(try readRecord(stream, i) == expected, "record \(i)")
            }
            // One at the first place a snapshot can be taken at least 256 KiB past the last (ISA-L's calls end
            // every 128-256 KiB of output here): about 70-110 over the 28 MiB read.
            #expect(stream.checkpointCount > 50 && stream.checkpointCount <= CompressedStream.maxCheckpoints + 1, "\(stream.checkpointCount)")
            #expect(stream.inflatedBytes == nil && stream.problems == [])
            var rng = SplitMix64(seed: wrapped ? 20 : 21)
            for _ in 0..<40 {
                let i = rng.int(0...Self.count - 1)
                #expect(try readRecord(stream, i) == record(i, bytes: Self.size), "record \(i)")
            }
        }

        @Test("random reads before any in order: each past the frontier indexes up to it")
        func randomFirst() throws {
            let data = records(Self.count, bytes: Self.size, seed: 3)
            let path = try write(zlibStream(data, wrapped: false), "lazy-random.zlib")
            defer { unlink(path) }
            let stream = try Self.lazy(path, Self.size, Self.count)
            for i in [250, 10, 299, 0, 251, 120, 121] {
                #expect(try readRecord(stream, i) == record(i, bytes: Self.size, seed: 3), "record \(i)")
            }
            #expect(stream.checkpointCount > 50 && stream.problems == [])
            try stream.check(record: 299)
        }

        @Test("stored blocks, 80 MB read in order: more than maxCheckpoints places, so thinned, then spread")
        func thinned() throws {
            // Snapshots can be taken every 64 KiB (a stored block's output is its input); one per 256 KiB is 305.
            let size = 1000, count = 80_000
            let data = records(count, bytes: size, seed: 9)
            let path = try write(storedStream(data, block: 40_000, wrapped: true), "lazy-stored.zlib")
            defer { unlink(path) }
            let stream = try Self.lazy(path, size, count)
            for i in 0..<count where i % 997 == 0 || i == count - 1 {
                #expect(try readRecord(stream, i) == Array(data[i * size..<(i + 1) * size]), "record \(i)")
            }
            #expect(stream.checkpointCount > CompressedStream.maxCheckpoints / 4 && stream.checkpointCount <= CompressedStream.maxCheckpoints + 1,
                    "\(stream.checkpointCount)")
            var rng = SplitMix64(seed: 5)
            for _ in 0..<30 {
                let i = rng.int(0...count - 1)
                #expect(try readRecord(stream, i) == record(i, bytes: size, seed: 9), "record \(i)")
            }
        }

        @Test("a cut stream: the reads before the cut succeed, the first past it throws .format naming the cut")
        func cut() throws {
            let size = cutSize, count = cutCount
            for (fraction, cut, whole) in cutStreams(at: [0.02, 0.35, 0.77, 0.999]) {
                let path = try write(cut, "lazy-cut.zlib")
                defer { unlink(path) }
                if whole == 0 {
                    _ = expectError(.format, containing: [path, "no whole frame"]) { () throws(FathomError) in _ = try Self.lazy(path, size, count) }
                    continue
                }
                let stream = try Self.lazy(path, size, count)
                #expect(stream.recordCount == count)
                for i in 0..<whole { #expect(try readRecord(stream, i) == record(i, bytes: size, seed: 5), "cut at \(fraction), record \(i)") }
                _ = expectError(.format, containing: [path, "frame \(whole) is not in the stream", "\(whole) whole frames", "cut"]) {
                    () throws(FathomError) in _ = try readRecord(stream, whole)
                }
                #expect(stream.recordCount == whole && stream.inflatedBytes != nil)
                #expect(stream.problems.contains { $0.contains("cut") }, "\(stream.problems)")
                #expect(try readRecord(stream, whole - 1) == record(whole - 1, bytes: size, seed: 5))
                _ = expectError(.format, containing: ["not in the stream"]) { () throws(FathomError) in try stream.check(record: count - 1) }
                _ = expectError(.outOfRange, containing: ["\(whole)"]) { () throws(FathomError) in _ = try readRecord(stream, count) }
            }
        }

        @Test("a corrupt block found by check: the records before it stay readable")
        func corrupt() throws {
            let size = 2000
            let path = try write(corruptStream(), "lazy-corrupt.zlib")
            defer { unlink(path) }
            let stream = try Self.lazy(path, size, 30)
            for i in 0..<10 { try stream.check(record: i) }
            _ = expectError(.format, containing: ["frame 10 is not in the stream", "corrupt"]) { () throws(FathomError) in
                try stream.check(record: 10)
            }
            for i in 0..<10 { #expect(try readRecord(stream, i) == record(i, bytes: size, seed: 6)) }
        }

        @Test("without a record count, or not DEFLATE data: refused at opening")
        func refused() throws {
            let path = try write(zlibStream(records(4, bytes: 100), wrapped: false), "lazy-count.zlib")
            defer { unlink(path) }
            _ = expectError(.outOfRange, containing: ["record count"]) { () throws(FathomError) in _ = try Self.lazy(path, 100, .max) }
            let garbage = try write(Array(repeating: 0xFF, count: 5000), "lazy-garbage.zlib")
            defer { unlink(garbage) }
            _ = expectError(.format, containing: [garbage]) { () throws(FathomError) in _ = try Self.lazy(garbage, 100, 4) }
        }
    }
}

// MARK: - ScanWriter -> Scan

extension ScanTests {
    @Suite("ScanWriter and Scan")
    struct RoundTripTests {
        @Test("float16 depth, confidence, timestamps, poses and intrinsics come back as written (past a checkpoint)")
        func roundTrip() throws {
            let w = 256, h = 192, n = 48  // 4.7 MB of depth: reads start from two checkpoints
            let dir = temporaryPath("roundtrip")
            defer { _ = system("rm -rf '\(dir)'") }
            var rng = SplitMix64(seed: 11)
            var depths = [[UInt16]](), confidences = [[UInt8]](), times = [Int64](), poses = [Pose](), ks = [Intrinsics]()
            let writer = try ScanWriter(directory: dir, scanID: "20240611_101530_AB", depthWidth: w, depthHeight: h,
                                        rgbWidth: 1920, rgbHeight: 1440)
            var t: Int64 = 280_670_466_266_040
            for f in 0..<n {
                // float16 bit patterns of 0.5 ..< 4 m (exponents 14...16) with noise, and holes (0)
                let depth: [UInt16] = (0..<w * h).map { i in
                    i % 53 == f % 53 ? 0 : UInt16(14 + (i / w + f) % 3) << 10 | UInt16((i % w) * 4 + Int(rng.next() % 4))
                }
                let confidence: [UInt8] = (0..<w * h).map { i in UInt8((i / 7 + f) % 3) }
                let pose = randomPose(&rng)
                let k = try Intrinsics(fx: rng.float(1600...1620), fy: rng.float(1600...1620), cx: rng.float(940...942),
                                       cy: rng.float(726...728), width: 1920, height: 1440)
                t += 16_666_667 + Int64(rng.int(-900_000...900_000))
                try depth.withUnsafeBytes { d in
                    try confidence.withUnsafeBytes { c in try writer.append(timestamp: t, rgb: k, pose: pose, depth: d, confidence: c) }
                }
                depths.append(depth)
                confidences.append(confidence)
                times.append(t)
                poses.append(pose)
                ks.append(k)
            }
            try writer.finish()

            let scan = try Scan(path: dir)
            #expect(scan.scanID == "20240611_101530_AB")
            #expect(scan.count == n && scan.warnings == [])
            #expect(scan.depthWidth == w && scan.depthHeight == h && scan.depthFormat == .float16 && scan.depthScale == 1)
            #expect(scan.rgbWidth == 1920 && scan.rgbHeight == 1440 && scan.frequency == 60 && scan.hasConfidence)
            #expect(scan.timestamps == times)
            #expect(scan.intrinsics == ks)
            #expect(scan.poses.map(\.columnMajor) == poses.map(\.columnMajor))
            var order = Array(0..<n)
            order.shuffle(using: &rng)
            for f in order {
                var depth = [UInt16](repeating: 0xFFFF, count: w * h)
                var confidence = [UInt8](repeating: 9, count: w * h)
                try depth.withUnsafeMutableBytes { try scan.readDepth(f, into: $0) }
                try confidence.withUnsafeMutableBytes { try scan.readConfidence(f, into: $0) }
                #expect(depth == depths[f], "depth of frame \(f)")
                #expect(confidence == confidences[f], "confidence of frame \(f)")
            }
            // A frame lent as a depth frame: its grid intrinsics are the RGB ones scaled, and it carries the pose.
            let frame = try ScanFrame(scan, 7)
            #expect(frame.timestamp == times[7] && frame.pose == poses[7] && frame.rgb == ks[7])
            let grid = try frame.withDepthFrame { $0.grid }
            let scaled = try ks[7].scaled(width: w, height: h)
            #expect(grid == scaled)
            _ = expectError(.outOfRange, containing: ["48"]) { () throws(FathomError) in _ = try ScanFrame(scan, n) }
        }

        @Test("a cut depth stream: the scan keeps the whole frames of every stream, and says why")
        func cutScan() throws {
            let w = 64, h = 48, n = 10
            let dir = temporaryPath("cutscan")
            defer { _ = system("rm -rf '\(dir)'") }
            let writer = try ScanWriter(directory: dir, scanID: "s", depthWidth: w, depthHeight: h, rgbWidth: 640, rgbHeight: 480,
                                        depthFormat: .float32, withConfidence: false)
            var rng = SplitMix64(seed: 12)
            let k = try Intrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
            for f in 0..<n {
                let depth = (0..<w * h).map { _ in rng.float(0.3...5) }
                let pose = randomPose(&rng)
                try depth.withUnsafeBytes { try writer.append(timestamp: Int64(f), rgb: k, pose: pose, depth: $0, confidence: nil) }
            }
            try writer.finish()
            let path = dir + "/s.depth.zlib"
            let full = try FileIO.read(path)
            let cut = Array(full[0..<full.count * 2 / 3])
            try FileIO.write(cut, to: path)
            let whole = inflatedLength(cut) / (w * h * 4)
            #expect(whole > 0 && whole < n)
            let scan = try Scan(path: dir + "/s.json")
            #expect(scan.count == whole && scan.timestamps.count == whole && scan.poses.count == whole)
            #expect(scan.warnings.contains { $0.hasPrefix("s.depth.zlib:") && $0.contains("cut") }, "\(scan.warnings)")
            #expect(scan.warnings.contains { $0.contains("frame counts disagree") && $0.contains("\(whole) frames are read") })
            _ = expectError(.noData, containing: ["confidence"]) { () throws(FathomError) in
                var c = [UInt8](repeating: 0, count: w * h)
                try c.withUnsafeMutableBytes { raw in Result { () throws(FathomError) in try scan.readConfidence(0, into: raw) } }.get()
            }

            // Indexed while read: all n frames listed, the cut found by the read that reaches it; a report feeds
            // the same frames as the scan indexed at opening, and says where it stopped.
            let lazy = try Scan(path: dir + "/s.json", indexWhileReading: true)
            #expect(lazy.indexesWhileReading && !scan.indexesWhileReading)
            #expect(lazy.count == n && lazy.warnings == [])
            var depth = [Float](repeating: 0, count: w * h), other = depth
            for f in 0..<whole {
                try depth.withUnsafeMutableBytes { try lazy.readDepth(f, into: $0) }
                try other.withUnsafeMutableBytes { try scan.readDepth(f, into: $0) }
                #expect(depth == other, "frame \(f)")
            }
            _ = expectError(.format, containing: ["s.depth.zlib", "frame \(whole) is not in the stream", "cut"]) { () throws(FathomError) in
                try depth.withUnsafeMutableBytes { raw in Result { () throws(FathomError) in try lazy.readDepth(whole, into: raw) } }.get()
            }
            let (eager, _, _) = try scan.capture()
            let (fed, _, skipped) = try Scan(path: dir, indexWhileReading: true).capture()
            #expect(fed.timestamps == eager.timestamps && fed.timestamps.count == whole)
            #expect(skipped.contains { $0.hasPrefix("frames \(whole) to \(n - 1) were not read") && $0.contains("cut") }, "\(skipped)")
        }
}
}
