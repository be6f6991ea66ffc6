// The coverage tracker on random views of a turned box (floating, standing on a floor, and clamped by a floor above
// its bottom) against the header's rules computed here in Double, view by view: the slab test in the box's frame for
// the face the optical axis meets first and its distance, the cell of the hit, the view bin of the direction box
// centre -> camera, and the similarity rule against the views counted before. Views whose answer lies within rounding
// of a decision (an edge, a cell border, a bin border) are not drawn. The hand-derived cases of each rule are in
// CoverageRuleTests and ViewBinsTests; these check that the rules hold together on views from everywhere.
import FathomCore
import Glibc
import Testing

/// The header's faces, entered through the slab of `axis` from its negative side or its positive side.
private func entryFace(axis: Int, fromNegativeSide: Bool) -> Int {
    switch axis {
    case 0: fromNegativeSide ? 1 : 2  // left, right
    case 1: fromNegativeSide ? 3 : 4  // bottom, top
    default: fromNegativeSide ? 0 : 5  // front, back
    }
}

/// The floor-clamped box in Double: centre, half extents, and R_y(rotY) (x, y, z) = (c x + s z, y, -s x + c z).
private struct ClampedBox {
    let centre: SIMD3<Double>, half: SIMD3<Double>, c: Double, s: Double

    init(centre: SIMD3<Double>, scale: SIMD3<Double>, rotY: Double, floor: Double?) {
        let low = max(centre.y - scale.y / 2, floor ?? -.infinity), high = centre.y + scale.y / 2
        self.centre = SIMD3(centre.x, (low + high) / 2, centre.z)
        half = SIMD3(scale.x / 2, (high - low) / 2, scale.z / 2)
        (c, s) = (cos(rotY), sin(rotY))
    }

    func toLocal(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(c * v.x - s * v.z, v.y, s * v.x + c * v.z) }
    func toWorld(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(c * v.x + s * v.z, v.y, -s * v.x + c * v.z) }
}

/// What the rules say about one view, and how far it is from a decision the rounding of Float could flip.
private struct Expected {
    var face: Int?, distance = 0.0, cell = 0, bin = 0, margin = Double.infinity
}

/// The floor of x * n clamped to 0..<n, and how far x * n is from an inner border (infinity when no border is near).
private func index(_ x: Double, _ n: Int) -> (Int, Double) {
    let scaled = x * Double(n), nearest = scaled.rounded()
    let margin = nearest > 0 && nearest < Double(n) ? abs(scaled - nearest) : .infinity
    return (min(max(Int(scaled.rounded(.down)), 0), n - 1), margin)
}

private func expected(_ box: ClampedBox, origin: SIMD3<Double>, axis: SIMD3<Double>, cells: Int, bins: ViewBins) -> Expected {
    var out = Expected()
    // The bin: ring from the height of the unit direction to the camera, sector from its azimuth atan2(z, x).
    let toCamera = origin - box.centre, d = toCamera / length(toCamera)
    let height = bins.hemisphere ? max(d.y, 0) : (d.y + 1) / 2
    let (ring, ringMargin) = index(height, bins.rings)
    var azimuth = atan2(d.z, d.x) / (2 * .pi)
    if azimuth < 0 { azimuth += 1 }
    let (sector, sectorMargin) = index(azimuth, bins.sectors)
    out.bin = ring * bins.sectors + sector
    // (below the horizon every direction is ring 0 of a hemisphere; azimuth 0 is the border of the last sector too)
    out.margin = min(bins.hemisphere && d.y <= 0 ? .infinity : ringMargin, sectorMargin,
                     min(azimuth, 1 - azimuth) * Double(bins.sectors))
    // The slab test in the box's frame: the largest entry time is where the axis enters, the smallest exit where it
    // leaves; a camera inside the box, a box behind it or an axis passing by meets no face.
    let o = box.toLocal(toCamera), a = box.toLocal(axis)
    var enter = -Double.infinity, leave = Double.infinity, enterAxis = 0, entries = [Double]()
    for k in 0..<3 {
        let t1 = (-box.half[k] - o[k]) / a[k], t2 = (box.half[k] - o[k]) / a[k]
        entries.append(min(t1, t2))
        if min(t1, t2) > enter { (enter, enterAxis) = (min(t1, t2), k) }
        leave = min(leave, max(t1, t2))
    }
    out.margin = min(out.margin, abs(enter - leave), abs(enter))
    guard enter < leave && enter > 0 else { return out }
    let others = entries.enumerated().filter { $0.offset != enterAxis }.map(\.element)
    out.margin = min(out.margin, enter - others.max()!)
    out.face = entryFace(axis: enterAxis, fromNegativeSide: a[enterAxis] > 0)
    out.distance = enter
    // The cell: each of the face's two axes ((x, y) front and back, (z, y) left and right, (x, z) bottom and top)
    // in units of the box's extent from -1/2 to 1/2; index b * cells + a.
    let hit = (o + enter * a) / (2 * box.half)
    let (first, second) = switch out.face! {
    case 0, 5: (hit.x, hit.y)
    case 1, 2: (hit.z, hit.y)
    default: (hit.x, hit.z)
    }
    let (ca, ma) = index(first + 0.5, cells), (cb, mb) = index(second + 0.5, cells)
    out.cell = cb * cells + ca
    out.margin = min(out.margin, ma, mb)
    return out
}

