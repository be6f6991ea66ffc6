import CFathom
import FathomCore

// Tags and label placement — see include/fathom.h.

@_cdecl("fathom_tag_world_pose")
public func fathom_tag_world_pose(_ camera: UnsafePointer<fathom_pose>?, _ tag: UnsafePointer<fathom_pose>?,
                                  _ out: UnsafeMutablePointer<fathom_pose>?) -> fathom_status {
    abiCall("fathom_tag_world_pose") { () throws(FathomError) in
        let world = TagPose.world(camera: try rigidPose(camera, "camera_to_world"), tagInOptical: try rigidPose(tag, "tag_in_optical"))
        try required(out, "out").pointee = fathom_pose(world)
    }
}

@_cdecl("fathom_tag_snap_vertical")
public func fathom_tag_snap_vertical(_ tag: UnsafePointer<fathom_pose>?, _ out: UnsafeMutablePointer<fathom_pose>?) -> fathom_status {
    abiCall("fathom_tag_snap_vertical") { () throws(FathomError) in
        let snapped = try TagPose.snappedVertical(rigidPose(tag, "tag"))
        try required(out, "out").pointee = fathom_pose(snapped)
    }
}

@_cdecl("fathom_covariance_rotate")
public func fathom_covariance_rotate(_ rotation: UnsafePointer<fathom_pose>?, _ covariance: UnsafePointer<Float>?,
                                     _ out: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_covariance_rotate") { () throws(FathomError) in
        let pose = try rigidPose(rotation, "rotation")
        let s = try Matrix3(columnMajor: floatArray(covariance, 9, "covariance"))
        let out = try required(out, "out")
        write(TagPose.rotate(covariance: s, by: pose.rotation).columnMajor, to: out)
    }
}

@_cdecl("fathom_tag_fuse")
public func fathom_tag_fuse(_ poses: UnsafePointer<fathom_pose>?, _ covariances: UnsafePointer<Float>?, _ count: Int,
                            _ out: UnsafeMutablePointer<fathom_pose>?, _ outCovariance: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_tag_fuse") { () throws(FathomError) in
        let base = try elements(poses, count, "poses", minimum: 1, copiedAs: Pose.self)
        let out = try required(out, "out")
        let list = try base.indices.map { i throws(FathomError) in try Pose(columnMajor: floats(base[i]), name: "poses[\(i)]") }
        var matrices: [Matrix3]?
        if let covariances {
            matrices = try (0..<count).map { i throws(FathomError) in
                try Matrix3(columnMajor: floatArray(covariances + 9 * i, 9, "covariances[\(i)]"))
            }
        }
        let fused = try TagFusion.fuse(list, covariances: matrices)
        out.pointee = fathom_pose(fused.pose)
        if let outCovariance { write(fused.covariance.columnMajor, to: outCovariance) }
    }
}

@_cdecl("fathom_label_place")
public func fathom_label_place(_ request: UnsafePointer<fathom_label_request>?, _ out: UnsafeMutablePointer<fathom_label_placement>?) -> fathom_status {
    abiCall("fathom_label_place") { () throws(FathomError) in
        let r = try required(request, "request").pointee
        guard let anchor = LabelPlacement.Anchor(rawValue: r.anchor) else {
            throw FathomError(.outOfRange, "request.anchor must be a fathom_anchor_point (0...6), got \(r.anchor)")
        }
        guard let target = LabelPlacement.Target(rawValue: r.target) else {
            throw FathomError(.outOfRange, "request.target must be a fathom_label_target (0 or 1), got \(r.target)")
        }
        let used = Set(LabelPlacement.Anchor.allCases.filter { $0.rawValue < 32 && r.used_anchors & (1 << UInt32($0.rawValue)) != 0 })
        let placement = try LabelPlacement.place(.init(
            anchor: anchor, target: target, targetSize: SIMD2(r.target_width, r.target_height),
            panelSize: SIMD2(r.panel_width, r.panel_height), relativePosition: SIMD3(r.relative_position),
            positionOffset: SIMD3(r.position_offset), used: used))
        try required(out, "out").pointee = fathom_label_placement(
            position: fathom_vec3(placement.position), orientation: fathom_quat(placement.orientation), anchor: placement.anchor.rawValue)
    }
}
