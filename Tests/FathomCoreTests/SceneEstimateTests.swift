// Scene estimates in the core: a room (floor y = 0, ceiling y = 2.5, four walls), a 0.75 m table and an object on
// it, rendered here by casting each depth sample's ray at the boxes, fed to a CaptureBuilder. The truth is the
// room's own numbers: floor, ceiling, table top and the object's box.
import FathomCore
import Glibc
import Testing

/// An axis-aligned box: the room (the camera is inside it) or a solid thing.
private struct Block {
    var low: SIMD3<Float>, high: SIMD3<Float>

    /// Where a ray from `o` along `d` leaves the box (inside) or enters it (a solid), nil when it misses.
    func hit(_ o: SIMD3<Float>, _ d: SIMD3<Float>, inside: Bool) -> Float? {
        var tNear = -Float.infinity, tFar = Float.infinity
        for k in 0..<3 {
            guard d[k] != 0 else {
                if o[k] < low[k] || o[k] > high[k] { return nil }
                continue
            }
            let a = (low[k] - o[k]) / d[k], b = (high[k] - o[k]) / d[k]
            tNear = max(tNear, min(a, b))
            tFar = min(tFar, max(a, b))
        }
        guard tNear <= tFar else { return nil }
        if inside { return tFar > 0 ? tFar : nil }
        return tNear > 0 ? tNear : nil
    }
}

private let room = Block(low: SIMD3(-2.5, 0, -2), high: SIMD3(2.5, 2.5, 2))
private let table = Block(low: SIMD3(-0.6, 0.72, -0.4), high: SIMD3(0.6, 0.75, 0.4))
private let object = Block(low: SIMD3(-0.1, 0.75, -0.08), high: SIMD3(0.1, 0.95, 0.08))
private let rgb = try! Intrinsics(fx: 1600, fy: 1600, cx: 960, cy: 720, width: 1920, height: 1440)
private let depthSize = (width: 128, height: 96)

private func unit(_ v: SIMD3<Float>) -> SIMD3<Float> { v / length(v) }

/// Camera-to-world looking from `eye` at `target` (ARKit axes: +y up, looking along -z).
private func lookAt(_ eye: SIMD3<Float>, _ target: SIMD3<Float>) -> Pose {
    let back = unit(eye - target)
    let right = unit(cross(SIMD3(0, 1, 0), back))
    return Pose(rotation: Matrix3(right, cross(back, right), back), translation: eye)
}

/// The z-depth of every sample (centres at i + 0.5, j + 0.5) of the room seen from `pose`.
private func render(_ pose: Pose, things: [Block]) -> [Float] {
    let k = try! rgb.scaled(width: depthSize.width, height: depthSize.height)
    var depth = [Float](repeating: 0, count: depthSize.width * depthSize.height)
    for j in 0..<depthSize.height {
        for i in 0..<depthSize.width {
            // A camera direction with z = -1: the ray parameter is the z-depth.
            let camera = SIMD3((Float(i) + 0.5 - k.cx) / k.fx, -(Float(j) + 0.5 - k.cy) / k.fy, -1)
            let d = pose.apply(direction: camera)
            var t = room.hit(pose.translation, d, inside: true) ?? 0
            for thing in things { if let s = thing.hit(pose.translation, d, inside: false), s < t { t = s } }
            depth[j * depthSize.width + i] = t
        }
    }
    return depth
}

/// The report of a capture of `poses` (60 frames a second).
private func report(_ poses: [Pose], things: [Block] = [table, object]) throws -> ScanReport {
    let builder = try CaptureBuilder()
    for (i, pose) in poses.enumerated() {
        let depth = render(pose, things: things)
        try depth.withUnsafeBytes { raw in
            let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: depthSize.width, height: depthSize.height,
                                       rgb: rgb, pose: pose)
            try builder.add(timestamp: Int64(i) * 16_666_667, pose: pose, rgb: rgb, depth: frame)
        }
    }
    return try builder.report()
}

/// Circling the object on the table: 300 degrees at 0.7 m, 0.45 m above the table top.
private func orbit(_ n: Int = 90) -> [Pose] {
    (0..<n).map { i in
        let a = Float(i) / Float(n) * 300 * .pi / 180
        return lookAt(SIMD3(0.7 * cos(a), 1.2, 0.7 * sin(a)), SIMD3(0, 0.85, 0))
    }
}

/// Walking along the room at chest height, looking sideways at a wall (pitched by `pitch` radians).
private func walk(pitch: Float, _ n: Int = 60) -> [Pose] {
    (0..<n).map { i in
        let eye = SIMD3<Float>(-2 + 4 * Float(i) / Float(n), 1.5, 1.5)
        return lookAt(eye, eye + SIMD3(0, sin(pitch), -cos(pitch)))
    }
}

