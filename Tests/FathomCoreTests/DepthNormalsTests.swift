// Back-projected normals (fathom.h, fathom_depth_backproject: the unit normal of the cross product of the central
// differences of each point's neighbours, one-sided where a neighbour is invalid, facing the camera, in the frame of
// the points; zero where neither neighbour along a grid axis is valid), on surfaces whose normals are known: a tilted
// plane sampled exactly (every sample on it, so any two differences span it), with a hole, in all three frames.
import FathomCore
import Glibc
import Testing

/// An 80 x 100 depth grid under a 100 x 80 image of the same size: fx' = 100, cx' = 50, cy' = 40.
private let (gridW, gridH) = (100, 80)

/// The normals of every valid sample of `depth`, in `target`.
private func normals(_ depth: [Float], width: Int = gridW, height: Int = gridH, to target: PointFrame,
                     pose: Pose? = nil) throws -> [SIMD3<Float>] {
    let rgb = try Intrinsics(fx: 100, fy: 100, cx: Float(width) / 2, cy: Float(height) / 2, width: width, height: height)
    return try depth.withUnsafeBytes { raw in
        let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: width, height: height, rgb: rgb, pose: pose)
        let selection = DepthSelection.all(frame)
        var out = [Float](repeating: .nan, count: 3 * width * height)
        let count = frame.backproject(selection, to: target, points: nil, pixels: nil, normals: &out, capacity: width * height)
        return (0..<count).map { SIMD3(out[3 * $0], out[3 * $0 + 1], out[3 * $0 + 2]) }
    }
}

@Suite("Back-projected normals")
struct DepthNormalsTests {
    @Test("a tilted plane: its own normal, facing the camera, at every sample and around a hole, in every frame",
          arguments: [PointFrame.optical, .camera, .world])
    func tiltedPlane(target: PointFrame) throws {
        // The plane z = 1 + x / 2 (optical): along the ray (r, ., 1) of column i, r = (i + 0.5 - 50) / 100, it is at
        // z = 1 / (1 - r / 2). Its normal (-1/2, 0, 1) / |.| faces away from the camera (its dot product with a point
        // on the plane is z - x / 2 = 1 > 0): facing the camera it is (1/2, 0, -1) / sqrt(5/4) in the optical frame,
        // (1/2, 0, 1) / sqrt(5/4) in the camera frame (x, -y, -z), and that turned by the pose's rotation in the world.
        var depth = (0..<(gridW * gridH)).map { n in Float(1 / (1 - (Double(n % gridW) + 0.5 - 50) / 200)) }
        for j in 30..<40 { for i in 20..<30 { depth[j * gridW + i] = .nan } }  // a hole: one-sided differences around it
        let pose = try Pose(rotation: Quaternion(axis: SIMD3(0.3, 1, -0.2), angle: 0.7), translation: SIMD3(0.4, 1.3, -2))
        let optical = SIMD3(0.5, 0, -1) / 1.25.squareRoot(), camera = SIMD3(optical.x, -optical.y, -optical.z)
        let expected = switch target {
        case .optical: optical
        case .camera: camera
        case .world: DMatrix3(pose.rotation) * camera
        }
        let got = try normals(depth, to: target, pose: pose)
        #expect(got.count == gridW * gridH - 100)
        let worst = got.map { length(SIMD3<Double>($0) - expected) }.max()!
        #expect(worst < 2e-3, "largest deviation \(worst)")  // float32 depths on a plane: differences good to ~1e-3
    }

    @Test("no valid neighbour along a grid axis gives (0, 0, 0): a single valid row, an isolated sample")
    func withoutNeighbours() throws {
        var depth = [Float](repeating: .nan, count: 25)
        for i in 0..<5 { depth[2 * 5 + i] = 1 }  // row 2: neighbours along the row, none along the columns
        depth[0] = 1  // (0, 0): no valid neighbour at all
        let got = try normals(depth, width: 5, height: 5, to: .camera)
        #expect(got.count == 6 && got.allSatisfy { $0 == .zero }, "\(got)")
    }

    @Test("a fronto-parallel wall faces the camera: (0, 0, -1) optical, (0, 0, 1) in the camera frame (ARKit's +z)")
    func wall() throws {
        let depth = [Float](repeating: 2, count: 30 * 20)
        #expect(try normals(depth, width: 30, height: 20, to: .optical).allSatisfy { close($0, SIMD3(0, 0, -1), 1e-6) })
        #expect(try normals(depth, width: 30, height: 20, to: .camera).allSatisfy { close($0, SIMD3(0, 0, 1), 1e-6) })
    }
}
