// Capture reports (Scan/): CaptureBuilder, CaptureOptions, the scene estimate and the report's JSON, tested
// through the public API only (the voxel grid is internal: its means are read through CaptureBuilder.cloud()).
//
// Every expected value is computed here: voxel means by hand (explicit points) or in Double from the depth
// frames' back-projection formula; the scene tests render z-depth of a synthetic scene (a floor square at
// y = 0 and an upright box with a known yaw, seen from cameras on a circle looking at the box) with a ray /
// plane / slab intersection written in this file, and compare the fitted box, floor and focus with the scene
// that was rendered.
import FathomCore
import FoundationEssentials
import Glibc
import Testing

private typealias D3 = SIMD3<Double>

// MARK: - Depth frames made by the test

/// A float32 depth map (meters, rows top to bottom, 0 = no sample) and the intrinsics of its own grid (the
/// "RGB" intrinsics are the grid's, so no scaling happens).
private struct DepthImage {
    var width: Int, height: Int
    var fx: Double, fy: Double, cx: Double, cy: Double
    var depth: [Float]

    init(width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double, depth: [Float]? = nil) {
        (self.width, self.height, self.fx, self.fy, self.cx, self.cy) = (width, height, fx, fy, cx, cy)
        self.depth = depth ?? [Float](repeating: 0, count: width * height)
    }

    /// A 1x1 frame whose one sample back-projects to the camera position - (0, 0, d) (identity rotation).
    static func single(_ d: Float) -> DepthImage { DepthImage(width: 1, height: 1, fx: 1, fy: 1, cx: 0.5, cy: 0.5, depth: [d]) }

    func intrinsics() throws -> Intrinsics {
        try Intrinsics(fx: Float(fx), fy: Float(fy), cx: Float(cx), cy: Float(cy), width: width, height: height)
    }

    /// The camera-frame direction of sample (i, j) scaled to z-depth 1: ((i + 0.5 - cx) / fx, -(j + 0.5 - cy) / fy, -1).
    func ray(_ i: Int, _ j: Int) -> D3 { D3((Double(i) + 0.5 - cx) / fx, -(Double(j) + 0.5 - cy) / fy, -1) }

    /// The world point of sample (i, j) at its depth seen from `pose`, in Double (the header's formula).
    func worldPoint(_ i: Int, _ j: Int, pose: Pose) -> D3 {
        let r = pose.rotation, d = Double(depth[j * width + i]), v = ray(i, j)
        return D3(pose.translation) + d * (v.x * D3(r.c0) + v.y * D3(r.c1) + v.z * D3(r.c2))
    }
}

/// Adds a frame (with its depth, if any) to `builder`.
@discardableResult
private func add(_ builder: CaptureBuilder, _ timestamp: Int64, _ pose: Pose, _ image: DepthImage?) throws -> MotionState {
    guard let image else {
        let k = try Intrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
        return try builder.add(timestamp: timestamp, pose: pose, rgb: k, depth: nil)
    }
    let k = try image.intrinsics()
    return try image.depth.withUnsafeBytes { raw in
        let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: image.width, height: image.height, rgb: k, pose: pose)
        return try builder.add(timestamp: timestamp, pose: pose, rgb: k, depth: frame)
    }
}

private func translation(_ x: Float, _ y: Float, _ z: Float) -> Pose { Pose(rotation: Matrix3.identity, translation: SIMD3(x, y, z)) }

/// The voxel (integer coordinates) of a point, in Double.
private func voxelOf(_ p: D3, _ size: Double) -> SIMD3<Int> {
    SIMD3(Int((p.x / size).rounded(.down)), Int((p.y / size).rounded(.down)), Int((p.z / size).rounded(.down)))
}

/// How far (meters) the point is from the nearest voxel boundary plane.
private func boundaryMargin(_ p: D3, _ size: Double) -> Double {
    var m = Double.infinity
    for c in [p.x, p.y, p.z] {
        let f = c / size - (c / size).rounded(.down)
        m = Swift.min(m, Swift.min(f, 1 - f) * size)
    }
    return m
}

/// Voxel means of `points` (Double), in the order voxels are first met.
private func voxelMeans(_ points: [D3], _ size: Double) -> [(voxel: SIMD3<Int>, mean: D3, count: Int)] {
    var order: [SIMD3<Int>] = [], sums: [SIMD3<Int>: (D3, Int)] = [:]
    for p in points {
        let v = voxelOf(p, size)
        if let (s, n) = sums[v] { sums[v] = (s + p, n + 1) } else { sums[v] = (p, 1); order.append(v) }
    }
    return order.map { v in let (s, n) = sums[v]!; return (v, s / Double(n), n) }
}

// MARK: - The synthetic scene

/// An upright box: centre, full extents and yaw (R_y(yaw) * local = world, as box.md writes it).
private struct SceneBox {
    var center: D3, scale: D3, yaw: Double

