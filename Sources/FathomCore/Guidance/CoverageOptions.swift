/// Settings of a coverage tracker (defaults as in the C header).
public struct CoverageOptions: Equatable, Sendable {
    /// Views per face for it to be complete (the app's 10).
    public var goal = 10
    /// Each face is split into cells x cells cells.
    public var cells = 4
    /// View-direction bins: rings of equal height (equal area) x sectors of equal azimuth.
    public var rings = 4, sectors = 12
    /// Bins over the upper hemisphere only; nil: when the box has a floor.
    public var hemisphere: Bool?
    /// The bottom face is not needed for "complete"; nil: when the box has a floor.
    public var excludeBottom: Bool?
    /// A view counts only if its axis meets the box within [minDistance, maxDistance] meters.
    public var minDistance: Float = 0, maxDistance: Float = .infinity
    /// With intrinsics: the fraction of the 8 corners that must project inside the image.
    public var minInView: Float = 0
    /// A view within this angle (radians, of the directions from the box centre) and this distance (meters) of a
    /// counted view is too similar; either 0 turns the check off.
    public var minSeparationAngle: Float = 5 * .pi / 180, minSeparationDistance: Float = 0.1

    public init() {}

    /// Throws naming the first setting outside its range.
    public func validate() throws(FathomError) {
        guard goal >= 1 else { throw FathomError(.outOfRange, "goal must be >= 1, got \(goal)") }
        guard (1...64).contains(cells) else { throw FathomError(.outOfRange, "cells must be in 1...64, got \(cells)") }
        guard (1...256).contains(rings), (1...256).contains(sectors), rings * sectors <= 4096 else {
            throw FathomError(.outOfRange, "rings and sectors must be in 1...256 with rings * sectors <= 4096, got \(rings) x \(sectors)")
        }
        for (name, value) in [("min_distance", minDistance), ("min_in_view", minInView), ("min_separation_angle", minSeparationAngle),
                              ("min_separation_distance", minSeparationDistance)] {
            try Check.finite(value, name)
            guard value >= 0 else { throw FathomError(.outOfRange, "\(name) must be >= 0, got \(value)") }
        }
        guard maxDistance >= minDistance else {
            throw FathomError(maxDistance.isNaN ? .notFinite : .outOfRange, "max_distance must be >= min_distance (\(minDistance)), got \(maxDistance)")
        }
        guard minInView <= 1 else { throw FathomError(.outOfRange, "min_in_view must be in [0, 1], got \(minInView)") }
    }
}
