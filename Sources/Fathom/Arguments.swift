import CFathom
import FathomCore

/// Conversions between the header's structs and the core's types, and writes to caller buffers (the argument checks
/// are in Validation.swift).

extension SIMD3 where Scalar == Float {
    init(_ v: fathom_vec3) { self.init(v.x, v.y, v.z) }
}

extension fathom_vec3 {
    init(_ v: SIMD3<Float>) { self.init(x: v.x, y: v.y, z: v.z) }
}

extension Quaternion {
    init(_ q: fathom_quat) { self.init(q.x, q.y, q.z, q.w) }
}

extension fathom_quat {
    init(_ q: Quaternion) { self.init(x: q.vector.x, y: q.vector.y, z: q.vector.z, w: q.vector.w) }
}

/// The finite vector `v`, or a not-finite error naming it.
func finite(_ v: fathom_vec3, _ name: String) throws(FathomError) -> SIMD3<Float> {
    let vector = SIMD3<Float>(v)
    try Check.finite(vector, name)
    return vector
}

func finite(_ q: fathom_quat, _ name: String) throws(FathomError) -> Quaternion {
    for (c, value) in zip(["x", "y", "z", "w"], [q.x, q.y, q.z, q.w]) { try Check.finite(value, "\(name).\(c)") }
    return Quaternion(q)
}

/// The 16 floats of a pose struct, column-major.
func floats(_ p: fathom_pose) -> [Float] {
    withUnsafeBytes(of: p.m) { Array($0.bindMemory(to: Float.self)) }
}

extension fathom_pose {
    init(_ pose: Pose) {
        self.init()
        let values = pose.columnMajor
        withUnsafeMutableBytes(of: &m) { raw in
            for (i, v) in values.enumerated() { raw.storeBytes(of: v, toByteOffset: i * 4, as: Float.self) }
        }
    }
}

/// A rigid pose read from a pointer, or the error naming the argument.
func rigidPose(_ pointer: UnsafePointer<fathom_pose>?, _ name: String) throws(FathomError) -> Pose {
    try Pose(columnMajor: floats(required(pointer, name).pointee), name: name)
}

/// Reads `count` floats from a C array argument.
func floatArray(_ pointer: UnsafePointer<Float>?, _ count: Int, _ name: String) throws(FathomError) -> [Float] {
    let base = try required(pointer, name)
    let values = Array(UnsafeBufferPointer(start: base, count: count))
    for (i, v) in values.enumerated() where !v.isFinite {
        throw FathomError(.notFinite, "\(name)[\(i)] must be finite, got \(v)")
    }
    return values
}

/// Writes `values` to a C array argument.
func write(_ values: [Float], to pointer: UnsafeMutablePointer<Float>) {
    for (i, v) in values.enumerated() { pointer[i] = v }
}

extension Box {
    /// A validated core box from the C struct.
    init(_ b: fathom_box, name: String = "box") throws(FathomError) {
        let hasFloor = try boolField(b, \.has_floor, "\(name).has_floor")
        if hasFloor { try Check.finite(b.floor, "\(name).floor") }
        try self.init(center: finite(b.center, "\(name).center"), scale: SIMD3(b.scale),
                      rotY: b.rot_y, floor: hasFloor ? b.floor : nil)
    }
}

extension fathom_box {
    init(_ box: Box) {
        self.init(center: fathom_vec3(box.center), scale: fathom_vec3(box.scale), rot_y: box.rotY,
                  floor: box.floor ?? 0, has_floor: box.floor != nil)
    }
}

extension OrientedBox {
    init(_ b: fathom_obb, name: String = "obb") throws(FathomError) {
        try self.init(center: finite(b.center, "\(name).center"), scale: SIMD3(b.scale),
                      rotation: finite(b.rotation, "\(name).rotation"))
    }
}

extension fathom_obb {
    init(_ box: OrientedBox) {
        self.init(center: fathom_vec3(box.center), scale: fathom_vec3(box.scale), rotation: fathom_quat(box.rotation))
    }
}

extension Ray {
    init(_ r: fathom_ray) { self.init(origin: SIMD3(r.origin), direction: SIMD3(r.direction)) }
}

/// A validated ray and range read from the C arguments.
func castArguments(_ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float) throws(FathomError) -> Ray {
    let r = Ray(try required(ray, "ray").pointee)
    try r.validate()
    try validateRange(tmin: tmin, tmax: tmax)
    return r
}

extension fathom_hit {
    /// The C hit of a core hit; a miss is primitive FATHOM_NO_HIT, t = +infinity, the rest 0.
    init(_ hit: Hit?) {
        self.init()
        guard let hit else {
            t = .infinity
            primitive = FATHOM_NO_HIT
            return
        }
        t = hit.t
        point = fathom_vec3(hit.point)
        normal = fathom_vec3(hit.normal)
        u = hit.u
        v = hit.v
        primitive = hit.primitive
        classification = hit.classification
        front_face = hit.frontFace
    }
}

/// Validated core intrinsics from the C struct.
func intrinsics(_ pointer: UnsafePointer<fathom_intrinsics>?, _ name: String = "intrinsics") throws(FathomError) -> Intrinsics {
    let k = try required(pointer, name).pointee
    return try Intrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: Int(k.width), height: Int(k.height))
}

/// Writes `text` and a terminating NUL to a C buffer of `capacity` bytes (`writeBytes`).
func writeText(_ text: String, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
               _ outLength: UnsafeMutablePointer<Int>?) throws(FathomError) {
    try writeBytes(Array(text.utf8), terminated: true, buffer, capacity, outLength)
}

/// Writes `bytes` (and a NUL when `terminated`) to a C buffer of `capacity` bytes; *out_length gets bytes.count.
/// A buffer too small gets nothing but *out_length (what to allocate) and a buffer-too-small error; a NULL
/// buffer that would be written is an error before anything is written.
func writeBytes(_ bytes: [UInt8], terminated: Bool, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
                _ outLength: UnsafeMutablePointer<Int>?) throws(FathomError) {
    let length = try required(outLength, "out_length")
    let needed = bytes.count + (terminated ? 1 : 0)
    let out = fits(capacity, needed) && needed > 0 ? try required(buffer, "buffer") : nil
    length.pointee = bytes.count
    try requireCapacity(capacity, needed, "bytes needed")
    guard let out else { return }
    for (i, b) in bytes.enumerated() { out[i] = CChar(bitPattern: b) }
    if terminated { out[bytes.count] = 0 }
}

/// Copies `values` (`width` values an element) into a caller's array of `capacity` elements, after the capacity
/// check (`what` names the elements); `out` may be NULL when there is nothing to copy.
func copyOut<T>(_ values: [T], width: Int = 1, to out: UnsafeMutablePointer<T>?, capacity: Int, what: String) throws(FathomError) {
    let count = values.count / width
    try requireCapacity(capacity, count, "\(what) needed")
    guard count > 0 else { return }
    let out = try required(out, "out")
    values.withUnsafeBufferPointer { out.update(from: $0.baseAddress.unsafelyUnwrapped, count: $0.count) }
}