    /// The ray parameter of the first hit of o + s d (s > 0) with the box's surface: slabs in the box's frame.
    func hit(_ o: D3, _ d: D3) -> Double? {
        let c = cos(yaw), s = sin(yaw)
        func local(_ v: D3) -> D3 { D3(c * v.x - s * v.z, v.y, s * v.x + c * v.z) }  // R_y(yaw)^T v
        let ol = local(o - center), dl = local(d), half = scale / 2
        var near = -Double.infinity, far = Double.infinity
        for k in 0..<3 {
            if abs(dl[k]) < 1e-15 {
                if abs(ol[k]) > half[k] { return nil }
                continue
            }
            let t1 = (-half[k] - ol[k]) / dl[k], t2 = (half[k] - ol[k]) / dl[k]
            near = Swift.max(near, Swift.min(t1, t2))
            far = Swift.min(far, Swift.max(t1, t2))
        }
        guard near <= far, near > 0 else { return nil }
        return near
    }
}

/// A floor square |x|, |z| <= floorHalf at y = 0 (none if nil) and optionally a box standing on it.
private struct Scene {
    var floorHalf: Double? = 1.6
    var box: SceneBox?

    /// The nearest hit of o + s d, s > 0.
    func hit(_ o: D3, _ d: D3) -> Double? {
        var best: Double?
        if let floorHalf, d.y < 0 {
            let s = -o.y / d.y, p = o + s * d
            if s > 0, abs(p.x) <= floorHalf, abs(p.z) <= floorHalf { best = s }
        }
        if let s = box?.hit(o, d), s < (best ?? .infinity) { best = s }
        return best
    }

    /// The z-depth image seen from `pose` (camera looking along its -z): the camera-frame ray of each sample has
    /// z = -1, so the ray parameter of the hit is the z-depth.
    func render(_ pose: Pose, like image: DepthImage) -> DepthImage {
        var out = image
        let o = D3(pose.translation), r = pose.rotation
        for j in 0..<image.height {
            for i in 0..<image.width {
                let v = image.ray(i, j)
                let d = v.x * D3(r.c0) + v.y * D3(r.c1) + v.z * D3(r.c2)
                out.depth[j * image.width + i] = hit(o, d).map { Float($0) } ?? 0
            }
        }
        return out
    }
}

/// The pose of a camera at `eye` looking at `target` with world +y up (x right, y up, z back).
private func looking(from eye: D3, at target: D3) -> Pose {
    let f = (target - eye) / length(target - eye)
    let right = cross(f, D3(0, 1, 0)) / length(cross(f, D3(0, 1, 0)))
    let up = cross(right, f)
    return Pose(rotation: Matrix3(SIMD3<Float>(right), SIMD3<Float>(up), SIMD3<Float>(-f)), translation: SIMD3<Float>(eye))
}

/// `count` cameras on a horizontal circle of `radius` about `target`, `height` above it, looking at it.
private func circle(around target: D3, radius: Double, height: Double, count: Int) -> [Pose] {
    (0..<count).map { n in
        let a = 2 * Double.pi * Double(n) / Double(count)
        return looking(from: target + D3(radius * cos(a), height, radius * sin(a)), at: target)
    }
}

private let sceneBox = SceneBox(center: D3(0.12, 0.15, -0.08), scale: D3(0.40, 0.30, 0.24), yaw: 0.45)
private let sceneCamera = DepthImage(width: 160, height: 120, fx: 130, fy: 130, cx: 80, cy: 60)
private let frameStep: Int64 = 250_000_000  // 0.25 s
private let firstTimestamp: Int64 = 5_000_000_000

/// A builder fed the scene rendered from `cameras`.
private func capture(_ scene: Scene, cameras: [Pose], options: CaptureOptions = CaptureOptions(), box: Box? = nil) throws -> CaptureBuilder {
    let builder = try CaptureBuilder(options: options, box: box)
    for (n, pose) in cameras.enumerated() {
        try add(builder, firstTimestamp + Int64(n) * frameStep, pose, scene.render(pose, like: sceneCamera))
    }
    return builder
}

/// The scene with the box, seen from 24 cameras 0.9 m out and 0.6 m above its centre.
private func boxCapture(options: CaptureOptions = CaptureOptions(), box: Box? = nil, cameras count: Int = 24) throws -> CaptureBuilder {
    try capture(Scene(box: sceneBox), cameras: circle(around: sceneBox.center, radius: 0.9, height: 0.6, count: count),
                options: options, box: box)
}

/// Differences between a fitted box and `truth`: yaw modulo 90 degrees (the x and z extents swap with an odd
/// quarter turn), the centre, the extents (y from the floor to the top).
private func boxErrors(_ box: Box, _ truth: SceneBox) -> (angle: Double, center: Double, extents: Double) {
    let quarter = Double.pi / 2
    let delta = Double(box.rotY) - truth.yaw
    let turns = (delta / quarter).rounded()
    let angle = abs(delta - turns * quarter)
    var expected = truth.scale
    if Int(turns) % 2 != 0 { expected = D3(truth.scale.z, truth.scale.y, truth.scale.x) }
    let c = D3(box.center) - truth.center, s = D3(box.scale) - expected
    return (angle, Swift.max(abs(c.x), abs(c.y), abs(c.z)), Swift.max(abs(s.x), abs(s.y), abs(s.z)))
}

