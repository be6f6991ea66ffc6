import Glibc

/// The floor under a captured object: a RANSAC plane within a tilt of horizontal, refitted on its inliers.
public struct FloorEstimate: Equatable, Sendable {
    /// Height of the plane (meters, world y) under the object, or under the plane's centroid.
    public var height: Float
    /// Unit normal, pointing up.
    public var normal: SIMD3<Float>
    /// Fused points (voxel centroids) within the RANSAC threshold of the plane, and their RMS distance.
    public var inliers: Int
    public var rms: Float
}

/// What a capture circles: the floor, the point the cameras look at, and the object's voxels.
struct SceneEstimate {
    var floor: FloorEstimate?
    /// The point nearest every optical axis (least squares), nil when the axes are nearly parallel.
    var focus: SIMD3<Float>?
    var box: Box?
    /// Points of the object's cluster.
    var objectVoxels = 0

    /// Finds the floor, the focus and the object in `grid` seen from `poses`.
    /// `cloud` is `grid.cloud()`, which the caller has made already.
    init(grid: VoxelGrid, cloud: PointCloud, poses: [Pose], options: CaptureOptions) throws(FathomError) {
        focus = SceneEstimate.focus(poses)
        let centroids = (0..<cloud.count).map { cloud[$0] }
        floor = try SceneEstimate.floor(centroids, near: focus, options: options)
        guard let floor else { return }
        // Object voxels: enough points, above the floor by the clearance.
        var above = [Int]()
        for i in 0..<grid.count where grid.points(i) >= options.minVoxelPoints {
            let p = centroids[i]
            if dot(p, floor.normal) - floor.height * floor.normal.y > options.objectClearance { above.append(i) }
        }
        guard let cluster = SceneEstimate.nearestCluster(above, grid: grid, centroids: centroids, focus: focus) else { return }
        objectVoxels = cluster.count
        let points = cluster.flatMap { [centroids[$0].x, centroids[$0].y, centroids[$0].z] }
        let fitted: Box
        do throws(FathomError) {
            fitted = try points.withUnsafeBufferPointer { (buffer) throws(FathomError) -> Box in
                try Box.fitUpright(PointBuffer(base: buffer.baseAddress!, count: cluster.count, strideBytes: 12))
            }
        } catch {
            return  // a flat or one-voxel cluster gives no box
        }
        // The object stands on the floor: the box reaches down to it.
        let top = fitted.center.y + fitted.scale.y / 2
        let bottom = Swift.min(floor.height, top - options.voxel)
        box = try Box(center: SIMD3(fitted.center.x, (top + bottom) / 2, fitted.center.z),
                      scale: SIMD3(fitted.scale.x, top - bottom, fitted.scale.z), rotY: fitted.rotY, floor: bottom)
    }

    /// Least-squares point nearest the optical axes (each camera's -z from its position).
    static func focus(_ poses: [Pose]) -> SIMD3<Float>? {
        var a = [Double](repeating: 0, count: 9), b = SIMD3<Double>.zero
        for pose in poses {
            let d = SIMD3<Double>(-pose.rotation.c2)
            let o = SIMD3<Double>(pose.translation)
            // (I - d d^T) accumulated, and (I - d d^T) o.
            for r in 0..<3 { for c in 0..<3 { a[c * 3 + r] += (r == c ? 1 : 0) - d[r] * d[c] } }
            b += o - d * (d * o).sum()
        }
        // Solved through the eigen-decomposition of the symmetric A: parallel axes make it singular.
        guard poses.count >= 2, let (values, v) = try? LinearAlgebra.symmetricEigen(a, n: 3),
              values[0] > 1e-3 * values[2] else { return nil }
        var x = SIMD3<Double>.zero
        for k in 0..<3 {
            let e = SIMD3(v[3 * k], v[3 * k + 1], v[3 * k + 2])
            x += e * (dot(e, b) / values[k])
        }
        let f = SIMD3<Float>(x)
        return f.isFinite ? f : nil
    }

    /// RANSAC scores its planes on at most this many points (every k-th of the cloud): a floor's support shows as
    /// well on a sample, and the plane is then refitted on its inliers among every point.
    static let ransacSample = 20_000

    /// The largest near-horizontal plane: RANSAC, and if the best plane is tilted (a wall), again without its inliers.
    static func floor(_ points: [SIMD3<Float>], near focus: SIMD3<Float>?, options: CaptureOptions) throws(FathomError) -> FloorEstimate? {
        var remaining = points
        let threshold = Double(options.floorThreshold)
        for _ in 0..<4 {
            guard remaining.count >= 3 else { return nil }
            let ransac = try RansacOptions(threshold: threshold, iterations: options.floorIterations, seed: options.seed)
            let step = (remaining.count + ransacSample - 1) / ransacSample
            let sample = Swift.stride(from: 0, to: remaining.count, by: step).map { SIMD3<Double>(remaining[$0]) }
            let plane: PlaneFit
            do throws(FathomError) {
                let found = try FitPoints.with(sample, dimensions: 3) { (p) throws(FathomError) in try PlaneFit.ransac(p, ransac) }
                var inliers = [Double]()
                inliers.reserveCapacity(3 * remaining.count)
                for p in remaining {
                    let q = SIMD3<Double>(p)
                    if abs(found.distance(q)) <= threshold { inliers.append(q.x); inliers.append(q.y); inliers.append(q.z) }
                }
                guard inliers.count >= 9 else { return nil }
                plane = try inliers.withUnsafeBufferPointer { (b) throws(FathomError) in
                    try PlaneFit.fit(FitPoints(base: b.baseAddress!, count: b.count / 3, strideBytes: 24, dimensions: 3))
                }
            } catch {
                return nil
            }
            let n = plane.normal.y < 0 ? -plane.normal : plane.normal
            if acos(Swift.min(1, n.y)) <= Double(options.floorMaxTilt) {
                let at = focus.map { SIMD3<Double>($0) } ?? plane.point
                let height = plane.point.y - (n.x * (at.x - plane.point.x) + n.z * (at.z - plane.point.z)) / n.y
                return FloorEstimate(height: Float(height), normal: SIMD3<Float>(n), inliers: plane.used, rms: Float(plane.rms))
            }
            remaining.removeAll { abs(plane.distance(SIMD3<Double>($0))) <= threshold }
        }
        return nil
    }

    /// Connected components of `voxels` (26-neighbourhood, one empty voxel of gap allowed), and the one
    /// nearest `focus` (the largest when there is no focus). Components under 8 voxels are noise.
    static func nearestCluster(_ voxels: [Int], grid: VoxelGrid, centroids: [SIMD3<Float>], focus: SIMD3<Float>?) -> [Int]? {
        var member = [Bool](repeating: false, count: grid.count)
        for v in voxels { member[v] = true }
        var seen = [Bool](repeating: false, count: grid.count)
        var best: (cluster: [Int], score: Float)?
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
            guard cluster.count >= 8 else { continue }
            let score: Float
            if let focus {
                score = cluster.reduce(Float.infinity) { Swift.min($0, dot(centroids[$1] - focus, centroids[$1] - focus)) }
            } else {
                score = -Float(cluster.count)
            }
            if score < best?.score ?? .infinity { best = (cluster, score) }
        }
        return best?.cluster
    }
}
