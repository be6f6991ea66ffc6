/// A capture turned into measurements frame by frame, live from an app or from a scan's files: fed each
/// frame's timestamp, pose, RGB intrinsics and (when `wantsDepth` says so) depth, it gives at any moment
/// the speed guidance, the current box estimate and the coverage so far, and the full `ScanReport` at the
/// end. `Scan.report` is this builder fed from the files, so both give the same numbers.
///
/// Depth is fused into a voxel grid (samples of enough confidence within `maxDepth`, from frames that moved
/// or turned enough since the last fused one), each voxel counting the samples seen from above. The scene
/// estimates (`SceneEstimate`): the floor, the ceiling and, on an object capture, the support and the object's
/// box; the box given wins. Coverage counts the views the app would have captured: the motion tracker's
/// automatic captures.
/// Not thread-safe: one thread at a time.
public final class CaptureBuilder {
    public let options: CaptureOptions
    /// The box given at creation (then never estimated).
    public let givenBox: Box?
    public private(set) var timestamps: [Int64] = []
    /// Fused frames holding depth values no sensor gives (`DepthFrame.implausibleSamples`), and how many.
    public private(set) var implausibleFrames: [(frame: Int, samples: Int)] = []
    public private(set) var poses: [Pose] = []
    public private(set) var intrinsics: [Intrinsics] = []
    /// The motion tracker's state after each frame.
    public private(set) var motionStates: [MotionState] = []
    /// Frames whose depth was fused, and the frames the app would have captured.
    public private(set) var fusedFrames: [Int] = []
    public private(set) var captures: [Int] = []

    private var motion: MotionTracker
    private var grid: VoxelGrid
    private var lastFused: Pose?
    private var scratch: [Float] = []

    /// Throws for invalid options, and `.degenerate` for a box flattened by its floor.
    public init(options: CaptureOptions = CaptureOptions(), box: Box? = nil) throws(FathomError) {
        try options.validate()
        _ = try box?.orientedBox()
        self.options = options
        givenBox = box
        motion = try MotionTracker(options: options.motion)
        grid = VoxelGrid(size: options.voxel)
    }

    public var frameCount: Int { timestamps.count }
    public var motionState: MotionState { motion.state }
    /// Occupied voxels of the fused cloud.
    public var cloudCount: Int { grid.count }

    /// Whether a frame taken at `pose` would have its depth fused.
    public func wantsDepth(at pose: Pose) -> Bool {
        guard let lastFused else { return true }
        let (meters, radians) = pose.distance(to: lastFused)
        return meters >= options.fuseDistance || radians >= options.fuseAngle
    }

    /// Adds a frame. `depth` (any depth map of the frame, read with its own intrinsics; the options' confidence
    /// and range rules are added to its own) is fused when `wantsDepth(at: pose)`, else ignored; a frame whose
    /// own depth range lies beyond `maxDepth` has nothing to fuse. A timestamp earlier than the last frame's
    /// throws `.outOfRange` and changes nothing.
    @discardableResult
    public func add(timestamp: Int64, pose: Pose, rgb: Intrinsics, depth: DepthFrame?) throws(FathomError) -> MotionState {
        var tracker = motion
        let state = try tracker.update(timestamp: timestamp, pose: pose)
        if let depth, wantsDepth(at: pose), depth.minDepth <= options.maxDepth {
            try fuse(depth, pose: pose)
            fusedFrames.append(timestamps.count)
            lastFused = pose
        }
        motion = tracker
        if state.captured { captures.append(timestamps.count) }
        timestamps.append(timestamp)
        poses.append(pose)
        intrinsics.append(rgb)
        motionStates.append(state)
        return state
    }

    private func fuse(_ frame: DepthFrame, pose: Pose) throws(FathomError) {
        let filtered = try DepthFrame(base: frame.base, format: frame.format, width: frame.width, height: frame.height,
                                      rowStride: frame.rowStride, scale: frame.scale, confidence: frame.confidence,
                                      confidenceStride: frame.confidenceStride,
                                      minConfidence: frame.confidence == nil ? 0 : Swift.max(frame.minConfidence, options.minConfidence),
                                      minDepth: frame.minDepth, maxDepth: Swift.min(frame.maxDepth, options.maxDepth, options.plausibleDepth),
                                      rgb: frame.rgb, pose: pose)
        filtered.worldPoints(into: &scratch) { grid.insert($0, count: $1, viewerHeight: pose.translation.y) }
        let implausible = frame.implausibleSamples(beyond: options.plausibleDepth)
        if implausible > 0 { implausibleFrames.append((timestamps.count, implausible)) }
    }

    /// The fused cloud: one point per voxel (the mean of its samples), in the order voxels were first filled.
    public func cloud() -> PointCloud { grid.cloud() }

    /// The box now: the given one, or the estimate from the cloud so far (nil before an object is found).
    public func currentBox() throws(FathomError) -> Box? {
        if let givenBox { return givenBox }
        return try SceneEstimate(grid: grid, cloud: cloud(), poses: poses, options: options).box
    }