/// The report's object cloud is the fused cloud's points inside `box`: every object point is inside (or within
/// 0.1 mm of a face), and the count lies between the cloud points clearly inside and those not clearly outside.
private func expectObject(_ report: ScanReport, _ box: Box, sourceLocation: SourceLocation = #_sourceLocation) throws {
    // The object is the cloud inside the box grown by one voxel (1 cm) on every side.
    let obb = try Box(center: box.center, scale: box.scale + 0.02, rotY: box.rotY).orientedBox()
    let verdicts = (0..<report.cloud.count).map { referenceInside(obb, report.cloud[$0], margin: 1e-4) }
    let strictly = verdicts.filter { $0 == true }.count, loosely = verdicts.filter { $0 != false }.count
    #expect(strictly <= report.object.count && report.object.count <= loosely,
            "object \(report.object.count) points, \(strictly) clearly inside, \(loosely) not clearly outside", sourceLocation: sourceLocation)
    #expect((0..<report.object.count).allSatisfy { referenceInside(obb, report.object[$0], margin: 1e-4) != false },
            "an object point lies outside the box", sourceLocation: sourceLocation)
}

// MARK: - JSON as read back

private struct JReport: Decodable {
    struct JBox: Decodable { var center: [Double]; var scale: [Double]; var rotY: Double; var floor: Double?; var corners: [[Double]] }
    struct JFloor: Decodable { var height: Double; var normal: [Double]; var inliers: Int; var rms: Double }
    struct JTrajectory: Decodable {
        var duration: Double, pathLength: Double, speedP10: Double, speedP50: Double, speedP90: Double, speedMax: Double
        var timeTooSlow: Double, timeTooFast: Double, angularSpeedMax: Double, steps: Int
    }
    struct JSpeed: Decodable { var time: [Double]; var speed: [Double]; var angularSpeed: [Double]; var guidance: [String] }
    struct JFace: Decodable { var name: String; var count: Int; var progress: Double; var color: [Double]; var opacity: Double; var complete: Bool; var needed: Bool }
    struct JNextView: Decodable { var direction: [Double]; var position: [Double] }
    struct JCoverage: Decodable {
        var faces: [JFace]; var views: Int; var counted: Int; var facesComplete: Int; var facesNeeded: Int; var complete: Bool
        var angularScore: Double; var bins: [Int]; var nextView: JNextView?
    }
    var scanId: String?
    var frames: Int, fusedFrames: Int, duration: Double
    var box: JBox?
    var boxSource: String
    var floor: JFloor?
    var focus: [Double]?
    var cloudPoints: Int, objectPoints: Int
    var trajectory: JTrajectory?
    var speed: JSpeed
    var cameraPositions: [[Double]]
    var coverage: JCoverage?
    var captures: [Int], selectedFrames: [Int], warnings: [String]
}

/// The JSON numbers (read as Double) are the Float values exactly (the writer prints the shortest text that reads
/// back as the same Float).
private func same(_ json: [Double], _ v: SIMD3<Float>) -> Bool { json.count == 3 && json.map { Float($0) } == [v.x, v.y, v.z] }
private func same(_ json: Double, _ v: Float) -> Bool { Float(json) == v }

private func decode(_ report: ScanReport) throws -> JReport {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(JReport.self, from: Data(report.json().utf8))
}

// MARK: - Tests

@Suite("Capture reports")
struct CaptureTests {
    // MARK: Voxel means (the fused cloud)

    @Test("voxel means of hand-placed points, in the order voxels are first met")
    func voxelMeansByHand() throws {
        // One point per 1x1 frame: the sample back-projects to camera - (0, 0, 1). Fusing every frame needs only a
        // tiny fuse distance (consecutive cameras differ by at least 1 cm).
        var options = CaptureOptions()
        options.voxel = 0.1
        options.fuseDistance = 1e-4
        let builder = try CaptureBuilder(options: options)
        let points: [SIMD3<Float>] = [
            SIMD3(0.01, 0.02, 0.03), SIMD3(-0.05, 0.05, 0.05), SIMD3(0.05, 0.06, 0.07), SIMD3(0.25, -0.05, 0.35),
            SIMD3(0.09, 0.01, 0.02), SIMD3(-0.03, 0.01, 0.09), SIMD3(0.23, -0.07, 0.31), SIMD3(0.27, -0.03, 0.33),
        ]
        for (n, p) in points.enumerated() {
            try add(builder, Int64(n) * 100_000_000, translation(p.x, p.y, p.z + 1), .single(1))
        }
        #expect(builder.fusedFrames == Array(0..<points.count))
        // voxel (0, 0, 0): (0.01, 0.02, 0.03), (0.05, 0.06, 0.07), (0.09, 0.01, 0.02) -> (0.05, 0.03, 0.04)
        // voxel (-1, 0, 0): (-0.05, 0.05, 0.05), (-0.03, 0.01, 0.09) -> (-0.04, 0.03, 0.07)
        // voxel (2, -1, 3): (0.25, -0.05, 0.35), (0.23, -0.07, 0.31), (0.27, -0.03, 0.33) -> (0.25, -0.05, 0.33)
        let expected: [SIMD3<Float>] = [SIMD3(0.05, 0.03, 0.04), SIMD3(-0.04, 0.03, 0.07), SIMD3(0.25, -0.05, 0.33)]
        let cloud = builder.cloud()
        #expect(builder.cloudCount == 3)
        try #require(cloud.count == 3)
        for (i, e) in expected.enumerated() {
            #expect(close(cloud[i], e, 2e-6), "voxel \(i): got \(cloud[i]), expected \(e)")
        }
        #expect(cloud.normals == nil && cloud.colors == nil && cloud.confidence == nil)
    }

