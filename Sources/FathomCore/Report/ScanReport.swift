/// Where a report's box came from.
public enum BoxSource: UInt32, Sendable {
    /// No box: no object was found (and none was given).
    case none = 0
    /// Given by the caller.
    case given = 1
    /// Read from the `boundingbox.json` beside the scan.
    case manifest = 2
    /// Estimated from the fused depth.
    case fitted = 3

    public var name: String { ["none", "given", "manifest", "fitted"][Int(rawValue)] }
}

/// The face coverage of the box by the captured views, as the capture app counts it.
public struct CoverageReport: Sendable {
    public var faces: [FaceCoverage]
    public var views: Int, counted: Int
    public var facesComplete: Int, facesNeeded: Int, complete: Bool
    public var angularScore: Float
    /// View-direction bin counts (rings x sectors) and the next view (direction from the box centre and a
    /// camera position), nil before any counted view.
    public var bins: [Int]
    public var nextView: (direction: SIMD3<Float>, position: SIMD3<Float>)?
    /// The views a face needs, and the bins' shape (`bins` is rings x sectors, ring-major).
    public var goal: Int, rings: Int, sectors: Int, hemisphere: Bool

    init(_ tracker: CoverageTracker) {
        faces = (0..<6).map { tracker.face($0) }
        views = tracker.views
        counted = tracker.counted
        let summary = tracker.summary
        (facesComplete, facesNeeded, complete, angularScore) = (summary.facesComplete, summary.facesNeeded, summary.complete, summary.angularScore)
        bins = tracker.binCounts
        nextView = try? tracker.nextView(distance: nil)
        goal = tracker.options.goal
        (rings, sectors, hemisphere) = (tracker.bins.rings, tracker.bins.sectors, tracker.bins.hemisphere)
    }

    init(faces: [FaceCoverage], views: Int, counted: Int, facesComplete: Int, facesNeeded: Int, complete: Bool, angularScore: Float,
         bins: [Int], nextView: (direction: SIMD3<Float>, position: SIMD3<Float>)?, goal: Int, rings: Int, sectors: Int, hemisphere: Bool) {
        (self.faces, self.views, self.counted, self.facesComplete, self.facesNeeded) = (faces, views, counted, facesComplete, facesNeeded)
        (self.complete, self.angularScore, self.bins, self.nextView) = (complete, angularScore, bins, nextView)
        (self.goal, self.rings, self.sectors, self.hemisphere) = (goal, rings, sectors, hemisphere)
    }
}

/// Everything a capture measured. `json()` is its serialised form (what `report.json` holds), `html()` the page
/// people read, and `init(json:cloud:object:)` reads the JSON back.
public struct ScanReport: Sendable {
    public var scanID: String?
    public var frames: Int
    public var fusedFrames: Int
    public var timestamps: [Int64]
    /// Each frame's time in seconds from the first frame (what the JSON and the figures show).
    public var times: [Double]
    /// The motion tracker's state after each frame: speed guidance over time.
    public var motion: [MotionState]
    /// The speed guidance's thresholds (m/s) and the width of its "slightly" bands (a fraction of a threshold).
    public var speedLimits: (slow: Float, fast: Float, slightly: Float) = (0, 0, 0)
    /// Each frame's camera position (world, meters).
    public var cameraPositions: [SIMD3<Float>] = []
    public var box: Box?
    public var boxSource: BoxSource = .none
    /// The room's floor, the surface the object stands on (a table top or the floor), and the ceiling, each nil
    /// when not seen (the support also when there is no object capture).
    public var floor: HorizontalSurface?
    public var support: HorizontalSurface?
    public var ceiling: HorizontalSurface?
    /// How the views gather around the point nearest their optical axes (nil when the axes are nearly parallel).
    public var orbit: Orbit?
    /// Whether the views circle the focus enough for an object capture.
    public var objectCapture = false
    /// Voxels of the estimated object's cluster (0 when the box is given or there is none).
    public var objectVoxels = 0
    /// Why no object was estimated, nil when one was (or the box was given).
    public var objectReason: String?
    /// The fused cloud (voxel means) and its points inside the box grown by one voxel on every side (the object's
    /// surfaces lie on the box's faces).
    public var cloud: PointCloud
    public var object: PointCloud = PointCloud(unchecked: [])
    public var trajectory: Trajectory.Summary?
    public var coverage: CoverageReport?
    /// Frames the app would have captured, and frames selected for a reconstruction.
    public var captures: [Int] = []
    public var selected: [Int] = []
    public var warnings: [String] = []

    init(scanID: String?, frames: Int, fusedFrames: Int, timestamps: [Int64], motion: [MotionState], cloud: PointCloud) {
        self.scanID = scanID
        self.frames = frames
        self.fusedFrames = fusedFrames
        self.timestamps = timestamps
        times = timestamps.map { secondsBetween(timestamps[0], $0) }
        self.motion = motion
        self.cloud = cloud
    }

    /// The point nearest every optical axis.
    public var focus: SIMD3<Float>? { orbit?.focus }

    /// Ceiling above the floor (meters), when both were seen.
    public var roomHeight: Float? {
        guard let floor, let ceiling else { return nil }
        return ceiling.height - floor.height
    }

    /// Seconds from the first to the last frame.
    public var duration: Double { times.last ?? 0 }
}
