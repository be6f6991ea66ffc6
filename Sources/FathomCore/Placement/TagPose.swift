/// Fiducial tags in the world (the indoor-mapping app): world pose, vertical snapping, covariances.
public enum TagPose {
    /// F = diag(1, -1, -1): optical axes (x right, y down, z forward) to ARKit camera axes.
    public static let opticalToCamera = Pose(rotation: Matrix3(SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1)),
                                             translation: .zero)

    /// T_world_tag = T_world_camera * F * T_optical_tag.
    public static func world(camera: Pose, tagInOptical: Pose) -> Pose {
        camera * opticalToCamera * tagInOptical
    }

    /// The tag turned about its own x axis so its z axis (normal) is horizontal, the z direction nearest
    /// the original kept. Throws `.degenerate` when x is vertical (no turn about x helps).
    public static func snappedVertical(_ tag: Pose) throws(FathomError) -> Pose {
        let x = tag.rotation.c0
        let horizontal = cross(x, worldUp)  // perpendicular to x and to up
        let n = length(horizontal)
        guard n > 1e-4 else {
            throw FathomError(.degenerate, "the tag's x axis is vertical: no turn about x makes its normal horizontal")
        }
        var z = horizontal / n
        if dot(z, tag.rotation.c2) < 0 { z = -z }
        let y = cross(z, x)
        return Pose(rotation: Matrix3(x, y, z), translation: tag.translation)
    }

    /// R * S * R^T for a 3x3 covariance S.
    public static func rotate(covariance s: Matrix3, by r: Matrix3) -> Matrix3 {
        r * s * r.transposed
    }
}
