/// What a capture saw: the room's floor and ceiling, and when the views circle an object, the surface it stands on
/// and its box.
///
/// - floor: the lowest upward-facing horizontal surface with at least `floorMinArea` of footprint (however sparse
///   and grazing the views of it), so a table top is not the floor when the floor is in view;
/// - ceiling: the highest downward-facing horizontal surface above every camera with that footprint;
/// - the object, only on an object capture (the orbit spans `orbitMinSpan` with `orbitMinViews` views): the cluster
///   of voxels standing on the highest upward-facing surface under the focus (the support: a table top or the
///   floor) nearest the focus and inside the orbit; its upright box reaches down to the support.
/// When there is no object, `objectReason` says why.
struct SceneEstimate {
    var floor: HorizontalSurface?
    var ceiling: HorizontalSurface?
    var support: HorizontalSurface?
    var orbit: Orbit?
    /// The views circle the focus: `orbitMinViews` views over `orbitMinSpan`.
    var objectCapture = false
    var box: Box?
    /// Voxels of the object's cluster.
    var objectVoxels = 0
    var objectReason: String?

    /// Least voxels of an object's cluster standing on the support.
    static let minObjectVoxels = 8
    /// A cluster stands on the support when its lowest voxel is within the clearance plus this (meters).
    static let standTolerance: Float = 0.03
    /// The object is looked for within this fraction of the orbit's radius from the focus (on the floor plan):
    /// inside the circle of the cameras, so the room's walls and furniture beyond them are not taken for it.
    static let searchFraction: Float = 0.75

    /// Finds the surfaces, the orbit and the object in `grid` seen from `poses`. `cloud` is `grid.cloud()`.
    init(grid: VoxelGrid, cloud: PointCloud, poses: [Pose], options: CaptureOptions) throws(FathomError) {
        let centroids = (0..<cloud.count).map { cloud[$0] }
        let surfaces = try HorizontalSurfaces(grid: grid, centroids: centroids, options: options).found
        let cameraTop = poses.map(\.translation.y).max() ?? -.infinity
        orbit = Orbit(poses: poses, maxDepth: options.maxDepth)
        objectCapture = orbit.map { $0.views >= options.orbitMinViews && $0.span >= options.orbitMinSpan } ?? false
        let at = objectCapture ? orbit.map { SIMD2($0.focus.x, $0.focus.z) } : nil
        func placed(_ f: HorizontalSurfaces.Found) -> HorizontalSurface {
            var s = f.surface
            if let at { s.height = s.height(at: at, through: f.centroid) }
            return s
        }
        floor = surfaces.first { $0.surface.facesUp && $0.surface.area >= options.floorMinArea }.map(placed)
        ceiling = surfaces.last { !$0.surface.facesUp && $0.surface.height > cameraTop && $0.surface.area >= options.floorMinArea }
            .map(placed)

        guard let orbit else {
            objectReason = "the views do not circle a point (their optical axes are nearly parallel): not an object capture"
            return
        }
        guard objectCapture else {
            objectReason = "the views do not circle a point: \(orbit.views) views look at the point nearest their axes and span "
                + "\(Int((orbit.span * 180 / .pi).rounded())) degrees around it (an object capture needs \(options.orbitMinViews) views "
                + "over \(Int((options.orbitMinSpan * 180 / .pi).rounded())) degrees): a walk-through"
            return
        }
        let focus = orbit.focus, reach = SceneEstimate.searchFraction * orbit.radius
        func flatDistance(_ p: SIMD3<Float>) -> Float { ((p.x - focus.x) * (p.x - focus.x) + (p.z - focus.z) * (p.z - focus.z)).squareRoot() }
        // Supports: upward surfaces at most a little above the focus with points around it, highest first.
        let supports = surfaces.filter { f in
            f.surface.facesUp && f.surface.height <= focus.y + SceneEstimate.standTolerance
                && f.members.contains { flatDistance(centroids[$0]) <= reach + 0.2 }
        }.reversed()
        guard !supports.isEmpty else {
            objectReason = "no horizontal surface seen under the focus to stand an object on"
            return
        }
        for candidate in supports {
            let level = candidate.surface.height(at: SIMD2(focus.x, focus.z), through: candidate.centroid)
            var above = [Int]()
            for i in 0..<grid.count where grid.points(i) >= options.minVoxelPoints {
                let p = centroids[i]
                if p.y - level > options.objectClearance, flatDistance(p) <= reach { above.append(i) }
            }
            let standing = SceneEstimate.clusters(above, grid: grid).filter { cluster in
                cluster.count >= SceneEstimate.minObjectVoxels
                    && (cluster.lazy.map({ centroids[$0].y }).min() ?? .infinity) - level <= options.objectClearance + SceneEstimate.standTolerance
            }
            guard let cluster = standing.min(by: { a, b in
                SceneEstimate.nearest(a, centroids, focus) < SceneEstimate.nearest(b, centroids, focus)
            }) else { continue }
            support = placed(candidate)
            objectVoxels = cluster.count
            box = try SceneEstimate.uprightBox(cluster.map { centroids[$0] }, standingOn: level, voxel: options.voxel)
            if box == nil { objectReason = "the object's points are flat or a single voxel: no box" }
            return
        }
        support = supports.first.map(placed)
        objectReason = "nothing stands on the support near the focus"
    }

