import CZlib
import FathomCore

/// An RGB raster drawn by the report plots and written as PNG (8-bit RGB, zlib-compressed rows).
struct PNGImage {
    let width: Int, height: Int
    private(set) var pixels: [UInt8]

    init(width: Int, height: Int, background: SIMD3<UInt8> = SIMD3(255, 255, 255)) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fill(x0: 0, y0: 0, x1: width, y1: height, background)
    }

    mutating func set(_ x: Int, _ y: Int, _ color: SIMD3<UInt8>) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let k = 3 * (y * width + x)
        pixels[k] = color.x; pixels[k + 1] = color.y; pixels[k + 2] = color.z
    }

    mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, _ color: SIMD3<UInt8>) {
        for y in max(0, y0)..<max(max(0, y0), min(height, y1)) { for x in max(0, x0)..<max(max(0, x0), min(width, x1)) { set(x, y, color) } }
    }

    /// A line `thickness` pixels wide between two points (pixel coordinates, may lie outside).
    mutating func line(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ color: SIMD3<UInt8>, thickness: Int = 1) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
        let steps = Int(min(max(abs(b.x - a.x), abs(b.y - a.y)), 1e5).rounded(.up)) + 1
        for i in 0...steps {
            let p = a + (b - a) * (Float(i) / Float(steps))
            dot(p, color, radius: thickness / 2)
        }
    }

    mutating func dot(_ p: SIMD2<Float>, _ color: SIMD3<UInt8>, radius: Int) {
        guard p.x.isFinite, p.y.isFinite, abs(p.x) < 1e6, abs(p.y) < 1e6 else { return }
        let x = Int(p.x.rounded()), y = Int(p.y.rounded())
        for dy in -radius...radius { for dx in -radius...radius { set(x + dx, y + dy, color) } }
    }

    /// The image as a PNG file's bytes.
    func png() throws -> [UInt8] {
        var raw = [UInt8]()
        raw.reserveCapacity(height * (3 * width + 1))
        for y in 0..<height {
            raw.append(0)  // filter: none
            raw += pixels[(3 * width * y)..<(3 * width * (y + 1))]
        }
        var compressedLength = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        let status = compress2(&compressed, &compressedLength, raw, uLong(raw.count), 6)
        guard status == Z_OK else { throw FathomError(.outOfMemory, "zlib could not compress the image (status \(status))") }
        compressed.removeLast(compressed.count - Int(compressedLength))
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let crc = body.withUnsafeBufferPointer { Int(crc32(0, $0.baseAddress, uInt($0.count))) }
            return be32(data.count) + body + be32(crc)
        }
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]  // 8-bit RGB, deflate, no filter, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", compressed) + chunk("IEND", [])
    }

    func save(_ path: String) throws { try FileIO.write(png(), to: path) }
}