    /// A coverage tracker for `box` holding the views captured so far (a new tracker; the caller owns it).
    public func coverage(of box: Box) throws(FathomError) -> CoverageTracker {
        let tracker = try CoverageTracker(box: box, options: options.coverage)
        for i in captures { _ = tracker.record(camera: poses[i], intrinsics: intrinsics[i]) }
        return tracker
    }

    /// A warning naming the fused frames with depth values no sensor gives (left out of the cloud).
    static func implausible(_ frames: [(frame: Int, samples: Int)], beyond bound: Float) -> [String] {
        guard !frames.isEmpty else { return [] }
        let total = frames.reduce(0) { $0 + $1.samples }
        let shown = frames.prefix(10).map { "frame \($0.frame): \($0.samples)" }.joined(separator: ", ") + (frames.count > 10 ? ", ..." : "")
        return ["\(total) depth samples no sensor gives (negative, not a number\(bound.isFinite ? ", or beyond \(NumberText.float(bound)) m" : "")) left out "
                + "of the cloud, in \(frames.count) fused frame\(frames.count == 1 ? "" : "s") (\(shown)): a damaged depth stream?"]
    }

    /// A warning when the cameras' up vectors point down the world's y: the world is not ARKit's gravity-aligned one
    /// (+y up), as Open3D's, COLMAP's or a Redwood trajectory's are, and floors and ceilings cannot be told apart.
    static func upright(_ poses: [Pose]) -> [String] {
        guard !poses.isEmpty else { return [] }
        let ups = poses.map(\.rotation.c1.y).sorted()
        guard ups[ups.count / 2] < -0.3 else { return [] }
        return ["the cameras' up vectors point down the world's y axis: the world is not gravity-aligned with +y up as "
            + "ARKit's is, so the floor, the ceiling and the support are not to be trusted"]
    }

    /// Words on the estimates a reader should not trust blindly, and on what is missing.
    static func weakEstimates(_ scene: SceneEstimate, given: Bool, options: CaptureOptions) -> [String] {
        var warnings = [String]()
        if let floor = scene.floor {
            if floor.area < 1 {
                warnings.append("the floor is weak: seen over \(NumberText.fixed(Double(floor.area), digits: 2)) m^2 only (\(floor.inliers) points)")
            }
        } else {
            warnings.append("no floor found: no upward-facing horizontal surface of \(NumberText.fixed(Double(options.floorMinArea), digits: 2)) m^2 or more")
        }
        if let support = scene.support, support.rms > options.floorThreshold / 2 {
            warnings.append("the support is rough: its points lie \(NumberText.fixed(Double(support.rms * 100), digits: 1)) cm RMS from its plane")
        }
        if !given {
            if let reason = scene.objectReason {
                warnings.append("no object: \(reason)")
            } else if scene.objectVoxels < 100 {
                warnings.append("the object is weak: \(scene.objectVoxels) points (voxels) only: its box is rough")
            }
        }
        return warnings
    }

    /// The report of everything added so far. `source` says where a given box came from.
    public func report(scanID: String? = nil, warnings: [String] = [], boxSource: BoxSource = .given) throws(FathomError) -> ScanReport {
        guard !timestamps.isEmpty else { throw FathomError(.noData, "the capture has no frame") }
        let cloud = self.cloud()
        let scene = try SceneEstimate(grid: grid, cloud: cloud, poses: poses, options: options)
        let box = givenBox ?? scene.box
        var report = ScanReport(scanID: scanID, frames: frameCount, fusedFrames: fusedFrames.count, timestamps: timestamps,
                                motion: motionStates, cloud: cloud)
        report.speedLimits = (options.motion.slowSpeed, options.motion.fastSpeed, options.motion.slightly)
        report.box = box
        report.boxSource = givenBox != nil ? boxSource : (box == nil ? .none : .fitted)
        report.floor = scene.floor
        report.support = scene.support
        report.ceiling = scene.ceiling
        report.orbit = scene.orbit
        report.objectCapture = scene.objectCapture
        report.objectVoxels = givenBox == nil ? scene.objectVoxels : 0
        report.objectReason = givenBox == nil ? scene.objectReason : nil
        report.warnings = warnings + CaptureBuilder.upright(poses) + CaptureBuilder.weakEstimates(scene, given: givenBox != nil, options: options)
            + CaptureBuilder.implausible(implausibleFrames, beyond: options.plausibleDepth)
        report.cameraPositions = poses.map(\.translation)
        report.captures = captures
        if timestamps.count >= 2 {
            report.trajectory = try Trajectory.summarize(timestamps: timestamps, poses: poses, options: options.motion)
        }
        report.selected = try Trajectory.select(poses: poses, minDistance: options.selectDistance, minAngle: options.selectAngle)
        if let box {
            // Grown by a voxel: the object's surfaces lie on the box's faces, half their points just outside.
            report.object = try cloud.inside(Box(center: box.center, scale: box.scale + 2 * options.voxel, rotY: box.rotY).orientedBox())
            let tracker = try coverage(of: box)
            report.coverage = CoverageReport(tracker)
        }
        return report
    }
}
