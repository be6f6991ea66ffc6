/// The capture app's tap flows (reference/box.md): each casts the tap's ray from the camera.
public enum TapFlows {
    /// The first hit of the tap's ray on the mesh, else on the plane (point, normal), else nil.
    public static func firstHit(_ ray: Ray, mesh: Mesh?, plane: (point: SIMD3<Float>, normal: SIMD3<Float>)?) throws(FathomError) -> Hit? {
        if let mesh, let hit = mesh.intersect(ray, tmin: 0, tmax: .infinity) { return hit }
        if let plane { return try PrimitiveCast.plane(ray, tmin: 0, tmax: .infinity, point: plane.point, normal: plane.normal) }
        return nil
    }

    /// Floor height from a tap: the y of the first hit, or nil.
    public static func floorHeight(intrinsics: Intrinsics, camera: Pose, u: Float, v: Float, mesh: Mesh?,
                                   plane: (point: SIMD3<Float>, normal: SIMD3<Float>)?) throws(FathomError) -> Float? {
        try firstHit(intrinsics.ray(camera: camera, u: u, v: v), mesh: mesh, plane: plane)?.point.y
    }

    /// Stands the box on its floor at the tap's hit (mesh, else the floor plane). Returns false on a miss
    /// (box unchanged); throws `.invalidState` without a floor.
    public static func placeBox(_ box: inout Box, intrinsics: Intrinsics, camera: Pose, u: Float, v: Float, mesh: Mesh?) throws(FathomError) -> Bool {
        guard let floor = box.floor else { throw FathomError(.invalidState, "the box has no floor: set one first") }
        let ray = try intrinsics.ray(camera: camera, u: u, v: v)
        guard let hit = try firstHit(ray, mesh: mesh, plane: (SIMD3(0, floor, 0), SIMD3(0, 1, 0))) else { return false }
        try box.setCenterOnFloor(x: hit.point.x, z: hit.point.z)
        return true
    }

    /// The face of the box under the screen point (entry face, or exit face from inside), or nil.
    public static func boxFace(_ box: Box, intrinsics: Intrinsics, camera: Pose, u: Float, v: Float) throws(FathomError) -> Int? {
        let ray = try intrinsics.ray(camera: camera, u: u, v: v)
        let crossing = PrimitiveCast.orientedBox(ray, tmin: 0, tmax: .infinity, box: try box.orientedBox())
        return crossing.hit.map { Int($0.primitive) }
    }
}
