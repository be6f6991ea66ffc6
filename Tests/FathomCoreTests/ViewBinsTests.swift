// View-direction bins, the next view and the angular score against hand-derived values (the checks
// Tests/c/test_coverage.c made across the C ABI, made here once against the core). A direction (unit, from the centre
// of the floor-clamped box to the camera) falls in ring floor(height * rings) with height (y + 1) / 2 on the sphere or
// y on the upper hemisphere (below the horizon: ring 0), and in sector floor(azimuth / 360 deg * sectors), the azimuth
// atan2(z, x) measured from +x toward +z in [0, 360). A bin's centre is the direction at its ring's middle height and
// its sector's middle azimuth. The next view is the centre of the bin with the fewest counted views (ties: the one
// farthest in angle from every bin holding a view, then the lowest index), at a given distance from the box centre or
// else the last counted view's; the angular score is the fraction of bins holding a counted view.
import FathomCore
import Glibc
import Testing

/// The test box: centre (1, 0.5, -2), full extents (0.8, 1.0, 0.6).
private let centre = SIMD3<Double>(1, 0.5, -2)
private func testBox(floor: Float? = nil) throws -> Box {
    try Box(center: SIMD3<Float>(centre), scale: SIMD3(0.8, 1.0, 0.6), rotY: 0, floor: floor)
}

/// A camera `distance` from `centre` along the unit `direction`, looking at `centre` (its optical axis, -z, along
/// -direction), level: x = up x z / |.|, y = z x x, all in Double.
private func cameraAround(_ centre: SIMD3<Double>, _ direction: SIMD3<Double>, _ distance: Double) -> Pose {
    let z = direction, x0 = cross(SIMD3(0, 1, 0), z)
    let x = x0 / length(x0), y = cross(z, x)
    return Pose(rotation: Matrix3(SIMD3<Float>(x), SIMD3<Float>(y), SIMD3<Float>(z)),
                translation: SIMD3<Float>(centre + distance * direction))
}

/// The unit direction at height y and azimuth `degrees` (from +x toward +z).
private func direction(y: Double, degrees: Double) -> SIMD3<Double> {
    let r = (1 - y * y).squareRoot(), a = degrees * .pi / 180
    return SIMD3(r * cos(a), y, r * sin(a))
}

/// Options with the similarity rule off (every view that meets the box counts), the given bins and hemisphere.
private func options(rings: Int, sectors: Int, hemisphere: Bool?) -> CoverageOptions {
    var o = CoverageOptions()
    o.minSeparationAngle = 0
    (o.rings, o.sectors, o.hemisphere) = (rings, sectors, hemisphere)
    return o
}

/// Expects the next view along `direction`, `distance` from `origin` (the box centre unless given).
private func expectNext(_ next: (direction: SIMD3<Float>, position: SIMD3<Float>), _ direction: SIMD3<Double>, _ distance: Double,
                        from origin: SIMD3<Double> = centre, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(close(next.direction, direction, 1e-6) && close(next.position, origin + distance * direction, 1e-5), "\(next)",
            sourceLocation: sourceLocation)
}

/// sqrt(1/2), and sqrt(0.75) * sqrt(1/2) = sqrt(0.375): the x and z of a ring at height +-0.5, 45 degrees off an axis.
private let c45 = 0.5.squareRoot(), r45 = 0.375.squareRoot()

