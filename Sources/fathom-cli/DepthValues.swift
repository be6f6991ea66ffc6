import FathomCore

/// A depth map held by the REPL: meters, row-major, with the RGB image's intrinsics it belongs to.
final class DepthImage {
    let values: [Float]
    let width: Int, height: Int
    let rgb: Intrinsics

    init(values: [Float], width: Int, height: Int, rgb: Intrinsics) {
        self.values = values; self.width = width; self.height = height; self.rgb = rgb
    }

    /// Runs `body` with a validated frame borrowing the values.
    func withFrame<R>(_ body: (DepthFrame) throws -> R) throws -> R {
        try values.withUnsafeBytes { raw in
            try body(DepthFrame(base: raw.baseAddress!, format: .float32, width: width, height: height, rgb: rgb))
        }
    }

    var validCount: Int { (try? withFrame { $0.validCount(.all($0)) }) ?? 0 }
}

/// A binary mask held by the REPL (1 inside, 0 outside), row-major.
final class MaskImage {
    let bytes: [UInt8]
    let width: Int, height: Int

    init(bytes: [UInt8], width: Int, height: Int) { self.bytes = bytes; self.width = width; self.height = height }

    func withMask<R>(_ body: (Mask) throws -> R) throws -> R {
        try bytes.withUnsafeBufferPointer { try body(Mask(base: $0.baseAddress!, width: width, height: height)) }
    }

    var insideCount: Int { bytes.reduce(0) { $0 + ($1 != 0 ? 1 : 0) } }
}
