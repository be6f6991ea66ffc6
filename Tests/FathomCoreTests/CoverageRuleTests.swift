// The coverage tracker's rules against hand-derived values (the checks Tests/c/test_coverage.c makes across the C ABI,
// made here once against the core): the face the optical axis (camera -z) meets first and its distance, the cell
// a = floor((coordinate / extent + 1/2) * cells) along the face's two local axes ((x, y) front/back, (z, y)
// left/right, (x, z) bottom/top), index b * cells + a, the equal-area view bin (ring from the height y of the unit
// direction box centre -> camera: (y + 1) / 2 on the sphere, y on the upper hemisphere; sector from atan2(z, x)
// measured from +x toward +z), a turned and a floor-clamped box, exclude_bottom, and the rules that reject views.
// Every expected value is worked out in the comment above its check.
import FathomCore
import Glibc
import Testing

/// Faces in FATHOM_FACE_* order.
private let front = 0, left = 1, right = 2, bottom = 3, top = 4, back = 5

/// The test box: centre (1, 0.5, -2), full extents (0.8, 1.0, 0.6) (half extents 0.4, 0.5, 0.3).
private func testBox(rotY: Float = 0, floor: Float? = nil) throws -> Box {
    try Box(center: SIMD3(1, 0.5, -2), scale: SIMD3(0.8, 1.0, 0.6), rotY: rotY, floor: floor)
}

/// A camera at `eye` (world) whose optical axis (its -z) points along `dir`; `up` picks the roll. Built in Double:
/// z = -dir / |dir|, x = up x z / |.|, y = z x x (a right-handed rotation, columns x, y, z).
private func camera(eye: SIMD3<Double>, dir: SIMD3<Double>, up: SIMD3<Double> = SIMD3(0, 1, 0)) -> Pose {
    func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
    func unit(_ v: SIMD3<Double>) -> SIMD3<Double> { v / (v * v).sum().squareRoot() }
    let z = unit(-dir), x = unit(cross(up, z)), y = cross(z, x)
    return Pose(rotation: Matrix3(SIMD3<Float>(x), SIMD3<Float>(y), SIMD3<Float>(z)), translation: SIMD3<Float>(eye))
}

/// A camera at centre + R_y(rotY) * local eye, looking along R_y(rotY) * local dir (the box's frame), with
/// R_y(a) (x, y, z) = (cos a x + sin a z, y, -sin a x + cos a z). Looking straight up or down, the roll comes from
/// local -z.
private func localCamera(_ box: Box, _ eye: SIMD3<Double>, _ dir: SIMD3<Double>) -> Pose {
    let a = Double(box.rotY)
    func ry(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(cos(a) * v.x + sin(a) * v.z, v.y, -sin(a) * v.x + cos(a) * v.z) }
    let up = dir.x == 0 && dir.z == 0 ? ry(SIMD3(0, 0, -1)) : SIMD3(0, 1, 0)
    return camera(eye: SIMD3<Double>(box.center) + ry(eye), dir: ry(dir), up: up)
}

/// Options with `goal` and the similarity rule off (so the same pose may count again) unless asked for.
private func options(goal: Int = 10, separationAngle: Float = 0) -> CoverageOptions {
    var o = CoverageOptions()
    o.goal = goal
    o.minSeparationAngle = separationAngle
    return o
}