    /// The least distance from `focus` of a cluster's voxels.
    static func nearest(_ cluster: [Int], _ centroids: [SIMD3<Float>], _ focus: SIMD3<Float>) -> Float {
        cluster.reduce(Float.infinity) { Swift.min($0, length(centroids[$1] - focus)) }
    }

    /// The upright box of least footprint around `points`, reaching down to `level`; nil for a flat or one-voxel
    /// cluster.
    static func uprightBox(_ points: [SIMD3<Float>], standingOn level: Float, voxel: Float) throws(FathomError) -> Box? {
        let flat = points.flatMap { [$0.x, $0.y, $0.z] }
        let fitted: Box
        do throws(FathomError) {
            fitted = try flat.withUnsafeBufferPointer { (buffer) throws(FathomError) -> Box in
                try Box.fitUpright(PointBuffer(base: buffer.baseAddress!, count: points.count, strideBytes: 12))
            }
        } catch {
            return nil
        }
        let top = fitted.center.y + fitted.scale.y / 2
        let bottom = Swift.min(level, top - voxel)
        return try Box(center: SIMD3(fitted.center.x, (top + bottom) / 2, fitted.center.z),
                       scale: SIMD3(fitted.scale.x, top - bottom, fitted.scale.z), rotY: fitted.rotY, floor: bottom)
    }

    /// Connected components of `voxels` (26-neighbourhood, one empty voxel of gap allowed).
    static func clusters(_ voxels: [Int], grid: VoxelGrid) -> [[Int]] {
        var member = [Bool](repeating: false, count: grid.count)
        for v in voxels { member[v] = true }
        var seen = [Bool](repeating: false, count: grid.count)
        var result = [[Int]]()
        for start in voxels where !seen[start] {
            var cluster = [start], next = 0
            seen[start] = true
            while next < cluster.count {
                let c = VoxelGrid.unpack(grid.key(at: cluster[next]))
                next += 1
                for dx in -2...2 { for dy in -2...2 { for dz in -2...2 where dx != 0 || dy != 0 || dz != 0 {
                    let n = c &+ SIMD3(Int64(dx), Int64(dy), Int64(dz))
                    guard let i = grid.index(VoxelGrid.pack(n.x, n.y, n.z)), member[i], !seen[i] else { continue }
                    seen[i] = true
                    cluster.append(i)
                } } }
            }
            result.append(cluster)
        }
        return result
    }
}