    @Test("voxel means of multi-sample frames, accumulated across frames (Double reference)")
    func voxelMeansOfFrames() throws {
        var options = CaptureOptions()
        options.voxel = 0.1
        let builder = try CaptureBuilder(options: options)
        var image = DepthImage(width: 6, height: 4, fx: 20, fy: 20, cx: 3, cy: 2)
        for j in 0..<4 { for i in 0..<6 { image.depth[j * 6 + i] = Float(1 + 0.013 * Double(i) + 0.007 * Double(j)) } }
        let a = 0.3 as Float
        let poses = [translation(0.036, 0.046, 0.083),
                     translation(0.106, 0.046, 0.083),  // 7 cm on: fused, voxels shared with the first frame
                     Pose(rotation: Matrix3(SIMD3(cos(a), 0, -sin(a)), SIMD3(0, 1, 0), SIMD3(sin(a), 0, cos(a))),
                          translation: SIMD3(0.051, 0.117, 0.023))]
        var expectedPoints: [D3] = []
        for (n, pose) in poses.enumerated() {
            try add(builder, Int64(n) * 100_000_000, pose, image)
            for j in 0..<4 { for i in 0..<6 { expectedPoints.append(image.worldPoint(i, j, pose: pose)) } }
        }
        #expect(builder.fusedFrames == [0, 1, 2])
        let margin = expectedPoints.map { boundaryMargin($0, 0.1) }.min()!
        try #require(margin > 1e-3, "the test's points must stay clear of voxel boundaries (margin \(margin))")
        let expected = voxelMeans(expectedPoints, 0.1)
        #expect(expected.contains { $0.count > 1 }, "some voxel must hold several points")
        let cloud = builder.cloud()
        try #require(cloud.count == expected.count)
        for (i, e) in expected.enumerated() {
            #expect(close(cloud[i], e.mean, 2e-6), "voxel \(e.voxel) (\(e.count) points): got \(cloud[i]), expected \(e.mean)")
        }
    }

    @Test("voxel means stay precise 1e4 m from the origin")
    func voxelMeansFarAway() throws {
        // Four frames of 60 x 60 samples, each filling one 4 cm voxel about 10 km out on every axis. A Float sum of
        // 3600 coordinates near 1e4 would be off by decimetres; sums about the voxel corner stay within about 1.5
        // Float ulps of 1e4 (~1e-3 m: each point's own rounding plus the mean's).
        var options = CaptureOptions()
        options.voxel = 0.04
        let builder = try CaptureBuilder(options: options)
        var image = DepthImage(width: 60, height: 60, fx: 3000, fy: 3000, cx: 30, cy: 30)
        for j in 0..<60 { for i in 0..<60 { image.depth[j * 60 + i] = Float(1 + 0.004 * sin(Double(i * 7 + j * 3))) } }
        let base = SIMD3<Float>(10000.26, 10000.5, -10000.5)
        var expectedPoints: [D3] = []
        for n in 0..<4 {
            let pose = Pose(rotation: Matrix3.identity, translation: base + SIMD3(0.2 * Float(n % 2), -0.2 * Float(n / 2), 0))
            try add(builder, Int64(n) * 100_000_000, pose, image)
            for j in 0..<60 { for i in 0..<60 { expectedPoints.append(image.worldPoint(i, j, pose: pose)) } }
        }
        let margin = expectedPoints.map { boundaryMargin($0, 0.04) }.min()!
        try #require(margin > 0.004, "the test's points must stay clear of voxel boundaries (margin \(margin))")
        let expected = voxelMeans(expectedPoints, 0.04)
        try #require(expected.count == 4 && expected.allSatisfy { $0.count == 3600 })
        let cloud = builder.cloud()
        try #require(cloud.count == 4)
        for (i, e) in expected.enumerated() {
            #expect(close(cloud[i], e.mean, 1.5e-3), "voxel \(e.voxel): got \(cloud[i]), expected \(e.mean)")
        }
    }

