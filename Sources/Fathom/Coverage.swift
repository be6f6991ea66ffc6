import CFathom
import FathomCore

// Face coverage of the box and view directions — see include/fathom.h. A fathom_coverage handle is a retained
// CoverageTracker; fathom_coverage_destroy releases it.

private func tracker(_ handle: OpaquePointer?) throws(FathomError) -> CoverageTracker { try object(handle, "coverage") }

/// A rigid pose read in place from a C pose (no copy); `name` is built only for an error.
func rigidPose(at pointer: UnsafePointer<fathom_pose>, _ name: @autoclosure () -> String) throws(FathomError) -> Pose {
    try Pose(columnMajor: UnsafeRawPointer(pointer).assumingMemoryBound(to: Float.self), name: name())
}

/// A face index argument.
private func faceIndex(_ face: UInt32) throws(FathomError) -> Int {
    guard face < 6 else { throw FathomError(.outOfRange, "face must be 0...5 (FATHOM_FACE_*), got \(face)") }
    return Int(face)
}

extension fathom_coverage_options {
    init(_ o: CoverageOptions) {
        self.init(goal: UInt32(o.goal), cells: UInt32(o.cells), rings: UInt32(o.rings), sectors: UInt32(o.sectors),
                  hemisphere: o.hemisphere.map { $0 ? 1 : 0 } ?? -1, exclude_bottom: o.excludeBottom.map { $0 ? 1 : 0 } ?? -1,
                  min_distance: o.minDistance, max_distance: o.maxDistance, min_in_view: o.minInView,
                  min_separation_angle: o.minSeparationAngle, min_separation_distance: o.minSeparationDistance, reserved: (0, 0, 0, 0))
    }
}

/// Validated coverage options (NULL: the defaults).
func coverageOptions(_ pointer: UnsafePointer<fathom_coverage_options>?) throws(FathomError) -> CoverageOptions {
    var options = CoverageOptions()
    guard let o = pointer?.pointee else { return options }
    try reserved(bytesOf: o.reserved, "options.reserved")
    func tristate(_ value: Int32, _ name: String) throws(FathomError) -> Bool? {
        guard (-1...1).contains(value) else { throw FathomError(.outOfRange, "options.\(name) must be -1, 0 or 1, got \(value)") }
        return value < 0 ? nil : value == 1
    }
    options.goal = Int(o.goal)
    options.cells = Int(o.cells)
    options.rings = Int(o.rings)
    options.sectors = Int(o.sectors)
    options.hemisphere = try tristate(o.hemisphere, "hemisphere")
    options.excludeBottom = try tristate(o.exclude_bottom, "exclude_bottom")
    options.minDistance = o.min_distance
    options.maxDistance = o.max_distance
    options.minInView = o.min_in_view
    options.minSeparationAngle = o.min_separation_angle
    options.minSeparationDistance = o.min_separation_distance
    try options.validate()
    return options
}

extension fathom_view_result {
    init(_ r: ViewResult) {
        self.init(status: r.status.rawValue, face: r.face.map(UInt32.init) ?? FATHOM_NO_HIT, cell: UInt32(r.cell), bin: UInt32(r.bin),
                  distance: r.distance, completed_face: r.completedFace.map(UInt32.init) ?? FATHOM_NO_HIT)
    }
}

@_cdecl("fathom_coverage_options_init")
public func fathom_coverage_options_init(_ options: UnsafeMutablePointer<fathom_coverage_options>?) -> fathom_status {
    abiCall("fathom_coverage_options_init") { () throws(FathomError) in
        try required(options, "options").pointee = fathom_coverage_options(CoverageOptions())
    }
}

@_cdecl("fathom_coverage_create")
public func fathom_coverage_create(_ box: UnsafePointer<fathom_box>?, _ options: UnsafePointer<fathom_coverage_options>?,
                                   _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_coverage_create") { () throws(FathomError) in
        let b = try Box(required(box, "box").pointee)
        let o = try coverageOptions(options)
        let result = try required(out, "out")
        result.pointee = retainedHandle(try CoverageTracker(box: b, options: o))
    }
}

@_cdecl("fathom_coverage_destroy")
public func fathom_coverage_destroy(_ handle: OpaquePointer?) { releaseHandle(handle, as: CoverageTracker.self) }

@_cdecl("fathom_coverage_record")
public func fathom_coverage_record(_ handle: OpaquePointer?, _ camera: UnsafePointer<fathom_pose>?, _ k: UnsafePointer<fathom_intrinsics>?,
                                   _ out: UnsafeMutablePointer<fathom_view_result>?) -> fathom_status {
    abiCall("fathom_coverage_record") { () throws(FathomError) in
        let t = try tracker(handle)
        let pose = try rigidPose(at: required(camera, "camera_to_world"), "camera_to_world")
        let lens = try k.map { k throws(FathomError) in try intrinsics(k) }
        let result = t.record(camera: pose, intrinsics: lens)
        out?.pointee = fathom_view_result(result)
    }
}