@Suite("View bins, next view and angular score (hand values)")
struct ViewBinsTests {
    @Test("bin centres: 2 rings x 4 sectors on the sphere (y = -0.5, 0.5) and the hemisphere (y = 0.25, 0.75)")
    func centres() {
        // Sphere: ring middles at heights 0.25 and 0.75 of [0, 1] -> y = 2 h - 1 = -0.5, 0.5, radius sqrt(0.75); sector
        // middles at 45, 135, 225, 315 degrees: (+x, +z), (-x, +z), (-x, -z), (+x, -z).
        let sphere = ViewBins(rings: 2, sectors: 4, hemisphere: false)
        let expected: [SIMD3<Double>] = [
            SIMD3(r45, -0.5, r45), SIMD3(-r45, -0.5, r45), SIMD3(-r45, -0.5, -r45), SIMD3(r45, -0.5, -r45),
            SIMD3(r45, 0.5, r45), SIMD3(-r45, 0.5, r45), SIMD3(-r45, 0.5, -r45), SIMD3(r45, 0.5, -r45),
        ]
        for b in 0..<8 { #expect(close(sphere.centre(of: b), expected[b], 1e-6), "bin \(b): \(sphere.centre(of: b))") }
        // Hemisphere: heights 0.25 and 0.75 are the y themselves; radius sqrt(1 - y^2) = 0.968246, 0.661438.
        let hemisphere = ViewBins(rings: 2, sectors: 4, hemisphere: true)
        let low = 0.9375.squareRoot() * c45, high = 0.4375.squareRoot() * c45
        #expect(close(hemisphere.centre(of: 0), SIMD3(low, 0.25, low), 1e-6), "\(hemisphere.centre(of: 0))")
        #expect(close(hemisphere.centre(of: 5), SIMD3(-high, 0.75, high), 1e-6), "\(hemisphere.centre(of: 5))")
        #expect(close(hemisphere.centre(of: 7), SIMD3(high, 0.75, -high), 1e-6), "\(hemisphere.centre(of: 7))")
    }

    @Test("rings of equal height: boundaries at y = -1, -0.5, 0, 0.5, 1 (sphere) and 0, 0.25, 0.5, 0.75, 1 (hemisphere)")
    func rings() {
        let sphere = ViewBins(rings: 4, sectors: 12, hemisphere: false), upper = ViewBins(rings: 4, sectors: 12, hemisphere: true)
        // Azimuth 100 degrees: sector floor(100 / 30) = 3. Heights on the sphere (y + 1) / 2 = 0.2, 0.3, 0.55, 0.8 ->
        // rings 0, 1, 2, 3; on the hemisphere y < 0 -> ring 0, 0.1 * 4 = 0.4 -> 0, 0.6 * 4 = 2.4 -> 2.
        for (y, ring, upperRing) in [(-0.6, 0, 0), (-0.4, 1, 0), (0.1, 2, 0), (0.6, 3, 2)] {
            let d = SIMD3<Float>(direction(y: y, degrees: 100))
            #expect(sphere.bin(of: d) == ring * 12 + 3, "y \(y): \(sphere.bin(of: d))")
            #expect(upper.bin(of: d) == upperRing * 12 + 3, "y \(y): \(upper.bin(of: d))")
        }
        // Straight up and down: the top and bottom rings (sector from the azimuth of (0, 0): 0).
        #expect(sphere.bin(of: SIMD3(0, 1, 0)) == 3 * 12 && sphere.bin(of: SIMD3(0, -1, 0)) == 0)
        #expect(upper.bin(of: SIMD3(0, 1, 0)) == 3 * 12 && upper.bin(of: SIMD3(0, -1, 0)) == 0)
    }

    @Test("sectors: azimuth atan2(z, x) from +x toward +z, negative azimuths wrapped into [0, 360)")
    func sectors() {
        let bins = ViewBins(rings: 1, sectors: 12, hemisphere: false)
        // 30-degree sectors: 10 deg -> 0, 100 -> 3, 190 -> 6, 280 -> 9, -10 = 350 -> 11, -100 = 260 -> 8. (atan2(x, z)
        // would put 10 degrees at 80, sector 2; an unwrapped -10 degrees would be sector 0 or a negative index.)
        for (degrees, sector) in [(10.0, 0), (100, 3), (190, 6), (280, 9), (-10, 11), (-100, 8)] {
            let d = SIMD3<Float>(direction(y: 0.2, degrees: degrees))
            #expect(bins.bin(of: d) == sector, "\(degrees) degrees: \(bins.bin(of: d))")
        }
    }

    @Test("a view is binned by the direction from the box centre to the camera: rings, and the angular score")
    func viewsAndScore() throws {
        // Cameras 3 m from the centre at azimuth 100 degrees and y = -0.6, -0.4, 0.1, 0.6, each looking at the centre:
        // bins 3, 15, 27, 39 on the sphere (4 of 48 covered), 3, 3, 3, 27 on the hemisphere (2 of 48, bin 3 holding 3).
        for hemisphere in [false, true] {
            let tracker = try CoverageTracker(box: try testBox(), options: options(rings: 4, sectors: 12, hemisphere: hemisphere))
            let want = hemisphere ? [3, 3, 3, 27] : [3, 15, 27, 39]
            for (y, bin) in zip([-0.6, -0.4, 0.1, 0.6], want) {
                let r = tracker.record(camera: cameraAround(centre, direction(y: y, degrees: 100), 3), intrinsics: nil)
                #expect(r.status == .counted && r.bin == bin, "y \(y): \(r)")
            }
            #expect(tracker.summary.angularScore == Float(hemisphere ? 2 : 4) / 48, "\(tracker.summary.angularScore)")
            #expect(tracker.binCounts[3] == (hemisphere ? 3 : 1) && tracker.binCounts.reduce(0, +) == 4)
        }
        // The camera's orientation plays no part: from the same place looking 0.1 rad off the centre (the axis still meets
        // the back face, about 0.27 m from its middle), the same bin.
        let tracker = try CoverageTracker(box: try testBox(), options: options(rings: 4, sectors: 12, hemisphere: false))
        let straight = cameraAround(centre, direction(y: 0.1, degrees: 100), 3)
        let turned = Pose(rotation: straight.rotation * DMatrix3.rotationY(0.1).float, translation: straight.translation)
        let seen = tracker.record(camera: turned, intrinsics: nil)
        #expect(seen.status == .counted && seen.bin == 27, "\(seen)")
        // A missed view is binned but not counted: no score.
        let away = cameraAround(centre, direction(y: 0.1, degrees: 100), 3)
        let missed = Pose(rotation: away.rotation * DMatrix3.rotationY(.pi).float, translation: away.translation)
        let r = tracker.record(camera: missed, intrinsics: nil)
        #expect(r.status == .missed && r.bin == 27 && tracker.summary.angularScore == Float(1) / 48)
    }

    @Test("next view: the least covered bin's centre, ties broken by distance from covered bins, then by index")
    func nextView() throws {
        // 1 ring x 4 sectors: centres at y = 0 (the ring's middle height 0.5 on the sphere), azimuths 45, 135, 225, 315:
        // (c45, 0, c45), (-c45, 0, c45), (-c45, 0, -c45), (c45, 0, -c45).
        let tracker = try CoverageTracker(box: try testBox(), options: options(rings: 1, sectors: 4, hemisphere: false))
        // Nothing counted: every bin has 0 and none is covered, so all tie: bin 0, at the given 2 m from the centre.
        var next = try tracker.nextView(distance: 2)
        expectNext(next, SIMD3(c45, 0, c45), 2)
        // Nothing counted and no distance: there is no last view to take it from.
        expectError(.invalidState) { () throws(FathomError) in _ = try tracker.nextView(distance: nil) }
        expectError(.outOfRange) { () throws(FathomError) in _ = try tracker.nextView(distance: 0) }

        // One view from sector 0, 3 m away: bins 1, 2, 3 have none; bin 2 is 180 degrees from bin 0, bins 1 and 3 only
        // 90 -> bin 2, at the last view's 3 m (or the 1.5 m given).
        var r = tracker.record(camera: cameraAround(centre, SIMD3(c45, 0, c45), 3), intrinsics: nil)
        #expect(r.status == .counted && r.bin == 0 && tracker.summary.angularScore == 0.25)
        next = try tracker.nextView(distance: nil)
        expectNext(next, SIMD3(-c45, 0, -c45), 3)
        expectNext(try tracker.nextView(distance: 1.5), SIMD3(-c45, 0, -c45), 1.5)

        // Views from sectors 0 (3.5 m), 2 (3 m) and 3 (2 m): counts (2, 0, 1, 1): bin 1 is the only empty one, at the
        // last view's 2 m. Score 3 / 4.
        for (d, distance, bin) in [(SIMD3(c45, 0, c45), 3.5, 0), (SIMD3(-c45, 0, -c45), 3, 2), (SIMD3(c45, 0, -c45), 2, 3)] {
            r = tracker.record(camera: cameraAround(centre, d, distance), intrinsics: nil)
            #expect(r.status == .counted && r.bin == bin, "\(r)")
        }
        #expect(tracker.binCounts == [2, 0, 1, 1] && tracker.summary.angularScore == 0.75)
        next = try tracker.nextView(distance: nil)
        expectNext(next, SIMD3(-c45, 0, c45), 2)

        // Then bin 1 once (3 m), bins 2 and 3 once more (2.5 m): counts (2, 1, 2, 2): bin 1 has the fewest although it
        // is covered. Score 1.
        for (d, distance) in [(SIMD3(-c45, 0, c45), 3.0), (SIMD3(-c45, 0, -c45), 2.5), (SIMD3(c45, 0, -c45), 2.5)] {
            #expect(tracker.record(camera: cameraAround(centre, d, distance), intrinsics: nil).status == .counted)
        }
        #expect(tracker.binCounts == [2, 1, 2, 2] && tracker.summary.angularScore == 1)
        next = try tracker.nextView(distance: nil)
        expectNext(next, SIMD3(-c45, 0, c45), 2.5)

        // A reset forgets the views and the last distance.
        tracker.reset()
        expectError(.invalidState) { () throws(FathomError) in _ = try tracker.nextView(distance: nil) }
        #expect(tracker.summary.angularScore == 0)
    }

    @Test("next view among many empty bins: the one whose nearest covered bin is farthest")
    func farthestFromCovered() throws {
        // 1 ring x 8 sectors (45-degree sectors, centres at 22.5 + 45 k degrees). Views from sectors 0 and 2. The empty
        // bins' angular distances to bins 0 and 2: 1: 45, 45; 3: 135, 45; 4: 180, 90; 5: 135, 135; 6: 90, 180;
        // 7: 45, 135. The nearest covered bin is farthest for bin 5 (135 degrees): its centre, azimuth 247.5 degrees.
        // (Farthest from the last view alone would be bin 6, from the first alone bin 4; the lowest index bin 1.)
        let tracker = try CoverageTracker(box: try testBox(), options: options(rings: 1, sectors: 8, hemisphere: false))
        for degrees in [22.5, 112.5] {
            let view = tracker.record(camera: cameraAround(centre, direction(y: 0, degrees: degrees), 3), intrinsics: nil)
            #expect(view.status == .counted)
        }
        #expect(tracker.binCounts == [1, 0, 1, 0, 0, 0, 0, 0])
        expectNext(try tracker.nextView(distance: nil), direction(y: 0, degrees: 247.5), 3)
    }

    @Test("next view: bins equally far from every covered bin tie, and the lowest index wins, for any sector count")
    func equalSeparationsTie() throws {
        // Views from bins 0 and n / 2 (opposite). An empty bin's separation is its angle to the nearer of the two:
        // largest, 90 degrees, at bins n / 4 and 3 n / 4 for n = 4, 8, 12 (bin n / 4 wins, the lower index); for
        // n = 6 every empty bin is 60 degrees from one of them (bin 1 wins). The float centres' rounding used to
        // decide instead (bins 3, 6, 9 and 4).
        for (sectors, expected) in [(4, 1), (8, 2), (12, 3), (6, 1)] {
            let tracker = try CoverageTracker(box: try testBox(), options: options(rings: 1, sectors: sectors, hemisphere: false))
            let step = 360.0 / Double(sectors)
            for k in [0, sectors / 2] {
                let view = tracker.record(camera: cameraAround(centre, direction(y: 0, degrees: step * (Double(k) + 0.5)), 3),
                                          intrinsics: nil)
                #expect(view.status == .counted && view.bin == k)
            }
            expectNext(try tracker.nextView(distance: nil), direction(y: 0, degrees: step * (Double(expected) + 0.5)), 3)
        }
    }

    @Test("on a floor: hemisphere bins, and the next view from the centre of the floor-clamped box")
    func floorClamped() throws {
        // The box reaches y 0 ... 1; on a floor at 0.2 the clamped box spans 0.2 ... 1.0: centre (1, 0.6, -2). The
        // hemisphere (the default on a floor) with 1 ring x 4 sectors: centres at y = 0.5, radius sqrt(0.75).
        let tracker = try CoverageTracker(box: try testBox(floor: 0.2), options: options(rings: 1, sectors: 4, hemisphere: nil))
        #expect(tracker.bins.hemisphere)
        expectNext(try tracker.nextView(distance: 2), SIMD3(r45, 0.5, r45), 2, from: SIMD3(1, 0.6, -2))
    }
}
