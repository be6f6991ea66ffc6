import Glibc

/// A horizontal surface of a fused cloud: a floor, a table top, a ceiling. Which one it is depends on the side
/// the cameras saw it from (a floor or a table top is seen from above, a ceiling from below) and on its height.
public struct HorizontalSurface: Equatable, Sendable {
    /// World y of the plane (meters) at the point the estimate is about (under the object, or the inliers' centroid).
    public var height: Float
    /// Unit normal towards the side the cameras saw it from: about +y for a floor or a table top, -y for a ceiling.
    public var normal: SIMD3<Float>
    /// Voxels (fused points) within the plane threshold, and their RMS distance from the plane (meters).
    public var inliers: Int
    public var rms: Float
    /// The footprint of the inliers on the floor plan: occupied 10 cm x 10 cm cells with at least 3 of their 8
    /// neighbours occupied (m^2: lines such as a wall's edge count nothing), and its x-z bounds.
    public var area: Float
    public var minXZ: SIMD2<Float>, maxXZ: SIMD2<Float>
    /// Fraction of the inliers' depth samples taken by a camera higher than the sample, 0...1.
    public var seenFromAbove: Float

    /// Seen mostly from above: a floor or a support, not a ceiling.
    public var facesUp: Bool { seenFromAbove >= 0.5 }

    /// World y of the plane at the floor-plan point `xz`.
    func height(at xz: SIMD2<Float>, through point: SIMD3<Float>) -> Float {
        guard abs(normal.y) > 0 else { return point.y }
        return point.y - (normal.x * (xz.x - point.x) + normal.z * (xz.y - point.z)) / normal.y
    }
}

/// The horizontal surfaces of a fused cloud, found in the heights of its voxels: a horizontal surface stacks
/// its voxels at one height, which shows as a peak in their histogram over the even background of walls and
/// clutter. Voxels seen mostly from above and mostly from below are counted apart, so a table top is not
/// confused with the underside of a shelf at the same height. Each peak is then fitted as a plane (RANSAC and
/// a least-squares refit on its inliers) and kept if it is within `floorMaxTilt` of horizontal.
struct HorizontalSurfaces {
    /// A surface found, with its plane's centroid (for heights elsewhere) and its inlier voxels.
    struct Found {
        var surface: HorizontalSurface
        var centroid: SIMD3<Float>
        var members: [Int]
    }

    private(set) var found: [Found] = []

    /// Height-histogram bin, meters. Peaks stand out against walls at 1 cm; the plane fit refines the height.
    static let bin: Float = 0.01
    /// The least footprint of a surface worth fitting, m^2 (a small table top): 0.02 m^2 of 1 cm voxels.
    static let leastArea: Float = 0.02
    /// The background under a peak is the histogram 10 to 30 cm away on its busier side.
    static let backgroundNear: Float = 0.10, backgroundFar: Float = 0.30
    /// At most this many peaks of each facing are fitted, the strongest first.
    static let maxPeaks = 12
    /// RANSAC scores its planes on at most this many points; the plane is then refitted on every inlier.
    static let ransacSample = 20_000
    /// Side of the floor-plan cells an area is counted in, meters.
    static let cell: Float = 0.1

    init(grid: VoxelGrid, centroids: [SIMD3<Float>], options: CaptureOptions) throws(FathomError) {
        // Voxels with points above or below them in their column are walls and the sides of things: left out, so
        // walls neither hide surfaces nor make one of their own (where the views of the walls end, at the edge of
        // the field of view, their last voxels line up at one height and fit a horizontal plane too).
        let wall = HorizontalSurfaces.wallVoxels(grid)
        let finite = centroids.indices.filter { centroids[$0].isFinite && !wall[$0] }
        guard finite.count >= 3, let lo = finite.lazy.map({ centroids[$0].y }).min(),
              let hi = finite.lazy.map({ centroids[$0].y }).max(), (hi - lo).isFinite else { return }
        // Bins of 1 cm, fewer and wider over an extreme height range (a cloud's flying points).
        let bin = Swift.max(HorizontalSurfaces.bin, (hi - lo) / 65_536)
        let bins = Int(((hi - lo) / bin).rounded(.down)) + 1
        var up = [Int32](repeating: 0, count: bins), down = up
        var isUp = [Bool](repeating: false, count: centroids.count)
        for i in finite {
            let b = gridCell((centroids[i].y - lo) / bin, count: bins)
            isUp[i] = 2 * grid.pointsSeenFromAbove(i) >= grid.points(i)
            if isUp[i] { up[b] += 1 } else { down[b] += 1 }
        }
        let voxelArea = grid.size * grid.size
        let least = Swift.max(HorizontalSurfaces.leastArea / voxelArea, 30)
        for (histogram, facing) in [(up, true), (down, false)] {
            for peak in HorizontalSurfaces.peaks(histogram, bin: bin, threshold: options.floorThreshold, least: least) {
                let h = lo + (Float(peak) + 0.5) * bin
                let band = 3 * options.floorThreshold + bin
                let members = finite.filter { isUp[$0] == facing && abs(centroids[$0].y - h) <= band }
                if let surface = try HorizontalSurfaces.fit(members, grid: grid, centroids: centroids, options: options) {
                    found.append(surface)
                }
            }
        }
        // Two peaks of one surface (a drifting floor) give one plane: keep the one with more inliers.
        found.sort { $0.surface.inliers > $1.surface.inliers }
        var kept = [Found]()
        for f in found where !kept.contains(where: { k in
            k.surface.facesUp == f.surface.facesUp && abs(k.surface.height - f.surface.height) <= 2 * options.floorThreshold
        }) { kept.append(f) }
        found = kept.sorted { $0.surface.height < $1.surface.height }
    }