@_cdecl("fathom_coverage_record_batch")
public func fathom_coverage_record_batch(_ handle: OpaquePointer?, _ cameras: UnsafePointer<fathom_pose>?, _ count: Int,
                                         _ k: UnsafePointer<fathom_intrinsics>?,
                                         _ out: UnsafeMutablePointer<fathom_view_result>?) -> fathom_status {
    abiCall("fathom_coverage_record_batch") { () throws(FathomError) in
        let t = try tracker(handle)
        let n = try size(count, "count", minimum: 1)
        let poses = try required(cameras, "cameras_to_world")
        let lens = try k.map { k throws(FathomError) in try intrinsics(k) }
        let floats = UnsafeRawPointer(poses).assumingMemoryBound(to: Float.self)
        let name = { (i: Int) in "cameras_to_world[\(i)]" }
        // ViewRecord is fathom_view_result's layout (six 32-bit words), so the results are written in place.
        guard let out else { return try t.record(poses: floats, count: n, intrinsics: lens, poseName: name, into: nil) }
        try out.withMemoryRebound(to: ViewRecord.self, capacity: n) { records throws(FathomError) in
            try t.record(poses: floats, count: n, intrinsics: lens, poseName: name, into: records)
        }
    }
}

@_cdecl("fathom_coverage_face")
public func fathom_coverage_face(_ handle: OpaquePointer?, _ face: UInt32, _ out: UnsafeMutablePointer<fathom_face_coverage>?) -> fathom_status {
    abiCall("fathom_coverage_face") { () throws(FathomError) in
        let f = try tracker(handle).face(faceIndex(face))
        try required(out, "out").pointee = fathom_face_coverage(
            count: UInt32(f.count), progress: f.progress, color: (f.color.x, f.color.y, f.color.z), opacity: f.opacity,
            complete: f.complete, needed: f.needed)
    }
}

@_cdecl("fathom_coverage_get_summary")
public func fathom_coverage_get_summary(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_coverage_summary>?) -> fathom_status {
    abiCall("fathom_coverage_get_summary") { () throws(FathomError) in
        let t = try tracker(handle)
        let s = t.summary
        try required(out, "out").pointee = fathom_coverage_summary(
            views: UInt64(t.views), counted: UInt64(t.counted), faces_complete: UInt32(s.facesComplete),
            faces_needed: UInt32(s.facesNeeded), complete: s.complete, angular_score: s.angularScore, reserved: (0, 0, 0, 0))
    }
}

@_cdecl("fathom_coverage_cells")
public func fathom_coverage_cells(_ handle: OpaquePointer?, _ face: UInt32, _ out: UnsafeMutablePointer<UInt32>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_coverage_cells") { () throws(FathomError) in
        let t = try tracker(handle)
        let counts = t.cellCounts(face: try faceIndex(face))
        try requireCapacity(size(capacity, "capacity"), counts.count, "cells")
        let result = try required(out, "out_counts")
        for (i, c) in counts.enumerated() { result[i] = UInt32(truncatingIfNeeded: c) }
    }
}

@_cdecl("fathom_coverage_bins")
public func fathom_coverage_bins(_ handle: OpaquePointer?, _ outCounts: UnsafeMutablePointer<UInt32>?, _ outDirections: UnsafeMutablePointer<Float>?,
                                 _ capacity: Int) -> fathom_status {
    abiCall("fathom_coverage_bins") { () throws(FathomError) in
        let t = try tracker(handle)
        try requireCapacity(size(capacity, "capacity"), t.bins.count, "bins")
        let counts = try required(outCounts, "out_counts")
        for (i, c) in t.binCounts.enumerated() { counts[i] = UInt32(truncatingIfNeeded: c) }
        if let outDirections {
            for i in 0..<t.bins.count {
                let d = t.bins.centre(of: i)
                outDirections[3 * i] = d.x; outDirections[3 * i + 1] = d.y; outDirections[3 * i + 2] = d.z
            }
        }
    }
}

@_cdecl("fathom_coverage_next_view")
public func fathom_coverage_next_view(_ handle: OpaquePointer?, _ distance: Float, _ outDirection: UnsafeMutablePointer<fathom_vec3>?,
                                      _ outPosition: UnsafeMutablePointer<fathom_vec3>?) -> fathom_status {
    abiCall("fathom_coverage_next_view") { () throws(FathomError) in
        let t = try tracker(handle)
        try Check.finite(distance, "distance")
        let direction = try required(outDirection, "out_direction"), position = try required(outPosition, "out_position")
        let next = try t.nextView(distance: distance > 0 ? distance : nil)
        direction.pointee = fathom_vec3(next.direction)
        position.pointee = fathom_vec3(next.position)
    }
}

@_cdecl("fathom_coverage_reset")
public func fathom_coverage_reset(_ handle: OpaquePointer?) -> fathom_status {
    abiCall("fathom_coverage_reset") { () throws(FathomError) in try tracker(handle).reset() }
}
