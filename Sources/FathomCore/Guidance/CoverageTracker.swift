/// Why a view was or was not counted.
public enum ViewStatus: UInt32, Sendable {
    case counted = 0, missed = 1, tooClose = 2, tooFar = 3, outOfFrame = 4, tooSimilar = 5
}

/// What recording one view did.
public struct ViewResult: Equatable, Sendable {
    public var status: ViewStatus
    /// The face the optical axis meets first, or nil on a miss.
    public var face: Int?
    /// Cell index b * cells + a on that face, and the camera's view-direction bin.
    public var cell: Int, bin: Int
    /// Along the axis to the face, meters (0 on a miss).
    public var distance: Float
    /// The face this view completed, reported once per face until reset.
    public var completedFace: Int?
}

/// One face's coverage with the app's colour and opacity.
public struct FaceCoverage: Equatable, Sendable {
    public var count: Int
    /// min(count / goal, 1).
    public var progress: Float
    /// (1 - progress) * yellow + progress * cyan, RGB.
    public var color: SIMD3<Float>
    /// 0.25 + 0.5 * progress while progress < 1; 0 once complete.
    public var opacity: Float
    public var complete: Bool
    /// Whether the face counts toward "complete".
    public var needed: Bool
}

/// The capture app's face coverage of a box, with cells per face, view-direction bins, and the rules that keep
/// views that should not count (missed, too close or far, out of frame, too similar) from counting.
public final class CoverageTracker {
    public let box: Box
    public let options: CoverageOptions
    public let bins: ViewBins
    public let excludesBottom: Bool
    let shape: OrientedBox
    /// 1 / the box's extents, by which cell coordinates are scaled (products rather than quotients: several times
    /// cheaper in the batch's lanes).
    let inverseScale: SIMD3<Float>
    let axes: Matrix3
    let corners: [SIMD3<Float>]

    // The counters are only touched by the tracker's own methods (here and in CoverageTracker+Batch.swift), one call at
    // a time (the type is documented as not thread-safe), so the run-time exclusivity checks are skipped.
    @exclusivity(unchecked) public internal(set) var faceCounts = [Int](repeating: 0, count: 6)
    /// Per face, cells * cells counts, index b * cells + a.
    @exclusivity(unchecked) var cells: [Int]
    @exclusivity(unchecked) public internal(set) var binCounts: [Int]
    @exclusivity(unchecked) public internal(set) var views = 0, counted = 0
    /// Distance from the box centre of the last counted view, meters.
    @exclusivity(unchecked) public internal(set) var lastDistance: Float?
    @exclusivity(unchecked) var reported = [Bool](repeating: false, count: 6)
    @exclusivity(unchecked) var memory: ViewMemory

    public init(box: Box, options: CoverageOptions) throws(FathomError) {
        try options.validate()
        self.box = box
        self.options = options
        shape = try box.orientedBox()
        inverseScale = 1 / shape.scale
        axes = shape.rotation.matrix
        corners = shape.corners
        let onFloor = box.floor != nil
        bins = ViewBins(rings: options.rings, sectors: options.sectors, hemisphere: options.hemisphere ?? onFloor)
        excludesBottom = options.excludeBottom ?? onFloor
        cells = [Int](repeating: 0, count: 6 * options.cells * options.cells)
        binCounts = [Int](repeating: 0, count: bins.count)
        memory = ViewMemory(distance: options.minSeparationDistance, angle: options.minSeparationAngle)
    }

    /// Records a view from `camera` (camera-to-world; its optical axis is its -z); `intrinsics` enables the
    /// in-frame rule.
    public func record(camera: Pose, intrinsics: Intrinsics?) -> ViewResult {
        views += 1
        let origin = camera.translation
        // Normalized by products with one reciprocal (the batch's lanes wait on divisions).
        let axis = -camera.rotation.c2 * (1 / length(camera.rotation.c2))
        let crossing = PrimitiveCast.orientedBox(Ray(origin: origin, direction: axis), tmin: 0, tmax: .infinity,
                                                 center: shape.center, axes: axes, half: shape.scale / 2)
        let toCamera = origin - shape.center
        let bin = bins.bin(of: toCamera * (1 / Swift.max(length(toCamera), .leastNormalMagnitude)))
        guard let hit = crossing.hit, !crossing.originInside else {
            return ViewResult(status: .missed, face: nil, cell: 0, bin: bin, distance: 0, completedFace: nil)
        }
        let face = Int(hit.primitive)
        var result = ViewResult(status: .counted, face: face, cell: cell(of: hit.point, on: face), bin: bin, distance: hit.t, completedFace: nil)
        if hit.t < options.minDistance { result.status = .tooClose; return result }
        if hit.t > options.maxDistance { result.status = .tooFar; return result }
        if let intrinsics, options.minInView > 0, inViewFraction(camera, intrinsics) < options.minInView {
            result.status = .outOfFrame
            return result
        }
        let direction = toCamera / length(toCamera)
        if memory.hasNeighbour(position: origin, direction: direction) { result.status = .tooSimilar; return result }
        memory.insert(position: origin, direction: direction)
        counted += 1
        faceCounts[face] += 1
        cells[face * options.cells * options.cells + result.cell] += 1
        binCounts[bin] += 1
        lastDistance = length(toCamera)
        if faceCounts[face] >= options.goal, !reported[face] {
            reported[face] = true
            result.completedFace = face
        }
        return result
    }

