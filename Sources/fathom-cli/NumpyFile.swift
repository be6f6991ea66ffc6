import FathomCore

/// Reads a 2D array from a numpy .npy file (format 1.0-3.0, C order; little-endian float32, float16, float64
/// or uint16) as float32 values: what depth maps are saved as from notebooks.
enum NumpyFile {
    static func read2D(path: String) throws -> (values: [Float], width: Int, height: Int) {
        let bytes = try FileIO.read(path)
        let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]  // \x93NUMPY
        guard bytes.count >= 10, Array(bytes[0..<6]) == magic else { throw FathomError(.parse, "\(path): not a .npy file") }
        let major = bytes[6]
        let headerLength: Int, headerStart: Int
        if major == 1 {
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        } else {
            guard bytes.count >= 12 else { throw FathomError(.parse, "\(path): truncated .npy header") }
            headerLength = (0..<4).reduce(0) { $0 | Int(bytes[8 + $1]) << (8 * $1) }
            headerStart = 12
        }
        guard headerStart + headerLength <= bytes.count else { throw FathomError(.parse, "\(path): truncated .npy header") }
        let header = String(decoding: bytes[headerStart..<(headerStart + headerLength)], as: UTF8.self)
        guard let descr = field(header, "descr"), let shapeText = field(header, "shape"), let order = field(header, "fortran_order") else {
            throw FathomError(.format, "\(path): .npy header lacks descr, fortran_order or shape")
        }
        guard order == "False" else { throw FathomError(.format, "\(path): Fortran-order arrays are not supported") }
        let shape = shapeText.trimmingCharacters(in: "() ").split(separator: ",").compactMap { Int($0.trimmingCharacters(in: " ")) }
        guard shape.count == 2, shape[0] >= 1, shape[1] >= 1 else {
            throw FathomError(.format, "\(path): expected a 2D array (height, width), got shape \(shapeText)")
        }
        let (height, width) = (shape[0], shape[1])
        let itemSize: Int
        switch descr {
        case "'<f4'", "'<u2'", "'<f2'", "'<f8'": itemSize = descr == "'<f4'" ? 4 : descr == "'<f8'" ? 8 : 2
        default: throw FathomError(.format, "\(path): element type \(descr) is not <f4, <f2, <f8 or <u2")
        }
        let dataStart = headerStart + headerLength
        guard bytes.count - dataStart >= width * height * itemSize else { throw FathomError(.parse, "\(path): array data is truncated") }
        let values: [Float] = bytes.withUnsafeBytes { raw in
            let data = raw.baseAddress! + dataStart
            return (0..<(width * height)).map { i in
                switch descr {
                case "'<f4'": Float(bitPattern: data.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self).littleEndian)
                case "'<f8'": Float(Double(bitPattern: data.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self).littleEndian))
                case "'<f2'": Float(Float16(bitPattern: data.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self).littleEndian))
                default: Float(data.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self).littleEndian)
                }
            }
        }
        return (values, width, height)
    }

    /// The text of `key`'s value in the header's Python dict literal.
    private static func field(_ header: String, _ key: String) -> String? {
        let pattern = Array("'\(key)':")
        let characters = Array(header)
        guard let start = (0...max(0, characters.count - pattern.count)).first(where: {
            $0 + pattern.count <= characters.count && Array(characters[$0..<($0 + pattern.count)]) == pattern
        }) else { return nil }
        let rest = String(characters[(start + pattern.count)...]).drop { $0 == " " }
        if rest.first == "(" { return rest.firstIndex(of: ")").map { String(rest[...$0]) } }
        return rest.firstIndex(of: ",").map { String(rest[..<$0]).trimmingCharacters(in: " ") }
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
