/// How to read the depth under an RGB pixel.
public enum DepthSampling: UInt32, Sendable {
    /// The sample whose pixel contains the point.
    case nearest = 0
    /// Bilinear between the four nearest sample centres (clamped at the border), invalid samples' weights dropped.
    case bilinear = 1
    /// The median of the valid samples of a window centred on the nearest sample.
    case median = 2
}

/// A sampled depth and how many valid samples it rests on.
public struct DepthReading: Equatable, Sendable {
    public var depth: Float
    public var samples: Int
}

extension DepthFrame {
    /// The depth-grid coordinates of RGB pixel (u, v); throws unless (u, v) is inside the RGB image.
    public func gridCoordinates(u: Float, v: Float, _ name: String = "pixel") throws(FathomError) -> (x: Float, y: Float) {
        try Check.finite(u, "\(name).u")
        try Check.finite(v, "\(name).v")
        guard u >= 0, u < Float(rgb.width), v >= 0, v < Float(rgb.height) else {
            throw FathomError(.outOfRange, "\(name) (\(u), \(v)) is outside the \(rgb.width)x\(rgb.height) image")
        }
        return (u * Float(width) / Float(rgb.width), v * Float(height) / Float(rgb.height))
    }

    /// The depth (meters) at RGB pixel (u, v). `window` (odd, >= 1) is the median's block size.
    /// Throws `.noData` when no valid sample is there.
    public func sample(u: Float, v: Float, _ sampling: DepthSampling, window: Int = 1,
                       _ name: String = "pixel") throws(FathomError) -> DepthReading {
        let (x, y) = try gridCoordinates(u: u, v: v, name)
        let i = Swift.min(Int(x), width - 1), j = Swift.min(Int(y), height - 1)
        switch sampling {
        case .nearest:
            guard let d = depth(i, j) else { throw noData(name, u, v, "at depth sample (\(i), \(j))") }
            return DepthReading(depth: d, samples: 1)
        case .bilinear:
            return try bilinear(x, y, name, u, v)
        case .median:
            guard window >= 1, window % 2 == 1 else { throw FathomError(.outOfRange, "window must be odd and >= 1, got \(window)") }
            let r = window / 2
            var values: [Float] = []
            for jj in Swift.max(0, j - r)...Swift.min(height - 1, j + r) {
                for ii in Swift.max(0, i - r)...Swift.min(width - 1, i + r) {
                    if let d = depth(ii, jj) { values.append(d) }
                }
            }
            guard !values.isEmpty else { throw noData(name, u, v, "in the \(window)x\(window) window around depth sample (\(i), \(j))") }
            values.sort()
            return DepthReading(depth: values[(values.count - 1) / 2], samples: values.count)
        }
    }

    private func bilinear(_ x: Float, _ y: Float, _ name: String, _ u: Float, _ v: Float) throws(FathomError) -> DepthReading {
        // Sample centres sit at i + 0.5: interpolate at (x - 0.5, y - 0.5), clamped to the grid.
        let fx = Swift.min(Swift.max(x - 0.5, 0), Float(width - 1)), fy = Swift.min(Swift.max(y - 0.5, 0), Float(height - 1))
        let i0 = Int(fx), j0 = Int(fy)
        let i1 = Swift.min(i0 + 1, width - 1), j1 = Swift.min(j0 + 1, height - 1)
        let tx = fx - Float(i0), ty = fy - Float(j0)
        var sum: Float = 0, weights: Float = 0, samples = 0
        for (ii, jj, w) in [(i0, j0, (1 - tx) * (1 - ty)), (i1, j0, tx * (1 - ty)), (i0, j1, (1 - tx) * ty), (i1, j1, tx * ty)] {
            guard w > 0, let d = depth(ii, jj) else { continue }
            sum += w * d
            weights += w
            samples += 1
        }
        guard weights > 0 else { throw noData(name, u, v, "at the depth samples around (\(x), \(y))") }
        return DepthReading(depth: sum / weights, samples: samples)
    }

    private func noData(_ name: String, _ u: Float, _ v: Float, _ place: String) -> FathomError {
        FathomError(.noData, "\(name) (\(u), \(v)) has no valid depth \(place)")
    }

    /// The optical-frame point of RGB pixel (u, v) at depth d, back-projected with the RGB intrinsics.
    @inlinable
    public func opticalPoint(u: Float, v: Float, depth d: Float) -> SIMD3<Float> {
        SIMD3((u - rgb.cx) / rgb.fx * d, (v - rgb.cy) / rgb.fy * d, d)
    }
}