/// A camera at `eye` whose optical axis (its -z) points at `target`, level (x = up x z / |.|, y = z x x), in Double.
private func camera(eye: SIMD3<Double>, target: SIMD3<Double>) -> Pose {
    let z = (eye - target) / length(eye - target), x0 = cross(SIMD3(0, 1, 0), z)
    let x = x0 / length(x0), y = cross(z, x)
    return Pose(rotation: Matrix3(SIMD3<Float>(x), SIMD3<Float>(y), SIMD3<Float>(z)), translation: SIMD3<Float>(eye))
}

@Suite("Coverage on random views (the rules in Double)")
struct CoverageRandomViewsTests {
    @Test("every view's status, face, distance, cell and bin, and the counts, as the rules give them",
          arguments: [nil, 0.0, 0.2] as [Float?])
    func randomViews(floor: Float?) throws {
        let centre = SIMD3<Float>(0.4, 0.5, -0.3), scale = SIMD3<Float>(0.8, 1.0, 0.6), rotY: Float = 0.7
        var o = CoverageOptions()
        (o.goal, o.cells, o.rings, o.sectors) = (15, 3, 5, 8)
        let tracker = try CoverageTracker(box: try Box(center: centre, scale: scale, rotY: rotY, floor: floor), options: o)
        let box = ClampedBox(centre: SIMD3<Double>(centre), scale: SIMD3<Double>(scale), rotY: Double(rotY),
                             floor: floor.map(Double.init))
        let bins = ViewBins(rings: 5, sectors: 8, hemisphere: floor != nil)
        // The similarity rule (on by default): a view within 5 degrees (seen from the box centre) and 0.1 m of a counted
        // one does not count; only counted views are remembered.
        let cosSeparation = cos(Double(o.minSeparationAngle)), separation = Double(o.minSeparationDistance)
        var remembered = [(origin: SIMD3<Double>, direction: SIMD3<Double>)]()
        var faces = [Int](repeating: 0, count: 6), cellCounts = [[Int]](repeating: [Int](repeating: 0, count: 9), count: 6)
        var binCounts = [Int](repeating: 0, count: bins.count), statuses = Set<ViewStatus>()
        var rng = SplitMix64(seed: 0xC0DE + UInt64(floor.map { Int($0 * 10) + 1 } ?? 0))
        var views = 0
        while views < 400 {
            // Cameras 0.3 to 3 m beyond the box's bounding sphere, aimed at points up to 1.3 half extents from its
            // centre: some axes meet the box, some pass by.
            let out = rng.direction(), aim = SIMD3(rng.double(-1.3...1.3), rng.double(-1.3...1.3), rng.double(-1.3...1.3))
            let eye = box.centre + out * (length(box.half) + rng.double(0.3...3))
            let pose = camera(eye: eye, target: box.centre + box.toWorld(aim * box.half))
            // What the tracker sees: the Float pose, in Double.
            let origin = SIMD3<Double>(pose.translation), axis = -SIMD3<Double>(pose.rotation.c2)
            let want = expected(box, origin: origin, axis: axis, cells: 3, bins: bins)
            guard want.margin > 1e-4 else { continue }
            views += 1
            let got = tracker.record(camera: pose, intrinsics: nil)
            #expect(got.face == want.face && got.bin == want.bin, "view \(views): \(got) vs \(want)")
            guard let face = want.face else {
                #expect(got.status == .missed && got.distance == 0, "view \(views): \(got)")
                statuses.insert(got.status)
                continue
            }
            #expect(got.cell == want.cell && abs(Double(got.distance) - want.distance) <= 1e-5 * max(1, want.distance),
                    "view \(views): \(got) vs \(want)")
            let direction = (origin - box.centre) / length(origin - box.centre)
            let similar = remembered.contains { length($0.origin - origin) < separation && dot($0.direction, direction) > cosSeparation }
            #expect(got.status == (similar ? .tooSimilar : .counted), "view \(views): \(got)")
            statuses.insert(got.status)
            guard !similar else { continue }
            remembered.append((origin, direction))
            faces[face] += 1
            cellCounts[face][want.cell] += 1
            binCounts[want.bin] += 1
        }
        #expect(statuses.contains(.counted) && statuses.contains(.missed))  // the views exercise hits and misses
        #expect(tracker.faceCounts == faces && tracker.binCounts == binCounts)
        for face in 0..<6 { #expect(tracker.cellCounts(face: face) == cellCounts[face], "face \(face)") }
        #expect(tracker.views == 400 && tracker.counted == faces.reduce(0, +))
    }
}