@Suite struct SceneEstimateTests {
    @Test func objectOnATableStandsOnTheTableNotTheFloor() throws {
        let r = try report(orbit())
        let floor = try #require(r.floor), support = try #require(r.support)
        #expect(abs(floor.height) < 0.005 && floor.normal.y > 0.999 && floor.facesUp)
        #expect(abs(support.height - 0.75) < 0.005)
        #expect(r.objectCapture && r.objectReason == nil)
        let orbit = try #require(r.orbit)
        #expect(orbit.views >= 80 && orbit.span > 4.5 && abs(orbit.radius - 0.7) < 0.05)
        let box = try #require(r.box)
        #expect(r.boxSource == .fitted)
        // The object's corners, matched to the box's (its corner order and quarter turns are its own).
        let truth = [object.low, object.high]
        for corner in box.corners {
            let nearest = (0..<8).map { m in
                length(corner - SIMD3(truth[m & 1].x, truth[(m >> 1) & 1].y, truth[(m >> 2) & 1].z))
            }.min()!
            #expect(nearest < 0.015, "corner \(corner)")
        }
    }

    @Test func aWalkThroughHasFloorAndCeilingAndNoObject() throws {
        let r = try report(walk(pitch: -0.1))
        let floor = try #require(r.floor), ceiling = try #require(r.ceiling)
        #expect(abs(floor.height) < 0.01 && floor.facesUp)
        #expect(abs(ceiling.height - 2.5) < 0.01 && !ceiling.facesUp && ceiling.normal.y < -0.999)
        #expect(abs((r.roomHeight ?? 0) - 2.5) < 0.02)
        #expect(r.box == nil && !r.objectCapture && r.support == nil)
        #expect(r.objectReason?.contains("do not circle a point") == true)
        #expect(r.warnings.contains { $0.hasPrefix("no object:") })
    }

    @Test func aCeilingSeenAloneIsNeverTheFloor() throws {
        // Looking up: the ceiling and the walls' upper parts, no floor in view.
        let r = try report(walk(pitch: 0.7), things: [])
        #expect(r.floor == nil)
        let ceiling = try #require(r.ceiling)
        #expect(abs(ceiling.height - 2.5) < 0.01)
        #expect(r.warnings.contains { $0.hasPrefix("no floor found") })
    }

    @Test func aFewFramesThatDoNotCircleGiveNoObject() throws {
        // Five nearly parallel views of the table (as a short handheld clip): no object, and the reason.
        let poses = (0..<5).map { i in lookAt(SIMD3(Float(i) * 0.02, 1.3, 1.2), SIMD3(Float(i) * 0.02, 0.8, 0)) }
        let r = try report(poses)
        #expect(r.box == nil && !r.objectCapture)
        #expect(r.objectReason?.contains("do not circle") == true)
    }
}

@Suite struct PoseConventionTests {
    @Test func arkitAndOpenCVDifferByTheCameraYAndZ() throws {
        let q = try! Quaternion(axis: SIMD3(0, 1, 0), angle: .pi / 2)
        let arkit = Pose(rotation: q.matrix, translation: SIMD3(1, 2, 3))
        let opencv = try arkit.converted(from: .arkit, to: .opencv)
        #expect(opencv.rotation.c0 == arkit.rotation.c0 && opencv.rotation.c1 == -arkit.rotation.c1 && opencv.rotation.c2 == -arkit.rotation.c2)
        #expect(opencv.translation == arkit.translation)
        // World-to-camera: maps the camera centre to the origin and the optical axis (-z in ARKit) to +z.
        let w2c = try arkit.converted(from: .arkit, to: .opencvWorldToCamera)
        #expect(close(w2c.apply(point: SIMD3(1, 2, 3)), .zero, 1e-6))
        #expect(close(w2c.apply(direction: arkit.apply(direction: SIMD3(0, 0, -1))), SIMD3(0, 0, 1), 1e-6))
        for from in PoseConvention.allCases {
            for to in PoseConvention.allCases {
                let back = try arkit.converted(from: .arkit, to: from).converted(from: from, to: to).converted(from: to, to: .arkit)
                #expect(close(back.rotation, arkit.rotation, 1e-6) && close(back.translation, arkit.translation, 1e-5))
            }
        }
        // Near the float limit: 45 degrees about z at (a, a, 0) has -R^T t = (-sqrt(2) a, 0, 0): found for
        // a = 2.4e38 (3.394e38 fits a float), refused for a = 2.5e38 (3.536e38 does not).
        let turn = try Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 4).matrix
        let inverse = try Pose(rotation: turn, translation: SIMD3(2.4e38, 2.4e38, 0)).exactInverse()
        #expect(abs(inverse.translation.x / -3.3941125e38 - 1) < 1e-6 && abs(inverse.translation.y) < 1e32)
        expectError(.notFinite) { () throws(FathomError) in _ = try Pose(rotation: turn, translation: SIMD3(2.5e38, 2.5e38, 0)).exactInverse() }
    }
}
