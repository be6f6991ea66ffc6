/// Settings of a capture report (`CaptureBuilder`). Defaults suit an object of 5 cm to 2 m circled at
/// 0.3 to 2 m, and rooms walked through, with an iPhone or iPad LiDAR.
public struct CaptureOptions: Equatable, Sendable {
    /// Depth samples with lower confidence are not fused (ARKit: 0 low, 1 medium, 2 high).
    public var minConfidence: UInt8 = 2
    /// Depth samples farther than this (meters) are not fused: about the LiDAR's range (its noise grows with
    /// distance). A floor seen from a level camera at chest height is 3 to 5 m away.
    public var maxDepth: Float = 5
    /// Depth beyond this (meters), negative or not a number is no phone sensor's (LiDAR reaches about 5 m): such
    /// samples are never fused, and the report counts them per frame as damage (raw DEFLATE has no checksum).
    public var plausibleDepth: Float = 50
    /// Edge of the voxels the fused cloud is downsampled to, meters.
    public var voxel: Float = 0.01
    /// A frame's depth is fused when the camera moved this far (meters) or turned this much (radians) since
    /// the last fused frame (the first frame is always fused): 60 fps depth repeats itself.
    public var fuseDistance: Float = 0.05, fuseAngle: Float = 5 * .pi / 180
    /// Voxels with fewer points are left out of the object (isolated noise).
    public var minVoxelPoints = 2
    /// Horizontal surfaces (floor, table tops, ceiling) are RANSAC planes: inlier distance (meters), iterations,
    /// seed; a plane within `floorMaxTilt` radians of horizontal counts (ARKit's world is gravity-aligned: a floor
    /// is level within a degree or two).
    public var floorThreshold: Float = 0.02
    public var floorIterations = 300
    public var seed: UInt64 = 1
    public var floorMaxTilt: Float = 5 * .pi / 180
    /// The floor and the ceiling cover at least this much of the floor plan (m^2, counted in 10 cm cells).
    public var floorMinArea: Float = 0.25
    /// An object capture's views look at one point from at least `orbitMinViews` views spanning `orbitMinSpan`
    /// radians around it; otherwise no object is reported (a walk-through).
    public var orbitMinSpan: Float = 90 * .pi / 180
    public var orbitMinViews = 10
    /// Object points lie at least this far above the floor (meters); the box still reaches down to the floor.
    public var objectClearance: Float = 0.02
    /// Frames selected for a reconstruction: moved or turned this much from the last selected frame.
    public var selectDistance: Float = 0.10, selectAngle: Float = 10 * .pi / 180
    public var motion = MotionOptions()
    public var coverage = CoverageOptions()

    public init() {}

    /// Throws `.outOfRange` / `.notFinite` naming the first bad setting.
    public func validate() throws(FathomError) {
        guard maxDepth > 0 else { throw FathomError(maxDepth.isNaN ? .notFinite : .outOfRange, "max_depth must be > 0 (INFINITY for none), got \(maxDepth)") }
        guard plausibleDepth > 0 else {
            throw FathomError(plausibleDepth.isNaN ? .notFinite : .outOfRange, "plausible_depth must be > 0 (INFINITY for none), got \(plausibleDepth)")
        }
        try Check.positive(voxel, "voxel")
        // Voxel sums are kept about each voxel's corner in Float: exact to a fraction of a millimetre for voxels up to
        // 10 m, while a voxel of 1e20 m would lose the points to its corner's size.
        guard voxel >= 1e-4, voxel <= 10 else { throw FathomError(.outOfRange, "voxel must be in [1e-4, 10] m, got \(voxel)") }
        for (name, value) in [("fuse_distance", fuseDistance), ("fuse_angle", fuseAngle), ("select_distance", selectDistance),
                              ("select_angle", selectAngle)] where !(value > 0) {
            throw FathomError(value.isNaN ? .notFinite : .outOfRange, "\(name) must be > 0 (INFINITY to ignore it), got \(value)")
        }
        guard selectDistance.isFinite || selectAngle.isFinite else {
            throw FathomError(.outOfRange, "select_distance and select_angle cannot both be INFINITY")
        }
        guard minVoxelPoints >= 1 else { throw FathomError(.outOfRange, "min_voxel_points must be >= 1, got \(minVoxelPoints)") }
        try Check.positive(floorThreshold, "floor_threshold")
        guard (1...100_000).contains(floorIterations) else {
            throw FathomError(.outOfRange, "floor_iterations must be in 1...100000, got \(floorIterations)")
        }
        try Check.finite(floorMaxTilt, "floor_max_tilt")
        guard floorMaxTilt > 0, floorMaxTilt < .pi / 2 else {
            throw FathomError(.outOfRange, "floor_max_tilt must be in (0, pi/2), got \(floorMaxTilt)")
        }
        try Check.finite(objectClearance, "object_clearance")
        try Check.finite(floorMinArea, "floor_min_area")
        guard floorMinArea >= 0 else { throw FathomError(.outOfRange, "floor_min_area must be >= 0 m^2, got \(floorMinArea)") }
        try Check.finite(orbitMinSpan, "orbit_min_span")
        guard orbitMinSpan >= 0, orbitMinSpan <= 2 * .pi else {
            throw FathomError(.outOfRange, "orbit_min_span must be in [0, 2 pi] radians, got \(orbitMinSpan)")
        }
        guard orbitMinViews >= 1 else { throw FathomError(.outOfRange, "orbit_min_views must be >= 1, got \(orbitMinViews)") }
        guard objectClearance >= 0 else { throw FathomError(.outOfRange, "object_clearance must be >= 0, got \(objectClearance)") }
        do throws(FathomError) { try motion.validate() } catch { throw FathomError(error.kind, "motion.\(error.message)") }
        do throws(FathomError) { try coverage.validate() } catch { throw FathomError(error.kind, "coverage.\(error.message)") }
    }
}