@Suite("Coverage rules (hand values)")
struct CoverageRuleTests {
    @Test("the face the axis meets, its distance, cell and bin, for a camera on each of the six sides")
    func sixSides() throws {
        let box = try testBox()
        let tracker = try CoverageTracker(box: box, options: options())

        // Front (local -z): from local (0.25, -0.3, -3) along +z, the axis meets z = -0.3 at t = 2.7, at local
        // (0.25, -0.3): a = floor((0.25 / 0.8 + 0.5) 4) = floor(3.25) = 3, b = floor((-0.3 / 1 + 0.5) 4) = floor(0.8)
        // = 0 -> cell 3. Direction to the camera (0.25, -0.3, -3) / 3.0253: y = -0.0992 -> (y + 1) / 2 = 0.4504 ->
        // ring floor(1.80) = 1 of 4; azimuth atan2(-3, 0.25) = -85.24 deg = 274.76 deg -> sector floor(9.16) = 9 of
        // 12 -> bin 1 * 12 + 9 = 21.
        var r = tracker.record(camera: localCamera(box, SIMD3(0.25, -0.3, -3), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .counted && r.face == front && r.cell == 3 && r.bin == 21 && r.completedFace == nil)
        #expect(close(r.distance, 2.7, 1e-5), "\(r.distance)")

        // Left (local -x): from local (-3, 0.2, 0.1) along +x: x = -0.4 at t = 2.6, hit (-0.4, 0.2, 0.1);
        // a from z: floor((0.1 / 0.6 + 0.5) 4) = floor(2.67) = 2, b from y: floor(0.7 * 4) = 2 -> cell 10.
        r = tracker.record(camera: localCamera(box, SIMD3(-3, 0.2, 0.1), SIMD3(1, 0, 0)), intrinsics: nil)
        #expect(r.status == .counted && r.face == left && r.cell == 10)
        #expect(close(r.distance, 2.6, 1e-5), "\(r.distance)")

        // Right (local +x): from local (2, -0.45, -0.29) along -x: x = 0.4 at t = 1.6; a from z:
        // floor((-0.29 / 0.6 + 0.5) 4) = floor(0.067) = 0, b from y: floor(0.05 * 4) = 0 -> cell 0.
        r = tracker.record(camera: localCamera(box, SIMD3(2, -0.45, -0.29), SIMD3(-1, 0, 0)), intrinsics: nil)
        #expect(r.status == .counted && r.face == right && r.cell == 0)
        #expect(close(r.distance, 1.6, 1e-5), "\(r.distance)")

        // Back (local +z): from local (-0.39, 0.49, 4) along -z: z = 0.3 at t = 3.7; a = floor((-0.4875 + 0.5) 4) =
        // floor(0.05) = 0, b = floor(0.99 * 4) = 3 -> cell 12.
        r = tracker.record(camera: localCamera(box, SIMD3(-0.39, 0.49, 4), SIMD3(0, 0, -1)), intrinsics: nil)
        #expect(r.status == .counted && r.face == back && r.cell == 12)
        #expect(close(r.distance, 3.7, 1e-5), "\(r.distance)")

        // Top (local +y): from local (-0.3, 3, 0.2) straight down: y = 0.5 at t = 2.5; a from x: floor((-0.375 + 0.5)
        // 4) = floor(0.5) = 0, b from z: floor((0.2 / 0.6 + 0.5) 4) = floor(3.33) = 3 -> cell 12. Direction
        // (-0.3, 3, 0.2) / 3.0216: y = 0.9928 -> (y + 1) / 2 = 0.9964 -> ring 3; azimuth atan2(0.2, -0.3) = 146.3 deg
        // -> sector floor(4.88) = 4 -> bin 3 * 12 + 4 = 40.
        r = tracker.record(camera: localCamera(box, SIMD3(-0.3, 3, 0.2), SIMD3(0, -1, 0)), intrinsics: nil)
        #expect(r.status == .counted && r.face == top && r.cell == 12 && r.bin == 40)
        #expect(close(r.distance, 2.5, 1e-5), "\(r.distance)")

        // Bottom (local -y): from local (0.35, -2, -0.05) straight up: y = -0.5 at t = 1.5; a from x:
        // floor((0.4375 + 0.5) 4) = floor(3.75) = 3, b from z: floor((-0.0833 + 0.5) 4) = floor(1.67) = 1 -> cell 7.
        // Direction (0.35, -2, -0.05) / 2.0310: y = -0.9847 -> (y + 1) / 2 = 0.0076 -> ring 0; azimuth
        // atan2(-0.05, 0.35) = -8.13 deg = 351.87 deg -> sector floor(11.73) = 11 -> bin 11.
        r = tracker.record(camera: localCamera(box, SIMD3(0.35, -2, -0.05), SIMD3(0, 1, 0)), intrinsics: nil)
        #expect(r.status == .counted && r.face == bottom && r.cell == 7 && r.bin == 11)
        #expect(close(r.distance, 1.5, 1e-5), "\(r.distance)")

        // The first face met by an oblique axis: from local (-2, 0.1, -2) along (1, 0, 1) / sqrt 2 the axis reaches
        // the plane x = -0.4 at t = 1.6 sqrt 2 (where z = -0.4: outside |z| <= 0.3) and the plane z = -0.3 at
        // t = 1.7 sqrt 2 (where x = -0.3: inside |x| <= 0.4): the front face first, at 1.7 sqrt 2 = 2.4042;
        // a = floor((-0.3 / 0.8 + 0.5) 4) = floor(0.5) = 0, b = floor(0.6 * 4) = 2 -> cell 8.
        r = tracker.record(camera: localCamera(box, SIMD3(-2, 0.1, -2), SIMD3(1, 0, 1)), intrinsics: nil)
        #expect(r.status == .counted && r.face == front && r.cell == 8)
        #expect(close(r.distance, Float(1.7 * 2.0.squareRoot()), 1e-5), "\(r.distance)")

        // Per-face and per-cell counts: the front face holds cells 3 and 8 once each; one view on each other face.
        let frontCells = tracker.cellCounts(face: front)
        #expect(frontCells.count == 16 && frontCells[3] == 1 && frontCells[8] == 1 && frontCells.reduce(0, +) == 2)
        #expect(tracker.cellCounts(face: top)[12] == 1 && tracker.cellCounts(face: bottom)[7] == 1)
        #expect(tracker.faceCounts == [2, 1, 1, 1, 1, 1])
        #expect(tracker.views == 7 && tracker.counted == 7)
    }

    @Test("cells x cells grid: the same hit in an 8 x 8 grid")
    func eightCells() throws {
        let box = try testBox()
        var o = options()
        o.cells = 8
        let tracker = try CoverageTracker(box: box, options: o)
        // The front hit at local (0.25, -0.3): a = floor(0.8125 * 8) = floor(6.5) = 6, b = floor(0.2 * 8) =
        // floor(1.6) = 1 -> 1 * 8 + 6 = 14.
        let r = tracker.record(camera: localCamera(box, SIMD3(0.25, -0.3, -3), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .counted && r.face == front && r.cell == 14)
        #expect(tracker.cellCounts(face: front).count == 64 && tracker.cellCounts(face: front)[14] == 1)
    }

    @Test("a box turned 90 degrees about y: faces and cells in the box's own frame, bins in the world's")
    func turnedBox() throws {
        // rot_y = pi/2: R_y maps local (x, y, z) to world (z, y, -x): local +x is world -z, local +z is world +x.
        let box = try testBox(rotY: .pi / 2)
        let tracker = try CoverageTracker(box: box, options: options())

        // A camera at world centre + (3, 0.1, 0.25) = (4, 0.6, -1.75) looking along world -x: local position
        // (x, y, z) = (-world z, world y, world x) offsets = (-0.25, 0.1, 3), looking along local -z -> the back face
        // (local z = 0.3) at t = 3 - 0.3 = 2.7 (unturned, world -x would have met the right face, at 3 - 0.4 = 2.6).
        // Back cells along local (x, y): a = floor((-0.25 / 0.8 + 0.5) 4) = floor(0.75) = 0, b = floor(0.6 * 4) = 2
        // -> cell 8.
        var r = tracker.record(camera: camera(eye: SIMD3(4, 0.6, -1.75), dir: SIMD3(-1, 0, 0)), intrinsics: nil)
        #expect(r.status == .counted && r.face == back && r.cell == 8)
        #expect(close(r.distance, 2.7, 1e-5), "\(r.distance)")

        // A camera at world centre + (0, 0.2, -3) = (1, 0.7, -5) looking along world +z: local (3, 0.2, 0) looking
        // along local -x -> the right face (local x = 0.4) at t = 3 - 0.4 = 2.6 (unturned: the front face at 2.7).
        r = tracker.record(camera: camera(eye: SIMD3(1, 0.7, -5), dir: SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .counted && r.face == right)
        #expect(close(r.distance, 2.6, 1e-5), "\(r.distance)")

        // A camera at local (0.1, 0.2, -3) looking along local +z: world centre + (-3, 0.2, -0.1) = (-2, 0.7, -2.1)
        // looking along world +x. Front face at t = 2.7; a = floor((0.125 + 0.5) 4) = floor(2.5) = 2,
        // b = floor(0.7 * 4) = 2 -> cell 10. Its bin is from the world direction (-3, 0.2, -0.1) / 3.0083:
        // y = 0.0665 -> (y + 1) / 2 = 0.533 -> ring 2; azimuth atan2(-0.1, -3) = -178.1 deg = 181.9 deg -> sector
        // floor(6.06) = 6 -> bin 2 * 12 + 6 = 30 (the unturned direction (0.1, 0.2, -3) would be sector 9, bin 33).
        r = tracker.record(camera: camera(eye: SIMD3(-2, 0.7, -2.1), dir: SIMD3(1, 0, 0)), intrinsics: nil)
        #expect(r.status == .counted && r.face == front && r.cell == 10 && r.bin == 30)
        #expect(close(r.distance, 2.7, 1e-5), "\(r.distance)")
        // The same view through the local-frame helper agrees.
        let again = tracker.record(camera: localCamera(box, SIMD3(0.1, 0.2, -3), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(again.face == front && again.cell == 10 && again.bin == 30)
    }

    @Test("a box on a floor: cells and bins of the floor-clamped box")
    func floorClamped() throws {
        // The box reaches y 0 ... 1; on a floor at 0.2 the clamped box spans y 0.2 ... 1.0: centre y 0.6, height 0.8.
        let box = try testBox(floor: 0.2)
        let tracker = try CoverageTracker(box: box, options: options(goal: 1))
        #expect(tracker.bins.hemisphere && tracker.excludesBottom)  // both default to "when the box has a floor"

        // From (1.1, 0.3, -4) along +z: the front face (z = -2.3) at t = 1.7, at local x 0.1, clamped local
        // y = (0.3 - 0.6) / 0.8 = -0.375: a = floor((0.125 + 0.5) 4) = 2, b = floor(0.125 * 4) = 0 -> cell 2
        // (the unclamped box would give b = floor((-0.2 + 0.5) 4) = 1, cell 6). Direction from the clamped centre
        // (1, 0.6, -2): (0.1, -0.3, -2), y < 0 -> ring 0 of the hemisphere; azimuth atan2(-2, 0.1) = 272.9 deg ->
        // sector 9 -> bin 9.
        var r = tracker.record(camera: camera(eye: SIMD3(1.1, 0.3, -4), dir: SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .counted && r.face == front && r.cell == 2 && r.bin == 9)
        #expect(close(r.distance, 1.7, 1e-5), "\(r.distance)")

        // From (1.1, 1.2, -4) along +z the axis passes above the top (y = 1.0): missed, but still binned: direction
        // (0.1, 0.6, -2) / 2.0905, y = 0.287 -> ring floor(1.15) = 1 of the hemisphere; sector 9 -> bin 21.
        r = tracker.record(camera: camera(eye: SIMD3(1.1, 1.2, -4), dir: SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .missed && r.face == nil && r.distance == 0 && r.bin == 21)

        // From (1.1, 0.1, -4) along +z the axis passes below the clamped bottom (0.2), through where the unclamped
        // box would be (y 0 ... 1): missed.
        r = tracker.record(camera: camera(eye: SIMD3(1.1, 0.1, -4), dir: SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .missed && r.face == nil)

        // Straight down from above onto the top (y = 1.0): from y 3, t = 2.0.
        r = tracker.record(camera: localCamera(box, SIMD3(0.1, 2.5, 0.1), SIMD3(0, -1, 0)), intrinsics: nil)
        #expect(r.status == .counted && r.face == top)
        #expect(close(r.distance, 2.0, 1e-5), "\(r.distance)")

        // A floor at or above the top leaves no height.
        #expect(throws: FathomError.self) { _ = try CoverageTracker(box: try testBox(floor: 1.0), options: options()) }
    }

    @Test("exclude_bottom: which faces 'complete' needs, with and without a floor")
    func excludeBottom() throws {
        let floored = try testBox(floor: 0.2)
        // One camera on each side but the bottom, each looking at the box (goal 1): front, left, right, top, back.
        let cameras = [
            localCamera(floored, SIMD3(0, 0.2, -2), SIMD3(0, 0, 1)), localCamera(floored, SIMD3(-2, 0.2, 0), SIMD3(1, 0, 0)),
            localCamera(floored, SIMD3(2, 0.2, 0), SIMD3(-1, 0, 0)), localCamera(floored, SIMD3(0.1, 2, 0.1), SIMD3(0, -1, 0)),
            localCamera(floored, SIMD3(0, 0.2, 2), SIMD3(0, 0, -1)),
        ]
        let faces = [front, left, right, top, back]

        // On a floor, by default the bottom is not needed: 5 faces, all complete -> complete.
        var tracker = try CoverageTracker(box: floored, options: options(goal: 1))
        #expect(!tracker.face(bottom).needed && tracker.face(top).needed)
        for (cam, face) in zip(cameras, faces) {
            let r = tracker.record(camera: cam, intrinsics: nil)
            #expect(r.status == .counted && r.face == face && r.completedFace == face)
        }
        var s = tracker.summary
        #expect(s.facesNeeded == 5 && s.facesComplete == 5 && s.complete)

        // On a floor with exclude_bottom off: 6 needed, 5 complete -> not complete; the bottom is needed, count 0.
        var o = options(goal: 1)
        o.excludeBottom = false
        tracker = try CoverageTracker(box: floored, options: o)
        for cam in cameras { _ = tracker.record(camera: cam, intrinsics: nil) }
        s = tracker.summary
        #expect(s.facesNeeded == 6 && s.facesComplete == 5 && !s.complete)
        #expect(tracker.face(bottom).needed && tracker.face(bottom).count == 0 && !tracker.face(bottom).complete)

        // No floor: by default all 6 are needed; exclude_bottom on: 5, and the five views complete it.
        let free = try testBox()
        tracker = try CoverageTracker(box: free, options: options(goal: 1))
        #expect(tracker.summary.facesNeeded == 6 && !tracker.excludesBottom && !tracker.bins.hemisphere)
        o = options(goal: 1)
        o.excludeBottom = true
        tracker = try CoverageTracker(box: free, options: o)
        #expect(tracker.summary.facesNeeded == 5 && !tracker.summary.complete)
        for cam in cameras { _ = tracker.record(camera: cam, intrinsics: nil) }
        s = tracker.summary
        #expect(s.facesNeeded == 5 && s.facesComplete == 5 && s.complete)
    }

    @Test("missed: an axis pointing away, a camera inside the box, an axis passing above it")
    func missed() throws {
        let box = try testBox()
        let tracker = try CoverageTracker(box: box, options: options())
        // From local (0, 0, -2) looking along -z: away from the box.
        var r = tracker.record(camera: localCamera(box, SIMD3(0, 0, -2), SIMD3(0, 0, -1)), intrinsics: nil)
        #expect(r.status == .missed && r.face == nil && r.distance == 0 && r.completedFace == nil)
        // From local (0.1, 0.1, 0.1): inside (|x| < 0.4, |y| < 0.5, |z| < 0.3).
        r = tracker.record(camera: localCamera(box, SIMD3(0.1, 0.1, 0.1), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .missed && r.face == nil)
        // From local (0, 0.6, -2) along +z: y = 0.6 stays above the top (0.5).
        r = tracker.record(camera: localCamera(box, SIMD3(0, 0.6, -2), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .missed)
        #expect(tracker.views == 3 && tracker.counted == 0 && tracker.faceCounts == [0, 0, 0, 0, 0, 0])
    }

    @Test("too close / too far: [min_distance, max_distance] = [1, 2]")
    func distanceRange() throws {
        let box = try testBox()
        var o = options()
        o.minDistance = 1
        o.maxDistance = 2
        let tracker = try CoverageTracker(box: box, options: o)
        // From local (0.1, 0.1, z) along +z the front face (z = -0.3) is at t = -0.3 - z: 2.7 (too far), 0.5 (too
        // close), 1.5 (counted). The face and cell are reported also when not counted: a = floor(0.625 * 4) = 2,
        // b = floor(0.6 * 4) = 2 -> cell 10.
        var r = tracker.record(camera: localCamera(box, SIMD3(0.1, 0.1, -3), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .tooFar && r.face == front && r.cell == 10)
        #expect(close(r.distance, 2.7, 1e-5), "\(r.distance)")
        r = tracker.record(camera: localCamera(box, SIMD3(0.1, 0.1, -0.8), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .tooClose && r.face == front)
        #expect(close(r.distance, 0.5, 1e-5), "\(r.distance)")
        r = tracker.record(camera: localCamera(box, SIMD3(0.1, 0.1, -1.8), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(r.status == .counted && r.face == front)
        #expect(close(r.distance, 1.5, 1e-5), "\(r.distance)")
        #expect(tracker.views == 3 && tracker.counted == 1 && tracker.face(front).count == 1)
        #expect(tracker.cellCounts(face: front).reduce(0, +) == 1)
    }

    @Test("out of frame: the fraction of the 8 corners inside the image, with intrinsics only")
    func outOfFrame() throws {
        let box = try testBox()
        // fx = fy = 500, 640 x 480, principal point at the centre; u = 320 + 500 x / depth, v = 240 - 500 y / depth.
        let k = try Intrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
        let far = localCamera(box, SIMD3(0, 0, -3), SIMD3(0, 0, 1)), near = localCamera(box, SIMD3(0, 0, -0.8), SIMD3(0, 0, 1))
        var o = options()
        o.minInView = 0.5
        var tracker = try CoverageTracker(box: box, options: o)
        // From local (0, 0, -3): the front corners (x +-0.4, y +-0.5) at depth 2.7 project to u = 320 +- 74.1,
        // v = 240 -+ 92.6, the back ones at depth 3.3 nearer the centre: 8 / 8 inside -> counted.
        #expect(tracker.record(camera: far, intrinsics: k).status == .counted)
        // From local (0, 0, -0.8): the front corners at depth 0.5 -> u = 320 +- 400 (outside 0 ... 640); the back ones
        // at depth 1.1 -> u = 320 +- 181.8, v = 240 -+ 227.3 (inside): 4 / 8 = 0.5, not below 0.5 -> counted.
        #expect(tracker.record(camera: near, intrinsics: k).status == .counted)

        o.minInView = 0.6
        tracker = try CoverageTracker(box: box, options: o)
        // 0.5 < 0.6: out of frame, with the face and distance (0.5) still reported.
        let r = tracker.record(camera: near, intrinsics: k)
        #expect(r.status == .outOfFrame && r.face == front)
        #expect(close(r.distance, 0.5, 1e-5), "\(r.distance)")
        // Without intrinsics min_in_view is not checked.
        #expect(tracker.record(camera: near, intrinsics: nil).status == .counted)
        // A narrow lens (fx = fy = 5000): from local (0, 0, -3) every corner is at least 5000 * 0.4 / 3.3 = 606 px
        // off the centre horizontally (> 320): 0 / 8 -> out of frame.
        let narrow = try Intrinsics(fx: 5000, fy: 5000, cx: 320, cy: 240, width: 640, height: 480)
        #expect(tracker.record(camera: far, intrinsics: narrow).status == .outOfFrame)
        #expect(tracker.views == 3 && tracker.counted == 1)
    }

    @Test("too similar: within min_separation_angle of direction and min_separation_distance of a counted view")
    func tooSimilar() throws {
        let box = try testBox()
        let o = options(separationAngle: 5 * .pi / 180)  // and the default 0.1 m
        #expect(o.minSeparationDistance == 0.1)
        let tracker = try CoverageTracker(box: box, options: o)
        func at(_ x: Double, _ z: Double) -> ViewStatus {
            tracker.record(camera: localCamera(box, SIMD3(x, 0, z), SIMD3(0, 0, 1)), intrinsics: nil).status
        }
        // Directions are from the box centre to the camera. From local (0, 0, -3): counted.
        #expect(at(0, -3) == .counted)
        // The same pose again: 0 m and 0 degrees -> too similar (reported on its face).
        let again = tracker.record(camera: localCamera(box, SIMD3(0, 0, -3), SIMD3(0, 0, 1)), intrinsics: nil)
        #expect(again.status == .tooSimilar && again.face == front)
        // 0.05 m to the side: 0.05 m < 0.1 and atan(0.05 / 3) = 0.95 deg < 5 -> too similar (not remembered).
        #expect(at(0.05, -3) == .tooSimilar)
        // 0.2 m to the side: only atan(0.2 / 3) = 3.8 deg apart but 0.2 m > 0.1 -> counted.
        #expect(at(0.2, -3) == .counted)
        // Near the box, from local (0, 0, -0.6): 2.4 m from the others -> counted; 0.08 m to the side is within 0.1 m
        // but atan(0.08 / 0.6) = 7.59 deg > 5 apart -> counted; 0.01 m further, atan(0.09 / 0.6) = 8.53 deg: 0.94 deg
        // and 0.01 m from the last -> too similar.
        #expect(at(0, -0.6) == .counted)
        #expect(at(0.08, -0.6) == .counted)
        #expect(at(0.09, -0.6) == .tooSimilar)
        // Turning the camera does not matter: from local (0, 0, -3) = world (1, 0.5, -5), looking along (0.05, 0.02, 1).
        let turned = camera(eye: SIMD3(1, 0.5, -5), dir: SIMD3(0.05, 0.02, 1))
        #expect(tracker.record(camera: turned, intrinsics: nil).status == .tooSimilar)
        #expect(tracker.views == 8 && tracker.counted == 4)
        // A reset forgets the remembered views.
        tracker.reset()
        #expect(at(0, -3) == .counted)
        // Either threshold 0 turns the rule off: the same pose twice counts twice.
        for (angle, distance): (Float, Float) in [(0, 0.1), (5 * .pi / 180, 0)] {
            var off = options(separationAngle: angle)
            off.minSeparationDistance = distance
            let t = try CoverageTracker(box: box, options: off)
            let cam = localCamera(box, SIMD3(0, 0, -3), SIMD3(0, 0, 1))
            #expect(t.record(camera: cam, intrinsics: nil).status == .counted)
            #expect(t.record(camera: cam, intrinsics: nil).status == .counted)
        }
    }
}
