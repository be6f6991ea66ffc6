import CFathom
import FathomCore

// Rigid poses (4x4 column-major) — see include/fathom.h.

@_cdecl("fathom_pose_from_rotation_translation")
public func fathom_pose_from_rotation_translation(_ q: fathom_quat, _ t: fathom_vec3, _ out: UnsafeMutablePointer<fathom_pose>?) -> fathom_status {
    abiCall("fathom_pose_from_rotation_translation") { () throws(FathomError) in
        let pose = try Pose(rotation: finite(q, "q"), translation: finite(t, "t"))
        try required(out, "out").pointee = fathom_pose(pose)
    }
}

@_cdecl("fathom_pose_to_rotation_translation")
public func fathom_pose_to_rotation_translation(_ pose: UnsafePointer<fathom_pose>?, _ outRotation: UnsafeMutablePointer<fathom_quat>?,
                                                _ outTranslation: UnsafeMutablePointer<fathom_vec3>?) -> fathom_status {
    abiCall("fathom_pose_to_rotation_translation") { () throws(FathomError) in
        let p = try rigidPose(pose, "pose")
        let rotation = try required(outRotation, "out_rotation")
        let translation = try required(outTranslation, "out_translation")
        rotation.pointee = fathom_quat(p.quaternion)
        translation.pointee = fathom_vec3(p.translation)
    }
}

@_cdecl("fathom_pose_from_row_major")
public func fathom_pose_from_row_major(_ rows: UnsafePointer<Float>?, _ out: UnsafeMutablePointer<fathom_pose>?) -> fathom_status {
    abiCall("fathom_pose_from_row_major") { () throws(FathomError) in
        let pose = try Pose(rowMajor: floatArray(rows, 16, "rows"))
        try required(out, "out").pointee = fathom_pose(pose)
    }
}

@_cdecl("fathom_pose_to_row_major")
public func fathom_pose_to_row_major(_ pose: UnsafePointer<fathom_pose>?, _ out: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_pose_to_row_major") { () throws(FathomError) in
        let p = try rigidPose(pose, "pose")
        write(p.rowMajor, to: try required(out, "out_rows"))
    }
}

@_cdecl("fathom_pose_check_rigid")
public func fathom_pose_check_rigid(_ pose: UnsafePointer<fathom_pose>?, _ tolerance: Float) -> fathom_status {
    abiCall("fathom_pose_check_rigid") { () throws(FathomError) in
        try Check.positive(tolerance, "tolerance")
        _ = try Pose(columnMajor: floats(required(pose, "pose").pointee), tolerance: tolerance)
    }
}

@_cdecl("fathom_pose_orthonormalize")
public func fathom_pose_orthonormalize(_ pose: UnsafePointer<fathom_pose>?, _ maxDeviation: Float, _ out: UnsafeMutablePointer<fathom_pose>?) -> fathom_status {
    abiCall("fathom_pose_orthonormalize") { () throws(FathomError) in
        let m = floats(try required(pose, "pose").pointee)
        let out = try required(out, "out")
        out.pointee = fathom_pose(try Pose.orthonormalized(columnMajor: m, maxDeviation: maxDeviation))
    }
}

@_cdecl("fathom_pose_compose")
public func fathom_pose_compose(_ a: UnsafePointer<fathom_pose>?, _ b: UnsafePointer<fathom_pose>?, _ out: UnsafeMutablePointer<fathom_pose>?) -> fathom_status {
    abiCall("fathom_pose_compose") { () throws(FathomError) in
        let pa = try rigidPose(a, "a"), pb = try rigidPose(b, "b")
        // R_a t_b + t_a in double precision, rounded once: the float sums could overflow where the result fits.
        let t = SIMD3<Double>(pb.translation)
        func row(_ r: Int) -> Double {
            Double(pa.rotation.c0[r]) * t.x + Double(pa.rotation.c1[r]) * t.y + Double(pa.rotation.c2[r]) * t.z + Double(pa.translation[r])
        }
        let translation = SIMD3<Float>(Float(row(0)), Float(row(1)), Float(row(2)))
        guard translation.isFinite else { throw FathomError(.notFinite, "a * b has a translation beyond the float range") }
        try required(out, "out").pointee = fathom_pose(Pose(rotation: pa.rotation * pb.rotation, translation: translation))
    }
}

@_cdecl("fathom_pose_invert")
public func fathom_pose_invert(_ pose: UnsafePointer<fathom_pose>?, _ out: UnsafeMutablePointer<fathom_pose>?) -> fathom_status {
    abiCall("fathom_pose_invert") { () throws(FathomError) in
        let inverse = try rigidPose(pose, "pose").exactInverse()
        try required(out, "out").pointee = fathom_pose(inverse)
    }
}

