import Glibc

/// Depth and confidence frames stored one PNG file per frame (Stray Scanner, nerfstudio): 16-bit grayscale
/// depth in integer units of `depthScale` meters (0 = no depth), 8-bit grayscale confidence. Reading frame i
/// decodes its file, once; depth comes out as float32 meters, as a scanner-app scan's float16 would.
struct PNGFrames: Sendable {
    let depthPaths: [String]
    let confidencePaths: [String]?
    let width: Int, height: Int
    /// Meters per stored depth unit (0.001 for millimetres).
    let depthScale: Float

    /// The largest PNG file read: a 4096 x 4096 16-bit image stored without compression is 32 MiB.
    static let fileLimit = 1 << 26

    /// Which of the frames (each a depth path and, when `confidencePaths` is given, a confidence path) can be read:
    /// both files are there, are PNGs of the right kind and size and end with their IEND chunk. A file that is
    /// missing, cut or of another kind drops its frame; `problems` says which, in a few words each kind.
    /// The size is the first readable depth PNG's.
    static func usable(depth: [String], confidence: [String]?) -> (frames: [Int], width: Int, height: Int, problems: [String]) {
        var missing = [String](), cut = [String](), wrong = [String]()
        var size: (width: Int, height: Int)?
        var frames = [Int]()
        for i in depth.indices {
            var ok = true
            for (path, bits) in [(depth[i], 16)] + (confidence.map { [($0[i], 8)] } ?? []) where ok {
                switch inspect(path) {
                case .missing: missing.append(path); ok = false
                case .cut: cut.append(path); ok = false
                case .other(let why): wrong.append("\(path) (\(why))"); ok = false
                case .png(let header):
                    guard header.colorType == 0, header.bitDepth == bits else {
                        wrong.append("\(path) (a \(header.bitDepth)-bit PNG of colour type \(header.colorType), not \(bits)-bit grayscale)")
                        ok = false
                        break
                    }
                    let expected = size ?? (header.width, header.height)
                    guard header.width == expected.width, header.height == expected.height, header.width >= 1, header.height >= 1,
                          header.width <= PNGImage.maxSide, header.height <= PNGImage.maxSide,
                          header.width * header.height <= ScanMetadata.maxDepthPixels else {
                        wrong.append("\(path) (\(header.width) x \(header.height), not \(expected.width) x \(expected.height))")
                        ok = false
                        break
                    }
                    if bits == 16 { size = expected }
                }
            }
            if ok { frames.append(i) }
        }
        var problems = [String]()
        func say(_ paths: [String], _ what: String) {
            guard let first = paths.first else { return }
            let more = paths.count > 1 ? " and \(paths.count - 1) more" : ""
            problems.append("\(paths.count) frame\(paths.count == 1 ? "" : "s") skipped: \(what): \(first)\(more)")
        }
        say(missing, "a depth or confidence PNG is missing")
        say(cut, "a PNG is cut (it does not end with its IEND chunk)")
        say(wrong, "a file is not a PNG of the scan's kind")
        return (frames, size?.width ?? 0, size?.height ?? 0, problems)
    }

    private enum Inspection { case missing, cut, other(String), png(PNGImage.Header) }

    /// The header of the file at `path` and whether it ends as a whole PNG: its first 33 and last 12 bytes.
    private static func inspect(_ path: String) -> Inspection {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? .missing : .other(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .other("not a regular file") }
        var head = [UInt8](repeating: 0, count: 33), tail = [UInt8](repeating: 0, count: 12)
        let size = Int(info.st_size)
        guard size >= 45, size <= fileLimit else { return size < 45 ? .cut : .other("\(size) bytes, more than a depth PNG has") }
        guard head.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 33, 0) }) == 33,
              tail.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 12, off_t(size - 12)) }) == 12 else {
            return .other("unreadable")
        }
        let parsed = head.withUnsafeBytes { b in Result { () throws(FathomError) in try PNGImage.header(b) } }
        guard case .success(let header) = parsed else {
            if case .failure(let error) = parsed { return .other(error.message) }
            return .other("unreadable")
        }
        return tail.withUnsafeBytes { PNGImage.hasEnd($0) } ? .png(header) : .cut
    }

    /// Frame `index`'s depth as float32 meters into `destination` (width * height * 4 bytes).
    func readDepth(_ index: Int, into destination: UnsafeMutableRawBufferPointer) throws(FathomError) {
        let path = depthPaths[index]
        let bytes = try FileIO.read(path, limit: PNGFrames.fileLimit)
        var stored = [UInt16](repeating: 0, count: width * height)
        let decoded = bytes.withUnsafeBytes { png in
            stored.withUnsafeMutableBytes { out in
                Result { () throws(FathomError) in try PNGImage.decodeGray(png, width: width, height: height, bitDepth: 16, into: out) }
            }
        }
        if case .failure(let error) = decoded { throw FathomError(error.kind, "'\(path)': \(error.message)") }
        // The caller's buffer need not be aligned for Float: unaligned stores.
        let scale = depthScale
        stored.withUnsafeBufferPointer { s in
            for k in 0..<s.count { destination.storeBytes(of: Float(s[k]) * scale, toByteOffset: 4 &* k, as: Float.self) }
        }
    }

    /// Frame `index`'s confidence into `destination` (width * height bytes); `.noData` without confidence files. A
    /// value above 2 is damage (ARKit writes 0, 1 or 2) and reads as 0, low.
    func readConfidence(_ index: Int, into destination: UnsafeMutableRawBufferPointer) throws(FathomError) {
        guard let confidencePaths else { throw FathomError(.noData, "the scan has no confidence frames") }
        let path = confidencePaths[index]
        let bytes = try FileIO.read(path, limit: PNGFrames.fileLimit)
        // Decoded aside: a decode that fails midway (damage found late) leaves the caller's buffer untouched.
        var stored = [UInt8](repeating: 0, count: width * height)
        let decoded = bytes.withUnsafeBytes { png in
            stored.withUnsafeMutableBytes { out in
                Result { () throws(FathomError) in try PNGImage.decodeGray(png, width: width, height: height, bitDepth: 8, into: out) }
            }
        }
        if case .failure(let error) = decoded { throw FathomError(error.kind, "'\(path)': \(error.message)") }
        for k in 0..<stored.count { destination[k] = stored[k] > 2 ? 0 : stored[k] }
    }
}