    @Test("non-finite points and points beyond 2^20 voxels are dropped")
    func droppedPoints() throws {
        var options = CaptureOptions()
        options.voxel = 0.01  // limit 2^20 voxels = 10485.76 m
        options.maxDepth = .infinity
        let builder = try CaptureBuilder(options: options)
        // Row 0 at depth 3e38: x = (i - 1.5) / 0.5 * d is +-9e38 (infinite) or +-3e38 (finite but out of range),
        // z = -3e38; row 1 at depth 1 gives (-3, -1, 1, 3) + camera in x.
        var image = DepthImage(width: 4, height: 2, fx: 0.5, fy: 0.5, cx: 2, cy: 1)
        image.depth = [3e38, 3e38, 3e38, 3e38, 1, 1, 1, 1]
        let pose = translation(0.005, 0.005, 0.005)
        try add(builder, 0, pose, image)
        var expected = (0..<4).map { image.worldPoint($0, 1, pose: pose) }
        #expect(builder.fusedFrames == [0])
        #expect(builder.cloudCount == 4)
        // Single samples just inside and just outside the range on each side (x = +-10400, +-10600).
        for (n, x) in [Float(10400.005), -10400.005, 10600.005, -10600.005].enumerated() {
            try add(builder, Int64(n + 1) * 100_000_000, translation(x, 0.005, 1.005), .single(1))
        }
        expected += [D3(Double(Float(10400.005)), 0.005, 0.005), D3(Double(Float(-10400.005)), 0.005, 0.005)]
        #expect(builder.fusedFrames == [0, 1, 2, 3, 4])
        let cloud = builder.cloud()
        try #require(cloud.count == expected.count, "got \(cloud.count) voxels: \(cloud.points)")
        for (i, e) in expected.enumerated() {
            #expect(close(cloud[i], e, abs(e.x) > 1000 ? 2e-3 : 1e-5), "point \(i): got \(cloud[i]), expected \(e)")
        }
        #expect(cloud.points.allSatisfy { $0.isFinite })
        // A report over such a cloud still works.
        let report = try builder.report()
        #expect(report.cloud.count == expected.count)
    }

    // MARK: Fusion rules, timestamps, options

