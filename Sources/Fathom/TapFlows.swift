import CFathom
import FathomCore

// The capture app's tap flows — see include/fathom.h.

/// The mesh behind an optional `fathom_mesh *` argument (NULL: no mesh).
private func optionalMesh(_ handle: OpaquePointer?) -> Mesh? { optionalObject(handle, as: Mesh.self) }

@_cdecl("fathom_tap_floor_height")
public func fathom_tap_floor_height(_ k: UnsafePointer<fathom_intrinsics>?, _ camera: UnsafePointer<fathom_pose>?, _ u: Float, _ v: Float,
                                    _ meshHandle: OpaquePointer?, _ planePoint: fathom_vec3, _ planeNormal: fathom_vec3,
                                    _ outHeight: UnsafeMutablePointer<Float>?, _ outFound: UnsafeMutablePointer<Bool>?) -> fathom_status {
    abiCall("fathom_tap_floor_height") { () throws(FathomError) in
        let core = try intrinsics(k)
        let pose = try rigidPose(camera, "camera_to_world")
        let point = try finite(planePoint, "plane_point"), normal = try finite(planeNormal, "plane_normal")
        let height = try required(outHeight, "out_height"), found = try required(outFound, "out_hit_found")
        let plane = normal == .zero ? nil : (point, normal)
        if let y = try TapFlows.floorHeight(intrinsics: core, camera: pose, u: u, v: v, mesh: optionalMesh(meshHandle), plane: plane) {
            height.pointee = y
            found.pointee = true
        } else {
            found.pointee = false
        }
    }
}

@_cdecl("fathom_tap_place_box")
public func fathom_tap_place_box(_ k: UnsafePointer<fathom_intrinsics>?, _ camera: UnsafePointer<fathom_pose>?, _ u: Float, _ v: Float,
                                 _ meshHandle: OpaquePointer?, _ box: UnsafeMutablePointer<fathom_box>?,
                                 _ outFound: UnsafeMutablePointer<Bool>?) -> fathom_status {
    abiCall("fathom_tap_place_box") { () throws(FathomError) in
        let core = try intrinsics(k)
        let pose = try rigidPose(camera, "camera_to_world")
        let pointer = try required(box, "box")
        let found = try required(outFound, "out_hit_found")
        var b = try Box(pointer.pointee)
        let hit = try TapFlows.placeBox(&b, intrinsics: core, camera: pose, u: u, v: v, mesh: optionalMesh(meshHandle))
        if hit { pointer.pointee = fathom_box(b) }
        found.pointee = hit
    }
}

@_cdecl("fathom_tap_box_face")
public func fathom_tap_box_face(_ k: UnsafePointer<fathom_intrinsics>?, _ camera: UnsafePointer<fathom_pose>?, _ u: Float, _ v: Float,
                                _ box: UnsafePointer<fathom_box>?, _ outFace: UnsafeMutablePointer<UInt32>?) -> fathom_status {
    abiCall("fathom_tap_box_face") { () throws(FathomError) in
        let core = try intrinsics(k)
        let pose = try rigidPose(camera, "camera_to_world")
        let b = try Box(required(box, "box").pointee)
        let out = try required(outFace, "out_face")
        out.pointee = try TapFlows.boxFace(b, intrinsics: core, camera: pose, u: u, v: v).map(UInt32.init) ?? FATHOM_NO_HIT
    }
}
