import Glibc

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

    /// The upright box around `points`, reaching down to `level`; nil for a flat or one-voxel cluster. The yaw is
    /// the least-footprint box's; each side face and the top are then placed where the points crowd near the
    /// box's edge (`crowdedFace`), not at the farthest point: drift between the views doubles a surface a
    /// centimetre or two apart, and the farthest point is the outermost copy.
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
        // Local coordinates: l = R_y(-rotY) (p - centre).
        let c = cos(fitted.rotY), s = sin(fitted.rotY)
        let local = points.map { p -> SIMD3<Float> in
            let d = p - fitted.center
            return SIMD3(c * d.x - s * d.z, d.y, s * d.x + c * d.z)
        }
        let half = fitted.scale / 2
        // Side faces from the points below the top surface, the top from all.
        let sides = local.filter { $0.y < half.y - 0.02 }
        func face(_ values: [Float], _ extreme: Float) -> Float { crowdedFace(values, extreme: extreme) ?? extreme }
        let xHigh = face(sides.map(\.x), half.x), xLow = -face(sides.map { -$0.x }, half.x)
        let zHigh = face(sides.map(\.z), half.z), zLow = -face(sides.map { -$0.z }, half.z)
        let yHigh = face(local.map(\.y), half.y)
        guard xHigh > xLow, zHigh > zLow else { return nil }
        let mid = SIMD2((xHigh + xLow) / 2, (zHigh + zLow) / 2)
        // Back to world: R_y(rotY) (x, z) = (c x + s z, -s x + c z).
        let centerXZ = SIMD2(fitted.center.x + c * mid.x + s * mid.y, fitted.center.z - s * mid.x + c * mid.y)
        let top = fitted.center.y + yHigh
        let bottom = Swift.min(level, top - voxel)
        return try Box(center: SIMD3(centerXZ.x, (top + bottom) / 2, centerXZ.y),
                       scale: SIMD3(xHigh - xLow, top - bottom, zHigh - zLow), rotY: fitted.rotY, floor: bottom)
    }

    /// Where `values` (coordinates along one axis, at most `extreme`) crowd within 5 cm inside `extreme`: the mean
    /// of the values within 1.5 cm of the fullest 5 mm bin there. nil with fewer than 5 values there.
    static func crowdedFace(_ values: [Float], extreme: Float) -> Float? {
        let near = values.filter { $0 > extreme - 0.05 }
        guard near.count >= 5 else { return nil }
        var bins = [Int](repeating: 0, count: 11)
        for v in near { bins[gridCell((v - (extreme - 0.05)) / 0.005, count: bins.count)] += 1 }
        guard let fullest = bins.indices.max(by: { bins[$0] < bins[$1] }) else { return nil }
        let center = extreme - 0.05 + (Float(fullest) + 0.5) * 0.005
        let window = near.filter { abs($0 - center) <= 0.015 }
        return window.isEmpty ? nil : window.reduce(0, +) / Float(window.count)
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