    /// Bins where the window sum (+- threshold) stands above the background by at least `least` voxels and is the
    /// largest within `backgroundNear`, strongest first.
    static func peaks(_ histogram: [Int32], bin: Float, threshold: Float, least: Float) -> [Int] {
        let n = histogram.count
        var prefix = [Int](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + Int(histogram[i]) }
        func sum(_ a: Int, _ b: Int) -> Int { prefix[Swift.min(n, Swift.max(0, b + 1))] - prefix[Swift.min(n, Swift.max(0, a))] }
        // In bins, at most the histogram's length (a threshold of any size converts to Int without a trap).
        let w = Swift.max(1, Int(Swift.min(threshold / bin, Float(n)).rounded()))
        let near = Int((backgroundNear / bin).rounded()), far = Int((backgroundFar / bin).rounded())
        var score = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let window = Float(sum(i - w, i + w))
            // Per-bin background on each side; the busier side, so the step where walls turn from seen-from-above
            // to seen-from-below (at the cameras' height) is no surface. A floor or a ceiling has walls on one
            // side only, and still stands above them.
            let below = Float(sum(i - far, i - near)) / Float(far - near + 1)
            let above = Float(sum(i + near, i + far)) / Float(far - near + 1)
            score[i] = window - Swift.max(below, above) * Float(2 * w + 1)
        }
        var result = [Int]()
        for i in 0..<n where score[i] >= least {
            let a = Swift.max(0, i - near), b = Swift.min(n - 1, i + near)
            // The first bin of a plateau wins, so one peak gives one index.
            guard (a...b).allSatisfy({ score[$0] < score[i] || ($0 >= i && score[$0] <= score[i]) }) else { continue }
            result.append(i)
        }
        return Array(result.sorted { score[$0] > score[$1] }.prefix(maxPeaks))
    }

    /// The plane through `members` (RANSAC, then least squares on its inliers), nil when it is not horizontal
    /// within `floorMaxTilt` or too few points lie on it.
    static func fit(_ members: [Int], grid: VoxelGrid, centroids: [SIMD3<Float>], options: CaptureOptions) throws(FathomError) -> Found? {
        guard members.count >= 3 else { return nil }
        let threshold = Double(options.floorThreshold)
        let step = (members.count + ransacSample - 1) / ransacSample
        let sample = Swift.stride(from: 0, to: members.count, by: step).map { SIMD3<Double>(centroids[members[$0]]) }
        let ransac = try RansacOptions(threshold: threshold, iterations: options.floorIterations, seed: options.seed, confidence: 1)
        let plane: PlaneFit, inliers: [Int]
        do throws(FathomError) {
            let rough = try FitPoints.with(sample, dimensions: 3) { (p) throws(FathomError) in try PlaneFit.ransac(p, ransac) }
            let near = members.filter { abs(rough.distance(SIMD3<Double>(centroids[$0]))) <= threshold }
            guard near.count >= 3 else { return nil }
            plane = try FitPoints.with(near.map { SIMD3<Double>(centroids[$0]) }, dimensions: 3) { (p) throws(FathomError) in try PlaneFit.fit(p) }
            inliers = near
        } catch {
            return nil  // a degenerate band (collinear or coincident points) holds no surface
        }
        guard acos(Swift.min(1, abs(plane.normal.y))) <= Double(options.floorMaxTilt) else { return nil }
        var above = 0, samples = 0
        var cells = Set<SIMD2<Int32>>()
        var minXZ = SIMD2<Float>(repeating: .infinity), maxXZ = SIMD2<Float>(repeating: -.infinity)
        for i in inliers {
            above += grid.pointsSeenFromAbove(i)
            samples += grid.points(i)
            let p = centroids[i], xz = SIMD2(p.x, p.z)
            minXZ = pointwiseMin(minXZ, xz)
            maxXZ = pointwiseMax(maxXZ, xz)
            cells.insert(SIMD2<Int32>(floorPlanCell(p.x), floorPlanCell(p.z)))
        }
        let seenFromAbove = samples > 0 ? Float(above) / Float(samples) : 0
        let upward = plane.normal.y < 0 ? -plane.normal : plane.normal
        let normal = SIMD3<Float>(seenFromAbove >= 0.5 ? upward : -upward)
        let centroid = SIMD3<Float>(plane.point)
        // The footprint's area counts the cells with at least 3 of their 8 neighbours occupied: a surface fills an
        // area, while the edge of the views along the walls (where the walls' voxels end) only draws lines.
        let filled = cells.filter { c in
            var neighbours = 0
            for dx in Int32(-1)...1 { for dz in Int32(-1)...1 where (dx != 0 || dz != 0) && cells.contains(c &+ SIMD2(dx, dz)) { neighbours += 1 } }
            return neighbours >= 3
        }
        let surface = HorizontalSurface(height: centroid.y, normal: normal, inliers: inliers.count, rms: Float(plane.rms),
                                        area: Float(filled.count) * cell * cell, minXZ: minXZ, maxXZ: maxXZ,
                                        seenFromAbove: seenFromAbove)
        return Found(surface: surface, centroid: centroid, members: inliers)
    }

    /// The floor-plan cell of coordinate `v` (Int32 range: clouds are within +-10 km of the origin).
    private static func floorPlanCell(_ v: Float) -> Int32 {
        Int32(clamping: Int((v / cell).rounded(.down).clamped(-1e9, 1e9)))
    }
}

private extension Float {
    func clamped(_ lo: Float, _ hi: Float) -> Float { Swift.min(hi, Swift.max(lo, self)) }
}