    /// A face's cell counts, cells * cells values, index b * cells + a.
    public func cellCounts(face: Int) -> [Int] {
        let n = options.cells * options.cells
        return Array(cells[(face * n)..<((face + 1) * n)])
    }

    /// The cell of a point on a face: along local (x, y) for front/back, (z, y) for left/right, (x, z) for bottom/top.
    func cell(of point: SIMD3<Float>, on face: Int) -> Int {
        let local = SIMD3(dot(point - shape.center, axes.c0), dot(point - shape.center, axes.c1), dot(point - shape.center, axes.c2)) * inverseScale
        let (first, second): (Float, Float) = switch face {
        case 1, 2: (local.z, local.y)
        case 3, 4: (local.x, local.z)
        default: (local.x, local.y)
        }
        let n = options.cells
        func index(_ c: Float) -> Int { gridCell((c + 0.5) * Float(n), count: n) }
        return index(second) * n + index(first)
    }

    /// The fraction of the box's corners that project inside the image.
    func inViewFraction(_ camera: Pose, _ intrinsics: Intrinsics) -> Float {
        var inside = 0
        for corner in corners {
            if let p = try? intrinsics.project(corner, camera: camera), !p.behind, !p.outside { inside += 1 }
        }
        return Float(inside) / Float(corners.count)
    }

    /// One face's coverage by the app's formulas.
    public func face(_ i: Int) -> FaceCoverage {
        let progress = Swift.min(Float(faceCounts[i]) / Float(options.goal), 1)
        let complete = faceCounts[i] >= options.goal
        return FaceCoverage(count: faceCounts[i], progress: progress, color: SIMD3(1 - progress, 1, progress),
                            opacity: complete ? 0 : 0.25 + 0.5 * progress, complete: complete, needed: !(excludesBottom && i == 3))
    }

    /// Needed faces that are complete, of how many, and the fraction of view bins holding a counted view.
    public var summary: (facesComplete: Int, facesNeeded: Int, complete: Bool, angularScore: Float) {
        let faces = (0..<6).map(face)
        let needed = faces.filter(\.needed)
        let done = needed.filter(\.complete).count
        return (done, needed.count, done == needed.count, Float(binCounts.filter { $0 > 0 }.count) / Float(bins.count))
    }

    /// The centre of the least-covered bin (fewest views; ties: farthest in angle from every bin holding a view,
    /// then the lowest index), and the camera position `distance` from the box centre along it.
    public func nextView(distance: Float?) throws(FathomError) -> (direction: SIMD3<Float>, position: SIMD3<Float>) {
        guard let d = distance ?? lastDistance else {
            throw FathomError(.invalidState, "no view has been counted yet: give the distance")
        }
        try Check.positive(d, "distance")
        let fewest = binCounts.min()!
        let covered = (0..<bins.count).filter { binCounts[$0] > 0 }.map(bins.centre)
        var best = -1, bestSeparation: Float = -2
        for b in 0..<bins.count where binCounts[b] == fewest {
            let centre = bins.centre(of: b)
            // Angular separation as -cos: larger is farther. Bins the same angle away tie although their float
            // centres round differently: only a separation larger by more than that rounding wins.
            let separation = covered.map { -dot($0, centre) }.min() ?? 0
            if separation > bestSeparation + 1e-5 { (best, bestSeparation) = (b, separation) }
        }
        let direction = bins.centre(of: best)
        return (direction, shape.center + d * direction)
    }

    /// Forgets every view.
    public func reset() {
        faceCounts = [Int](repeating: 0, count: 6)
        cells = [Int](repeating: 0, count: cells.count)
        binCounts = [Int](repeating: 0, count: bins.count)
        views = 0
        counted = 0
        lastDistance = nil
        reported = [Bool](repeating: false, count: 6)
        memory.removeAll()
    }
}