@_cdecl("fathom_poses_convert")
public func fathom_poses_convert(_ poses: UnsafePointer<fathom_pose>?, _ count: Int, _ from: UInt32, _ to: UInt32,
                                 _ out: UnsafeMutablePointer<fathom_pose>?) -> fathom_status {
    abiCall("fathom_poses_convert") { () throws(FathomError) in
        let names = "FATHOM_POSE_ARKIT (0), FATHOM_POSE_OPENCV (1) or FATHOM_POSE_OPENCV_WORLD_TO_CAMERA (2)"
        guard let source = PoseConvention(rawValue: from) else { throw FathomError(.outOfRange, "from must be \(names), got \(from)") }
        guard let target = PoseConvention(rawValue: to) else { throw FathomError(.outOfRange, "to must be \(names), got \(to)") }
        guard count != 0 else { return }
        let input = try elements(poses, count, "poses", copiedAs: fathom_pose.self), output = try required(out, "out")
        // Every pose is checked before any is written, so a refused call leaves out as it was (out may be poses).
        let converted = try input.indices.map { (i) throws(FathomError) -> fathom_pose in
            let pose = try Pose(columnMajor: floats(input[i]), name: "poses[\(i)]")
            do throws(FathomError) { return fathom_pose(try pose.converted(from: source, to: target)) } catch {
                throw FathomError(error.kind, "poses[\(i)]: \(error.message)")
            }
        }
        for i in converted.indices { output[i] = converted[i] }
    }
}

@_cdecl("fathom_pose_transform_point")
public func fathom_pose_transform_point(_ pose: UnsafePointer<fathom_pose>?, _ point: fathom_vec3, _ out: UnsafeMutablePointer<fathom_vec3>?) -> fathom_status {
    abiCall("fathom_pose_transform_point") { () throws(FathomError) in
        let p = try rigidPose(pose, "pose")
        let mapped = p.apply(point: try finite(point, "point"))
        try required(out, "out").pointee = fathom_vec3(mapped)
    }
}

@_cdecl("fathom_pose_transform_direction")
public func fathom_pose_transform_direction(_ pose: UnsafePointer<fathom_pose>?, _ direction: fathom_vec3, _ out: UnsafeMutablePointer<fathom_vec3>?) -> fathom_status {
    abiCall("fathom_pose_transform_direction") { () throws(FathomError) in
        let p = try rigidPose(pose, "pose")
        let mapped = p.apply(direction: try finite(direction, "direction"))
        try required(out, "out").pointee = fathom_vec3(mapped)
    }
}

@_cdecl("fathom_pose_transform_points")
public func fathom_pose_transform_points(_ pose: UnsafePointer<fathom_pose>?, _ points: UnsafePointer<Float>?, _ count: Int,
                                         _ stride: Int, _ out: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_pose_transform_points") { () throws(FathomError) in
        let p = try rigidPose(pose, "pose")
        let buffer = try pointBuffer(points, count, stride)
        let out = try required(out, "out")
        try buffer.requireFinite()
        if UnsafeRawPointer(out) == UnsafeRawPointer(buffer.base) && buffer.floatStride != 3 {
            throw FathomError(.outOfRange, "out may equal points only when stride is 12")
        }
        for i in 0..<buffer.count {
            let q = p.apply(point: buffer[i])
            guard q.isFinite else { throw FathomError(.notFinite, "points[\(i)] maps beyond the float range") }
            out[3 &* i] = q.x; out[3 &* i &+ 1] = q.y; out[3 &* i &+ 2] = q.z
        }
    }
}

@_cdecl("fathom_pose_yaw")
public func fathom_pose_yaw(_ pose: UnsafePointer<fathom_pose>?, _ out: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_pose_yaw") { () throws(FathomError) in
        let yaw = try rigidPose(pose, "pose").yaw
        try required(out, "out_radians").pointee = yaw
    }
}

@_cdecl("fathom_pose_distance")
public func fathom_pose_distance(_ a: UnsafePointer<fathom_pose>?, _ b: UnsafePointer<fathom_pose>?,
                                 _ outMeters: UnsafeMutablePointer<Float>?, _ outRadians: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_pose_distance") { () throws(FathomError) in
        let d = try rigidPose(a, "a").distance(to: rigidPose(b, "b"))
        let meters = try required(outMeters, "out_meters")
        let radians = try required(outRadians, "out_radians")
        meters.pointee = d.meters
        radians.pointee = d.radians
    }
}
