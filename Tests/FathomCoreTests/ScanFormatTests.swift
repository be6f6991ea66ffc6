// The capture formats in the core: a Stray Scanner folder whose PNGs the test writes by hand (zlib stored blocks
// and CRC-32 from zlib, no PNG library), read back sample for sample; damage (a missing and a cut PNG, dropped
// frames); and conversions between the formats, compared with what the test wrote.
import CZlib
import FathomCore
import Glibc
import Testing

/// A grayscale PNG of `bits` (8 or 16) bits, written here: IHDR, one IDAT of zlib stored blocks (filter 0 per row),
/// IEND.
private func png(width: Int, height: Int, bits: Int, samples: [UInt16]) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { Int(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return be32(data.count) + body + be32(crc)
    }
    var raw = [UInt8]()
    for j in 0..<height {
        raw.append(0)
        for i in 0..<width {
            let v = samples[j * width + i]
            raw += bits == 16 ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v)]
        }
    }
    var z: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
        let n = min(65535, raw.count - start)
        z += [start + n == raw.count ? 1 : 0, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)]
        z += raw[start..<start + n]
        start += n
    } while start < raw.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
    z += be32(Int(b << 16 | a))
    let ihdr = be32(width) + be32(height) + [UInt8(bits), 0, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", z) + chunk("IEND", [])
}

private func write(_ bytes: [UInt8], _ path: String) {
    let f = fopen(path, "wb")!
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    fclose(f)
}

