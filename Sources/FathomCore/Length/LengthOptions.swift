import Glibc

/// How a keypoint gets its depth.
public enum KeypointDepth: UInt32, Sendable {
    /// The nearest depth sample.
    case nearest = 0
    /// The median of the valid samples of a window.
    case median = 1
    /// The keypoint's ray meets a plane fitted by RANSAC to the masked samples.
    case plane = 2
}

/// Settings of the length measurements (defaults as in the C header).
public struct LengthOptions: Equatable, Sendable {
    public var keypointDepth: KeypointDepth = .median
    /// Median window, odd >= 1.
    public var window: Int = 5
    /// Frame of the reported endpoints.
    public var frame: PointFrame = .camera
    /// Outline points dropped at each end of a mask length: max(trimPoints, trimFraction * n); none by default.
    public var trimPoints: Int = 0
    public var trimFraction: Double = 0
    /// The keypoint plane's RANSAC: 5 mm, 100 iterations, all of them (the fish projects' settings).
    public var plane = try! RansacOptions(threshold: 0.005, iterations: 100, seed: 0, confidence: 1)
    /// Depth noise (1 sigma, meters) at 1 m, growing as depth^depthNoiseGrowth.
    public var depthNoise: Double = 0.005
    public var depthNoiseGrowth: Double = 2
    /// Keypoint localisation noise, RGB pixels (1 sigma).
    public var pixelNoise: Double = 1
    /// Placement noise of the mask's outline, perpendicular to it, mask pixels (1 sigma).
    public var edgeNoise: Double = 1

    public init() {}

    /// Throws naming the first setting outside its range.
    public func validate() throws(FathomError) {
        guard window >= 1, window % 2 == 1 else { throw FathomError(.outOfRange, "window must be odd and >= 1, got \(window)") }
        guard trimPoints >= 0 else { throw FathomError(.outOfRange, "trim_points must be >= 0, got \(trimPoints)") }
        guard trimFraction.isFinite, depthNoise.isFinite, depthNoiseGrowth.isFinite, pixelNoise.isFinite, edgeNoise.isFinite else {
            throw FathomError(.notFinite, "trim_fraction, depth_noise, depth_noise_growth, pixel_noise and edge_noise must be finite")
        }
        guard trimFraction >= 0, trimFraction < 0.25 else { throw FathomError(.outOfRange, "trim_fraction must be in [0, 0.25), got \(trimFraction)") }
        guard depthNoise >= 0 else { throw FathomError(.outOfRange, "depth_noise must be >= 0, got \(depthNoise)") }
        guard depthNoiseGrowth >= 0 else { throw FathomError(.outOfRange, "depth_noise_growth must be >= 0, got \(depthNoiseGrowth)") }
        guard pixelNoise >= 0 else { throw FathomError(.outOfRange, "pixel_noise must be >= 0, got \(pixelNoise)") }
        guard edgeNoise >= 0 else { throw FathomError(.outOfRange, "edge_noise must be >= 0, got \(edgeNoise)") }
    }

    /// Empty mask pixels bridged when finding the mask's body: 1, or 3 * edgeNoise when larger (an outline
    /// moved that much can cut a narrow part such as a fish's tail stalk), at most 64.
    var bodyGap: Int { Int(min(64, max(1, (3 * edgeNoise).rounded(.up)))) }

    /// The depth noise (1 sigma, meters) of one reading at depth d (its magnitude: a point extrapolated along a
    /// steep gradient may come out behind the camera).
    public func noise(atDepth d: Double) -> Double { depthNoise * pow(abs(d), depthNoiseGrowth) }
}