    @Test("frames closer than fuse_distance / fuse_angle to the last fused one are not fused")
    func fuseDistanceAndAngle() throws {
        let builder = try CaptureBuilder()
        let image = DepthImage(width: 8, height: 6, fx: 8, fy: 8, cx: 4, cy: 3, depth: [Float](repeating: 1.5, count: 48))
        func yawed(_ degrees: Float, _ t: SIMD3<Float>) -> Pose {
            let a = degrees * .pi / 180
            return Pose(rotation: Matrix3(SIMD3(cos(a), 0, -sin(a)), SIMD3(0, 1, 0), SIMD3(sin(a), 0, cos(a))), translation: t)
        }
        let p0 = SIMD3<Float>(0.3, 1.2, 0.8)
        let frames: [(Pose, Bool, Bool)] = [  // pose, has depth, expected fused
            (yawed(0, p0), true, true),
            (yawed(0, p0 + SIMD3(0.03, 0, 0)), true, false),       // 3 cm from frame 0
            (yawed(0, p0 + SIMD3(0.04, 0, 0.035)), true, true),    // 5.3 cm from frame 0
            (yawed(3, p0 + SIMD3(0.04, 0, 0.035)), true, false),   // 3 degrees from frame 2
            (yawed(6, p0 + SIMD3(0.04, 0, 0.035)), true, true),    // 6 degrees from frame 2
            (yawed(6, p0 + SIMD3(0.20, 0, 0.035)), false, false),  // far, but no depth: not fused, not the reference
            (yawed(6, p0 + SIMD3(0.07, 0, 0.035)), true, false),   // 3 cm from frame 4 (the last fused)
            (yawed(6, p0 + SIMD3(0.10, 0, 0.035)), true, true),    // 6 cm from frame 4
        ]
        var expectedFused: [Int] = []
        for (n, (pose, hasDepth, fused)) in frames.enumerated() {
            #expect(builder.wantsDepth(at: pose) == (fused || !hasDepth && n == 5), "frame \(n): wantsDepth")
            let before = builder.cloud()
            try add(builder, Int64(n) * 100_000_000, pose, hasDepth ? image : nil)
            if fused { expectedFused.append(n) } else { #expect(builder.cloud() == before, "frame \(n) changed the cloud") }
        }
        #expect(builder.fusedFrames == expectedFused)
        #expect(expectedFused == [0, 2, 4, 7])
        #expect(builder.frameCount == frames.count)
        #expect(try builder.report().fusedFrames == 4)
    }

    @Test("a decreasing timestamp throws and changes nothing; an equal one is accepted")
    func decreasingTimestamp() throws {
        let builder = try CaptureBuilder()
        let image = DepthImage(width: 8, height: 6, fx: 8, fy: 8, cx: 4, cy: 3, depth: [Float](repeating: 1.5, count: 48))
        for n in 0..<4 { try add(builder, 1_000_000_000 + Int64(n) * 100_000_000, translation(0.1 * Float(n), 1, 0), image) }
        let timestamps = builder.timestamps, poses = builder.poses, intrinsics = builder.intrinsics
        let states = builder.motionStates, state = builder.motionState, fused = builder.fusedFrames, captures = builder.captures
        let cloud = builder.cloud()
        #expect(fused == [0, 1, 2, 3])
        let far = translation(5, 1, 0)  // would be fused
        #expect(builder.wantsDepth(at: far))
        var thrown: Error?
        do { try add(builder, 1_299_999_999, far, image) } catch { thrown = error }
        let error = try #require(thrown as? FathomError, "an earlier timestamp must throw a FathomError")
        #expect(error.kind == .outOfRange && error.message.contains("timestamp"), "\(error.kind): \(error.message)")
        #expect(builder.timestamps == timestamps && builder.poses == poses && builder.intrinsics == intrinsics)
        #expect(builder.motionStates == states && builder.motionState == state)
        #expect(builder.fusedFrames == fused && builder.captures == captures && builder.frameCount == 4)
        #expect(builder.cloud() == cloud && builder.cloudCount == cloud.count)
        // The same timestamp as the last frame is not earlier: accepted (the tracker marks it skipped).
        let s = try add(builder, 1_300_000_000, far, image)
        #expect(s.skipped)
        #expect(builder.frameCount == 5 && builder.fusedFrames == [0, 1, 2, 3, 4])
    }

    @Test("options: documented defaults, and validate names the first bad setting")
    func optionsValidation() throws {
        let d = CaptureOptions()
        #expect(d.minConfidence == 2 && d.maxDepth == 5 && d.voxel == 0.01 && d.fuseDistance == 0.05)
        #expect(close(d.fuseAngle, 5 * .pi / 180, 1e-7) && d.minVoxelPoints == 2 && d.floorThreshold == 0.02)
        #expect(d.floorIterations == 300 && d.seed == 1 && close(d.floorMaxTilt, 5 * .pi / 180, 1e-7))
        #expect(d.floorMinArea == 0.25 && close(d.orbitMinSpan, .pi / 2, 1e-7) && d.orbitMinViews == 10)
        #expect(d.objectClearance == 0.02 && d.selectDistance == 0.10 && close(d.selectAngle, 10 * .pi / 180, 1e-7))
        #expect(d.motion == MotionOptions() && d.coverage == CoverageOptions())
        try d.validate()

        typealias Edit = (inout CaptureOptions) -> Void
        let refused: [(Edit, FathomError.Kind, String)] = [
            ({ $0.voxel = 0 }, .outOfRange, "voxel"),
            ({ $0.voxel = -0.01 }, .outOfRange, "voxel"),
            ({ $0.voxel = 5e-5 }, .outOfRange, "voxel"),
            ({ $0.voxel = .nan }, .notFinite, "voxel"),
            ({ $0.voxel = .infinity }, .notFinite, "voxel"),
            ({ $0.maxDepth = .nan }, .notFinite, "max_depth"),
            ({ $0.maxDepth = 0 }, .outOfRange, "max_depth"),
            ({ $0.maxDepth = -1 }, .outOfRange, "max_depth"),
            ({ $0.fuseDistance = 0 }, .outOfRange, "fuse_distance"),
            ({ $0.fuseDistance = .nan }, .notFinite, "fuse_distance"),
            ({ $0.fuseAngle = -1 }, .outOfRange, "fuse_angle"),
            ({ $0.selectDistance = 0 }, .outOfRange, "select_distance"),
            ({ $0.selectAngle = .nan }, .notFinite, "select_angle"),
            ({ $0.minVoxelPoints = 0 }, .outOfRange, "min_voxel_points"),
            ({ $0.floorThreshold = 0 }, .outOfRange, "floor_threshold"),
            ({ $0.floorThreshold = .infinity }, .notFinite, "floor_threshold"),
            ({ $0.floorIterations = 0 }, .outOfRange, "floor_iterations"),
            ({ $0.floorIterations = 100_001 }, .outOfRange, "floor_iterations"),
            ({ $0.floorMaxTilt = .pi / 2 }, .outOfRange, "floor_max_tilt"),
            ({ $0.floorMaxTilt = 2 }, .outOfRange, "floor_max_tilt"),
            ({ $0.floorMaxTilt = 0 }, .outOfRange, "floor_max_tilt"),
            ({ $0.floorMaxTilt = .nan }, .notFinite, "floor_max_tilt"),
            ({ $0.objectClearance = -0.001 }, .outOfRange, "object_clearance"),
            ({ $0.objectClearance = .infinity }, .notFinite, "object_clearance"),
            ({ $0.motion.slowSpeed = -1 }, .outOfRange, "slow_speed"),
            ({ $0.coverage.goal = 0 }, .outOfRange, "goal"),
        ]
        for (edit, kind, name) in refused {
            var o = CaptureOptions()
            edit(&o)
            expectError(kind, containing: [name]) { () throws(FathomError) in try o.validate() }
            expectError(kind, containing: [name]) { () throws(FathomError) in _ = try CaptureBuilder(options: o) }
        }
        let accepted: [Edit] = [
            { $0.voxel = 1e-4 }, { $0.maxDepth = .infinity }, { $0.fuseDistance = .infinity }, { $0.fuseAngle = .infinity },
            { $0.floorIterations = 1 }, { $0.floorIterations = 100_000 }, { $0.floorMaxTilt = 1.5 }, { $0.objectClearance = 0 },
            { $0.minConfidence = 0 }, { $0.minConfidence = 255 }, { $0.selectDistance = .infinity },
        ]
        for edit in accepted {
            var o = CaptureOptions()
            edit(&o)
            try o.validate()
        }
    }

    // MARK: The scene estimate

    @Test("a box on a floor: fitted box within 1.5 cm and 2 degrees, floor within 5 mm, focus at the box")
    func fittedBox() throws {
        let builder = try boxCapture()
        let report = try builder.report()
        #expect(report.frames == 24 && report.fusedFrames == 24)
        let floor = try #require(report.floor)
        #expect(abs(floor.height) <= 0.005, "floor height \(floor.height)")
        #expect(floor.normal.y > 0.999, "floor normal \(floor.normal)")
        #expect(floor.inliers > 1000 && floor.rms < 0.005)
        let focus = try #require(report.focus)
        #expect(close(focus, sceneBox.center, 0.005), "focus \(focus)")
        let box = try #require(report.box)
        #expect(report.boxSource == .fitted)
        let e = boxErrors(box, sceneBox)
        #expect(e.angle <= 2 * .pi / 180, "yaw \(box.rotY) vs \(sceneBox.yaw): \(e.angle * 180 / .pi) degrees off (mod 90)")
        #expect(e.center <= 0.015, "centre \(box.center) vs \(sceneBox.center)")
        #expect(e.extents <= 0.015, "extents \(box.scale) vs \(sceneBox.scale)")
        // The box stands on the floor found: its floor is the floor estimate's height and its bottom reaches it.
        let boxFloor = try #require(box.floor)
        #expect(abs(boxFloor - floor.height) <= 1e-5)
        #expect(abs(box.center.y - box.scale.y / 2 - floor.height) <= 1e-5)
        #expect(try builder.currentBox() == box)
        // The object cloud is the fused cloud's points inside the box: some, all inside, fewer than the cloud.
        #expect(report.object.count > 100 && report.object.count < report.cloud.count)
        try expectObject(report, box)
        #expect(report.coverage != nil && report.warnings.isEmpty)
        #expect(report.cameraPositions.count == 24 && report.timestamps.count == 24 && report.motion.count == 24)
        #expect(report.trajectory?.steps == 23)
    }

    @Test("a box rotated by more than a quarter turn is found modulo 90 degrees")
    func fittedBoxQuarterTurn() throws {
        let truth = SceneBox(center: D3(-0.2, 0.11, 0.3), scale: D3(0.18, 0.22, 0.34), yaw: 2.2)
        let builder = try capture(Scene(box: truth), cameras: circle(around: truth.center, radius: 0.8, height: 0.5, count: 18))
        let box = try #require(try builder.currentBox())
        #expect(box.rotY >= 0 && box.rotY < .pi / 2)
        let e = boxErrors(box, truth)
        #expect(e.angle <= 2 * .pi / 180 && e.center <= 0.015 && e.extents <= 0.015,
                "box \(box) vs \(truth): \(e.angle * 180 / .pi) deg, centre \(e.center), extents \(e.extents)")
    }

