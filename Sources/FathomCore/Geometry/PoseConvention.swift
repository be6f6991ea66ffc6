/// How a tool writes a camera pose: which way its camera axes point, and which way the transform goes.
///
/// | convention | camera axes | transform | who writes it |
/// |---|---|---|---|
/// | `arkit` | x right, y up, looking along -z (OpenGL) | camera-to-world | ARKit, the scanner app's `.jsonl`, transforms.json (instant-ngp, nerfstudio), this library |
/// | `opencv` | x right, y down, looking along +z | camera-to-world | Stray Scanner's `odometry.csv`, Open3D / Redwood `trajectory.log`, OpenCV |
/// | `opencvWorldToCamera` | x right, y down, looking along +z | world-to-camera | COLMAP `images.txt`, Open3D's camera `extrinsic` |
///
/// The world frame is whatever the tool's is (ARKit's: +y up, gravity-aligned); only the camera's frame changes.
public enum PoseConvention: UInt32, CaseIterable, Sendable {
    case arkit = 0
    case opencv = 1
    case opencvWorldToCamera = 2

    public var name: String {
        switch self {
        case .arkit: return "arkit"
        case .opencv: return "opencv"
        case .opencvWorldToCamera: return "opencv_world_to_camera"
        }
    }
}

extension Pose {
    /// This pose, written in `from`'s convention, in `to`'s. Between ARKit and OpenCV camera axes the camera's
    /// y and z axes turn 180 degrees about x (columns 1 and 2 of the rotation change sign); world-to-camera is the
    /// inverse of camera-to-world. Between the two camera-to-world conventions the result is exact (signs flip); an
    /// inverse (`exactInverse`) transposes the rotation exactly and rounds -R^T t once. Throws `.notFinite` when
    /// that translation is beyond the float range.
    public func converted(from: PoseConvention, to: PoseConvention) throws(FathomError) -> Pose {
        guard from != to else { return self }
        // To ARKit camera-to-world first, then out.
        var arkit = self
        if from == .opencvWorldToCamera { arkit = try arkit.exactInverse() }
        if from != .arkit { arkit = arkit.flippingCameraYZ }
        switch to {
        case .arkit: return arkit
        case .opencv: return arkit.flippingCameraYZ
        case .opencvWorldToCamera: return try arkit.flippingCameraYZ.exactInverse()
        }
    }

    /// The inverse (R^T, -R^T t) with the translation computed in double precision and rounded once, so an inverse
    /// within the float range is found even where float sums would overflow; `.notFinite` beyond it.
    public func exactInverse() throws(FathomError) -> Pose {
        let r = rotation.transposed
        let t = SIMD3<Double>(translation)
        func row(_ c: SIMD3<Float>) -> Double { -(SIMD3<Double>(c) * t).sum() }
        // Rows of R^T are the columns of R.
        let inverse = SIMD3<Float>(Float(row(rotation.c0)), Float(row(rotation.c1)), Float(row(rotation.c2)))
        guard inverse.isFinite else { throw FathomError(.notFinite, "the inverse's translation -R^T t is beyond the float range") }
        return Pose(rotation: r, translation: inverse)
    }

    /// The pose times diag(1, -1, -1, 1): the same camera with its y and z axes reversed.
    private var flippingCameraYZ: Pose {
        Pose(rotation: Matrix3(rotation.c0, -rotation.c1, -rotation.c2), translation: translation)
    }
}
