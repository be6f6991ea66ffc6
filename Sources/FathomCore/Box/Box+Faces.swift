import Glibc

/// One face of a box: centre, outward unit normal and orientation (local z = the normal).
public struct BoxFace: Equatable, Sendable {
    public var center: SIMD3<Float>
    public var normal: SIMD3<Float>
    public var orientation: Quaternion
}

extension Box {
    /// Face names in face-index order (also used for face coverage).
    public static let faceNames = ["front", "left", "right", "bottom", "top", "back"]

    /// The corners of each face, in face-index order.
    static let faceCorners: [[Int]] = [[0, 1, 2, 3], [0, 3, 7, 4], [1, 2, 6, 5], [2, 3, 7, 6], [0, 1, 5, 4], [4, 5, 6, 7]]

    /// The corner triples (A, B, C) of the capture app: x = B - A, z = cross(x, C - A).
    static let faceTriples: [(Int, Int, Int)] = [(2, 3, 1), (3, 7, 4), (6, 2, 1), (3, 2, 7), (1, 0, 5), (7, 6, 4)]

    /// The 6 faces from the (floor-clamped) corners. Throws `.degenerate` when the floor flattens the box.
    public func faces() throws(FathomError) -> [BoxFace] {
        let (bottom, top) = clampedBottomTop
        guard top > bottom else {
            throw FathomError(.degenerate, "the box's top (\(top)) is at or below the floor: it has no faces")
        }
        let c = corners
        return (0..<6).map { i in
            let (a, b, cc) = Box.faceTriples[i]
            // Unit vectors through Double and the centre as a sum of quarters: a box of 1e-30 m or near the float
            // limit would otherwise get NaN normals or an infinite centre.
            let x = unit(c[b] - c[a])
            let z = unit(cross(SIMD3<Double>(x), SIMD3<Double>(c[cc]) - SIMD3<Double>(c[a])))
            let y = cross(z, x)
            let center = Box.faceCorners[i].reduce(SIMD3<Float>.zero) { $0 + c[$1] / 4 }
            return BoxFace(center: center, normal: z, orientation: Quaternion(rotation: Matrix3(x, y, z)))
        }
    }

    /// Signed distance from `point` to each face's plane (face-index order): positive outside.
    public func faceDistances(_ point: SIMD3<Float>) throws(FathomError) -> [Float] {
        try Check.finite(point, "point")
        let (bottom, top) = clampedBottomTop
        let local = rotation.transposed * (point - center)
        let hx = scale.x / 2, hz = scale.z / 2
        let y = point.y
        return [-local.z - hz, -local.x - hx, local.x - hx, bottom - y, y - top, local.z - hz]
    }
}