    @Test("a given box is kept, with its source")
    func givenBox() throws {
        let given = try Box(center: SIMD3(0, 0.5, 0.1), scale: SIMD3(0.9, 1, 0.7), rotY: 0.3, floor: 0)
        let builder = try boxCapture(box: given, cameras: 8)
        #expect(builder.givenBox == given)
        #expect(try builder.currentBox() == given)
        let report = try builder.report()
        #expect(report.box == given && report.boxSource == .given)
        #expect(try builder.report(boxSource: .manifest).boxSource == .manifest)
        #expect(report.floor != nil && report.coverage != nil)
        try expectObject(report, given)
        #expect(report.object.count > 0)
    }

    @Test("only a floor: no box, and a warning saying why")
    func floorOnly() throws {
        let target = D3(0.1, 0, -0.1)
        let builder = try capture(Scene(floorHalf: 1.6, box: nil), cameras: circle(around: target, radius: 0.9, height: 0.8, count: 12))
        #expect(try builder.currentBox() == nil)
        let report = try builder.report()
        #expect(report.box == nil && report.boxSource == .none && report.coverage == nil && report.object.count == 0)
        let floor = try #require(report.floor)
        #expect(abs(floor.height) <= 0.005)
        // The views circle the target, but nothing stands on the floor there.
        #expect(report.objectCapture && report.support != nil)
        #expect(report.warnings == ["no object: nothing stands on the support near the focus"])
        // No depth at all: no floor, another warning.
        let empty = try CaptureBuilder()
        expectError(.noData) { () throws(FathomError) in _ = try empty.report() }
        for n in 0..<3 { try add(empty, Int64(n) * 100_000_000, translation(Float(n), 1, 0), nil) }
        let bare = try empty.report()
        #expect(bare.box == nil && bare.floor == nil && bare.cloud.count == 0 && bare.fusedFrames == 0)
        #expect(bare.warnings == ["no floor found: no upward-facing horizontal surface of 0.25 m^2 or more",
                                  "no object: the views do not circle a point (their optical axes are nearly parallel): not an object capture"])
    }

    // MARK: The report's JSON

    @Test("the report's JSON parses and holds the struct's numbers")
    func reportJSON() throws {
        let report = try boxCapture().report()
        let j = try decode(report)
        #expect(j.scanId == nil)
        #expect(j.frames == report.frames && j.fusedFrames == report.fusedFrames && j.duration == report.duration)
        #expect(j.duration == 23 * 0.25)
        let box = try #require(report.box), jb = try #require(j.box)
        #expect(same(jb.center, box.center) && same(jb.scale, box.scale) && same(jb.rotY, box.rotY))
        #expect(jb.floor.map { Float($0) } == box.floor)
        #expect(jb.corners.count == 8 && zip(jb.corners, box.corners).allSatisfy { same($0, $1) })
        #expect(j.boxSource == "fitted")
        let floor = try #require(report.floor), jf = try #require(j.floor)
        #expect(same(jf.height, floor.height) && same(jf.normal, floor.normal) && jf.inliers == floor.inliers && same(jf.rms, floor.rms))
        #expect(j.focus.map { same($0, report.focus!) } == true)
        #expect(j.cloudPoints == report.cloud.count && j.objectPoints == report.object.count)
        let t = try #require(report.trajectory), jt = try #require(j.trajectory)
        #expect(jt.duration == t.duration && jt.pathLength == t.pathLength && jt.steps == t.steps)
        #expect(same(jt.speedP10, t.speedP10) && same(jt.speedP50, t.speedP50) && same(jt.speedP90, t.speedP90) && same(jt.speedMax, t.speedMax))
        #expect(jt.timeTooSlow == t.timeTooSlow && jt.timeTooFast == t.timeTooFast && same(jt.angularSpeedMax, t.angularSpeedMax))
        // Speed over time: seconds from the first frame, the tracker's states.
        #expect(j.speed.time.count == 24 && zip(j.speed.time, 0..<24).allSatisfy { abs($0 - Double($1) * 0.25) <= 1e-12 }, "\(j.speed.time)")
        #expect(j.speed.speed.count == 24 && zip(j.speed.speed, report.motion).allSatisfy { same($0, $1.speed) })
        #expect(zip(j.speed.angularSpeed, report.motion).allSatisfy { same($0, $1.angularSpeed) })
        #expect(j.speed.guidance == report.motion.map { ScanReport.guidanceNames[Int($0.guidance.rawValue)] })
        #expect(j.cameraPositions.count == 24 && zip(j.cameraPositions, report.cameraPositions).allSatisfy { same($0, $1) })
        let c = try #require(report.coverage), jc = try #require(j.coverage)
        #expect(jc.views == c.views && jc.counted == c.counted && jc.facesComplete == c.facesComplete)
        #expect(jc.facesNeeded == c.facesNeeded && jc.complete == c.complete && same(jc.angularScore, c.angularScore) && jc.bins == c.bins)
        #expect(jc.faces.map(\.name) == Box.faceNames)
        for (jface, face) in zip(jc.faces, c.faces) {
            #expect(jface.count == face.count && same(jface.progress, face.progress) && same(jface.color, face.color))
            #expect(same(jface.opacity, face.opacity) && jface.complete == face.complete && jface.needed == face.needed)
        }
        #expect((jc.nextView == nil) == (c.nextView == nil))
        if let v = c.nextView, let jv = jc.nextView { #expect(same(jv.direction, v.direction) && same(jv.position, v.position)) }
        #expect(j.captures == report.captures && j.selectedFrames == report.selected && j.warnings == report.warnings)
        #expect(!report.selected.isEmpty)
    }

    @Test("the JSON of a report without a box: nulls, and the warning")
    func reportJSONWithoutBox() throws {
        let builder = try CaptureBuilder()
        try add(builder, 0, translation(0, 1, 0), nil)
        let report = try builder.report(scanID: "scan \"one\"\n", warnings: ["a\tb"])
        let j = try decode(report)
        #expect(j.scanId == "scan \"one\"\n")
        #expect(j.box == nil && j.boxSource == "none" && j.floor == nil && j.focus == nil && j.trajectory == nil && j.coverage == nil)
        #expect(j.frames == 1 && j.duration == 0 && j.cloudPoints == 0 && j.speed.time == [0])
        #expect(j.warnings == ["a\tb", "no floor found: no upward-facing horizontal surface of 0.25 m^2 or more",
                               "no object: the views do not circle a point (their optical axes are nearly parallel): not an object capture"])
    }


    @Test("select_distance and select_angle both INFINITY are refused by validate")
    func bothSelectInfinite() throws {
        var options = CaptureOptions()
        options.selectDistance = .infinity
        options.selectAngle = .infinity
        #expect(throws: FathomError.self) { try options.validate() }
        do throws(FathomError) { try options.validate() } catch {
            #expect(error.kind == .outOfRange && error.message.contains("select_distance and select_angle"))
        }
    }

    @Test("a frame whose own min_depth exceeds options.max_depth is added with nothing fused")
    func frameRangeBeyondOptionsRange() throws {
        var options = CaptureOptions()
        options.maxDepth = 3
        let builder = try CaptureBuilder(options: options)
        let image = DepthImage(width: 8, height: 6, fx: 8, fy: 8, cx: 4, cy: 3, depth: [Float](repeating: 5, count: 48))
        let k = try image.intrinsics()
        try image.depth.withUnsafeBytes { raw in
            let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: 8, height: 6, minDepth: 4, maxDepth: 10, rgb: k)
            try builder.add(timestamp: 0, pose: translation(0, 1, 0), rgb: k, depth: frame)
        }
        #expect(builder.cloudCount == 0)
        #expect(builder.frameCount == 1)
        #expect(builder.fusedFrames.isEmpty)
    }
}