private func temporaryFolder() -> String {
    var template = Array("/tmp/fathom-formats-XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template)!)
}

private let size = (width: 16, height: 12)

private func unit(_ v: SIMD3<Float>) -> SIMD3<Float> { v / length(v) }

/// Frame i's millimetres: a ramp with holes (0 = no depth).
private func millimetres(_ i: Int) -> [UInt16] {
    (0..<size.width * size.height).map { k in k % 7 == 3 ? 0 : UInt16(900 + 13 * k + 101 * i) }
}

/// A Stray folder of `n` frames: timestamps 1/60 s apart with a double gap before frame 5, each frame turned and
/// moved; odometry in OpenCV camera axes as the app writes it.
private func strayFolder(_ n: Int) -> (folder: String, nanoseconds: [Int64], arkit: [Pose]) {
    let folder = temporaryFolder()
    mkdir(folder + "/depth", 0o755)
    mkdir(folder + "/confidence", 0o755)
    write(Array("1600,0,960\n0,1600,720\n0,0,1\n".utf8), folder + "/camera_matrix.csv")
    var odometry = "timestamp, frame, x, y, z, qx, qy, qz, qw\n"
    var nanoseconds = [Int64](), arkit = [Pose]()
    for i in 0..<n {
        let ns = Int64(1_000_123_456_789) + Int64(i + (i >= 5 ? 1 : 0)) * 16_666_667
        let q = try! Quaternion(axis: unit(SIMD3(0.2, 1, 0.1)), angle: 0.1 * Float(i))
        let t = SIMD3<Float>(0.01 * Float(i), 1.4, -0.02 * Float(i))
        let digits = String(ns % 1_000_000_000)
        odometry += "\(ns / 1_000_000_000).\(String(repeating: "0", count: 9 - digits.count) + digits), \(i), \(t.x), \(t.y), \(t.z), "
            + "\(q.vector.x), \(q.vector.y), \(q.vector.z), \(q.vector.w)\n"
        let name = String(repeating: "0", count: 6 - String(i).count) + String(i) + ".png"
        write(png(width: size.width, height: size.height, bits: 16, samples: millimetres(i)), folder + "/depth/" + name)
        write(png(width: size.width, height: size.height, bits: 8, samples: (0..<size.width * size.height).map { UInt16(($0 + i) % 3) }),
              folder + "/confidence/" + name)
        nanoseconds.append(ns)
        // OpenCV camera axes times diag(1, -1, -1) are ARKit's.
        let r = q.matrix
        arkit.append(Pose(rotation: Matrix3(r.c0, -r.c1, -r.c2), translation: t))
    }
    write(Array(odometry.utf8), folder + "/odometry.csv")
    return (folder, nanoseconds, arkit)
}

private func depth(_ scan: Scan, _ i: Int) throws -> [Float] {
    var out = [Float](repeating: -1, count: scan.depthWidth * scan.depthHeight)
    try out.withUnsafeMutableBytes { raw in try scan.readDepth(i, into: raw) }
    return out
}

private func confidence(_ scan: Scan, _ i: Int) throws -> [UInt8] {
    var out = [UInt8](repeating: 9, count: scan.depthWidth * scan.depthHeight)
    try out.withUnsafeMutableBytes { raw in try scan.readConfidence(i, into: raw) }
    return out
}

@Suite struct ScanFormatTests {
    @Test func aStrayFolderReadsAsWritten() throws {
        let (folder, nanoseconds, arkit) = strayFolder(8)
        for path in [folder, folder + "/odometry.csv", folder + "/depth/000003.png"] {
            let scan = try Scan(path: path)
            #expect(scan.format == .stray && scan.count == 8 && scan.depthFormat == .float32 && scan.depthScale == 1)
            #expect(scan.depthWidth == size.width && scan.depthHeight == size.height && scan.hasConfidence)
            #expect(scan.timestamps == nanoseconds)
            #expect(scan.intrinsics[0] == (try Intrinsics(fx: 1600, fy: 1600, cx: 960, cy: 720, width: 1920, height: 1440)))
            for i in 0..<8 {
                #expect(try depth(scan, i) == millimetres(i).map { Float($0) * Float(0.001) })
                #expect(try confidence(scan, i) == (0..<size.width * size.height).map { UInt8(($0 + i) % 3) })
                #expect(close(scan.poses[i].rotation, arkit[i].rotation, 1e-6) && scan.poses[i].translation == arkit[i].translation)
            }
            #expect(scan.warnings.contains { $0.contains("dropped") && $0.contains("frames 5") })
        }
    }

    @Test func missingAndCutPNGsSkipTheirFrames() throws {
        let (folder, nanoseconds, _) = strayFolder(8)
        unlink(folder + "/depth/000002.png")
        truncate(folder + "/confidence/000006.png", 40)
        let scan = try Scan(path: folder)
        #expect(scan.count == 6)
        #expect(scan.timestamps == nanoseconds.enumerated().filter { $0.offset != 2 && $0.offset != 6 }.map(\.element))
        #expect(try depth(scan, 2) == millimetres(3).map { Float($0) * Float(0.001) })
        #expect(scan.warnings.contains { $0.contains("missing") && $0.contains("000002.png") })
        #expect(scan.warnings.contains { $0.contains("cut") && $0.contains("000006.png") })
    }

    @Test func conversionsKeepEverySample() throws {
        let (folder, nanoseconds, _) = strayFolder(6)
        let stray = try Scan(path: folder)
        let out = temporaryFolder()
        let scannerPath = try stray.write(to: out + "/scanner", format: .scanner)
        let scanner = try Scan(path: scannerPath)
        #expect(scanner.format == .scanner && scanner.depthFormat == .uint16 && scanner.timestamps == nanoseconds)
        let back = try Scan(path: try scanner.write(to: out + "/stray", format: .stray))
        #expect(back.format == .stray && back.timestamps == nanoseconds && back.intrinsics == stray.intrinsics)
        for i in 0..<6 {
            let meters = millimetres(i).map { Float($0) * Float(0.001) }
            var stored = [UInt16](repeating: 0, count: size.width * size.height)
            try stored.withUnsafeMutableBytes { raw in try scanner.readDepth(i, into: raw) }
            #expect(stored == millimetres(i))
            #expect(try depth(back, i) == meters)
            #expect(try confidence(back, i) == confidence(stray, i))
            #expect(close(back.poses[i].rotation, stray.poses[i].rotation, 1e-6))
            #expect(close(back.poses[i].translation, stray.poses[i].translation, 1e-6))
        }
        var calls = 0
        #expect(throws: FathomError.self) { try stray.write(to: out + "/cancelled", format: .stray) { _, _ in calls += 1; return false } }
        #expect(calls == 1)
        #expect(throws: FathomError.self) { try stray.write(to: out + "/n", format: .nerfstudio) }
    }

    @Test func aFolderOfNoFormatIsNotAScan() {
        let folder = temporaryFolder()
        expectError(.format, containing: ["not a scan"]) { () throws(FathomError) in _ = try Scan(path: folder) }
    }
}
