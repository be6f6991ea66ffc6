import CFathom
import FathomCore

// The capture app's yaw-only box — see include/fathom.h. Edits run on a copy and store it back only on
// success, so a failed edit leaves the caller's box unchanged.

/// Applies `edit` to a copy of *box and writes the copy back if the edit succeeds.
private func edit(_ function: StaticString, _ box: UnsafeMutablePointer<fathom_box>?,
                  _ edit: (inout Box) throws(FathomError) -> Void) -> fathom_status {
    abiCall(function) { () throws(FathomError) in
        let pointer = try required(box, "box")
        var core = try Box(pointer.pointee)
        try edit(&core)
        pointer.pointee = fathom_box(core)
    }
}

@_cdecl("fathom_box_init")
public func fathom_box_init(_ center: fathom_vec3, _ scale: fathom_vec3, _ rotY: Float, _ out: UnsafeMutablePointer<fathom_box>?) -> fathom_status {
    abiCall("fathom_box_init") { () throws(FathomError) in
        let box = try Box(center: SIMD3(center), scale: SIMD3(scale), rotY: rotY)
        try required(out, "out").pointee = fathom_box(box)
    }
}

@_cdecl("fathom_box_check")
public func fathom_box_check(_ box: UnsafePointer<fathom_box>?) -> fathom_status {
    abiCall("fathom_box_check") { () throws(FathomError) in _ = try Box(required(box, "box").pointee) }
}

@_cdecl("fathom_box_corners")
public func fathom_box_corners(_ box: UnsafePointer<fathom_box>?, _ out: UnsafeMutablePointer<fathom_vec3>?) -> fathom_status {
    abiCall("fathom_box_corners") { () throws(FathomError) in
        let corners = try Box(required(box, "box").pointee).corners
        let out = try required(out, "out_corners")
        for (i, c) in corners.enumerated() { out[i] = fathom_vec3(c) }
    }
}

@_cdecl("fathom_box_set_center")
public func fathom_box_set_center(_ box: UnsafeMutablePointer<fathom_box>?, _ center: fathom_vec3) -> fathom_status {
    edit("fathom_box_set_center", box) { b throws(FathomError) in try b.setCenter(SIMD3(center)) }
}

@_cdecl("fathom_box_update_center")
public func fathom_box_update_center(_ box: UnsafeMutablePointer<fathom_box>?, _ offset: fathom_vec3) -> fathom_status {
    edit("fathom_box_update_center", box) { b throws(FathomError) in try b.updateCenter(SIMD3(offset)) }
}

@_cdecl("fathom_box_update_center_in_camera")
public func fathom_box_update_center_in_camera(_ box: UnsafeMutablePointer<fathom_box>?, _ offset: fathom_vec3,
                                               _ camera: UnsafePointer<fathom_pose>?) -> fathom_status {
    edit("fathom_box_update_center_in_camera", box) { b throws(FathomError) in
        try b.updateCenter(SIMD3(offset), inFrameOf: rigidPose(camera, "camera"))
    }
}

@_cdecl("fathom_box_set_center_on_floor")
public func fathom_box_set_center_on_floor(_ box: UnsafeMutablePointer<fathom_box>?, _ x: Float, _ z: Float) -> fathom_status {
    edit("fathom_box_set_center_on_floor", box) { b throws(FathomError) in try b.setCenterOnFloor(x: x, z: z) }
}

@_cdecl("fathom_box_set_scale")
public func fathom_box_set_scale(_ box: UnsafeMutablePointer<fathom_box>?, _ scale: fathom_vec3) -> fathom_status {
    edit("fathom_box_set_scale", box) { b throws(FathomError) in try b.setScale(SIMD3(scale)) }
}

@_cdecl("fathom_box_update_scale")
public func fathom_box_update_scale(_ box: UnsafeMutablePointer<fathom_box>?, _ multiplier: fathom_vec3) -> fathom_status {
    edit("fathom_box_update_scale", box) { b throws(FathomError) in try b.updateScale(SIMD3(multiplier)) }
}

@_cdecl("fathom_box_set_angle")
public func fathom_box_set_angle(_ box: UnsafeMutablePointer<fathom_box>?, _ radians: Float) -> fathom_status {
    edit("fathom_box_set_angle", box) { b throws(FathomError) in try b.setAngle(radians) }
}

@_cdecl("fathom_box_update_angle")
public func fathom_box_update_angle(_ box: UnsafeMutablePointer<fathom_box>?, _ radians: Float) -> fathom_status {
    edit("fathom_box_update_angle", box) { b throws(FathomError) in try b.updateAngle(radians) }
}

@_cdecl("fathom_box_set_floor")
public func fathom_box_set_floor(_ box: UnsafeMutablePointer<fathom_box>?, _ height: Float) -> fathom_status {
    edit("fathom_box_set_floor", box) { b throws(FathomError) in try b.setFloor(height) }
}

@_cdecl("fathom_box_clear_floor")
public func fathom_box_clear_floor(_ box: UnsafeMutablePointer<fathom_box>?) -> fathom_status {
    edit("fathom_box_clear_floor", box) { $0.clearFloor() }
}

@_cdecl("fathom_box_extend_side")
public func fathom_box_extend_side(_ box: UnsafeMutablePointer<fathom_box>?, _ offset: fathom_vec3) -> fathom_status {
    edit("fathom_box_extend_side", box) { b throws(FathomError) in try b.extendSide(SIMD3(offset)) }
}

@_cdecl("fathom_box_shrink_side")
public func fathom_box_shrink_side(_ box: UnsafeMutablePointer<fathom_box>?, _ offset: fathom_vec3) -> fathom_status {
    edit("fathom_box_shrink_side", box) { b throws(FathomError) in try b.shrinkSide(SIMD3(offset)) }
}

@_cdecl("fathom_box_faces")
public func fathom_box_faces(_ box: UnsafePointer<fathom_box>?, _ out: UnsafeMutablePointer<fathom_face>?) -> fathom_status {
    abiCall("fathom_box_faces") { () throws(FathomError) in
        let faces = try Box(required(box, "box").pointee).faces()
        let out = try required(out, "out_faces")
        for (i, f) in faces.enumerated() {
            out[i] = fathom_face(center: fathom_vec3(f.center), normal: fathom_vec3(f.normal), orientation: fathom_quat(f.orientation))
        }
    }
}

@_cdecl("fathom_box_face_distances")
public func fathom_box_face_distances(_ box: UnsafePointer<fathom_box>?, _ point: fathom_vec3, _ out: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_box_face_distances") { () throws(FathomError) in
        let distances = try Box(required(box, "box").pointee).faceDistances(SIMD3(point))
        write(distances, to: try required(out, "out_distances"))
    }
}

@_cdecl("fathom_box_to_obb")
public func fathom_box_to_obb(_ box: UnsafePointer<fathom_box>?, _ out: UnsafeMutablePointer<fathom_obb>?) -> fathom_status {
    abiCall("fathom_box_to_obb") { () throws(FathomError) in
        let obb = try Box(required(box, "box").pointee).orientedBox()
        try required(out, "out").pointee = fathom_obb(obb)
    }
}
