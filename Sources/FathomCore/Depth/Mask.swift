/// A caller-owned binary mask over an image: nonzero bytes are inside.
public struct Mask: @unchecked Sendable {
    public let base: UnsafePointer<UInt8>
    public let width: Int, height: Int
    /// Bytes from one row to the next.
    public let rowStride: Int

    /// Validates the size (>= 1x1) and the stride (0 = width).
    public init(base: UnsafePointer<UInt8>, width: Int, height: Int, rowStride: Int = 0) throws(FathomError) {
        guard width >= 1, height >= 1 else { throw FathomError(.outOfRange, "mask size must be at least 1x1, got \(width)x\(height)") }
        let stride = rowStride == 0 ? width : rowStride
        guard stride >= width else { throw FathomError(.outOfRange, "mask row_stride \(rowStride) is less than its width \(width)") }
        guard !stride.multipliedReportingOverflow(by: height).overflow else { throw FathomError(.overflow, "mask row_stride * height overflows") }
        self.base = base
        self.width = width
        self.height = height
        self.rowStride = stride
    }

    @inlinable
    public func isInside(_ x: Int, _ y: Int) -> Bool { base[y &* rowStride &+ x] != 0 }

    /// The mask column (or row) under the centre of cell `i` of a grid `gridSize` wide:
    /// floor((i + 0.5) * maskSize / gridSize), computed exactly in integers (a 128-bit product: sizes up to 2^32
    /// cannot overflow it). i < gridSize.
    @inlinable
    public static func cell(_ i: Int, grid gridSize: Int, mask maskSize: Int) -> Int {
        let product = UInt(2 &* i &+ 1).multipliedFullWidth(by: UInt(maskSize))
        return Int(truncatingIfNeeded: UInt(2 &* gridSize).dividingFullWidth(product).quotient)
    }
}

/// Which samples of a depth frame to use: a rectangle of the grid, a step, and an optional mask.
public struct DepthSelection: @unchecked Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int
    public var step: Int
    public var mask: Mask?

    /// The whole grid of `frame`, every sample.
    public static func all(_ frame: DepthFrame) -> DepthSelection {
        DepthSelection(x0: 0, y0: 0, x1: frame.width, y1: frame.height, step: 1, mask: nil)
    }

    public init(x0: Int, y0: Int, x1: Int, y1: Int, step: Int, mask: Mask?) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1; self.step = step; self.mask = mask
    }

    /// Validates against `frame`: x0 < x1 <= width, y0 < y1 <= height (x1 = y1 = 0: the whole grid), step >= 1.
    public init(x0: Int, y0: Int, x1: Int, y1: Int, step: Int, mask: Mask?, frame: DepthFrame) throws(FathomError) {
        let whole = x1 == 0 && y1 == 0
        let right = whole ? frame.width : x1, bottom = whole ? frame.height : y1
        guard step >= 1 else { throw FathomError(.outOfRange, "step must be >= 1, got \(step)") }
        guard right <= frame.width, bottom <= frame.height, x0 < right, y0 < bottom else {
            throw FathomError(.outOfRange, "region [\(x0), \(right)) x [\(y0), \(bottom)) is empty or outside the \(frame.width)x\(frame.height) depth grid")
        }
        self.init(x0: x0, y0: y0, x1: right, y1: bottom, step: step, mask: mask)
    }

    /// Whether every sample of the grid is selected (the fast path).
    func isWhole(_ frame: DepthFrame) -> Bool {
        mask == nil && step == 1 && x0 == 0 && y0 == 0 && x1 == frame.width && y1 == frame.height
    }
}
