import CFathom
import FathomCore

// Triangle meshes: handles, queries, batches — see include/fathom.h. A fathom_mesh * is a retained
// Mesh object; fathom_mesh_destroy releases it.

/// The mesh behind a `fathom_mesh *` argument (also for Mesh+Export.swift).
func mesh(_ handle: OpaquePointer?) throws(FathomError) -> Mesh { try object(handle, "mesh") }

/// The options of a batch call (NULL: tmin 0, tmax infinity, all cores).
private func batchOptions(_ options: UnsafePointer<fathom_batch_options>?) throws(FathomError) -> (tmin: Float, tmax: Float, threads: Int) {
    guard let o = options?.pointee else { return (0, .infinity, 0) }
    try reserved(bytesOf: o.reserved, "options.reserved")
    try validateRange(tmin: o.tmin, tmax: o.tmax)
    guard o.threads <= 1024 else { throw FathomError(.outOfRange, "options.threads must be <= 1024, got \(o.threads)") }
    return (o.tmin, o.tmax, Int(o.threads))
}

/// A batch's ray count: it must address less than the whole memory.
private func rayCount(_ count: Int) throws(FathomError) -> Int {
    try size(count, "count", elementBytes: MemoryLayout<fathom_ray>.stride)
}

/// The validated rays of a batch call (`count` is checked by `rayCount`).
private func rayBuffer(_ rays: UnsafePointer<fathom_ray>?, _ count: Int) throws(FathomError) -> RayBuffer {
    let base = try required(rays, "rays")
    // fathom_ray is 6 packed floats (Swift's SIMD3 would be padded to 16 bytes, so no Ray rebinding).
    let buffer = RayBuffer(base: UnsafeRawPointer(base).assumingMemoryBound(to: Float.self), count: count)
    try Mesh.validate(buffer)
    return buffer
}

@_cdecl("fathom_batch_options_init")
public func fathom_batch_options_init(_ options: UnsafeMutablePointer<fathom_batch_options>?) -> fathom_status {
    abiCall("fathom_batch_options_init") { () throws(FathomError) in
        try required(options, "options").pointee = fathom_batch_options(tmin: 0, tmax: .infinity, threads: 0, reserved: (0, 0, 0, 0))
    }
}

@_cdecl("fathom_mesh_create")
public func fathom_mesh_create(_ vertices: UnsafePointer<Float>?, _ vertexCount: Int, _ vertexStride: Int,
                               _ indices: UnsafePointer<UInt32>?, _ triangleCount: Int, _ classes: UnsafePointer<UInt8>?,
                               _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_mesh_create") { () throws(FathomError) in
        let storages: [Mesh.Storage] = [.copy, .borrow, .compact]
        guard flags < storages.count else {
            throw FathomError(.outOfRange, "flags must be FATHOM_MESH_COPY, FATHOM_MESH_BORROW or FATHOM_MESH_COMPACT, got \(flags)")
        }
        _ = try size(triangleCount, "triangle_count", elementBytes: 12)
        let out = try required(out, "out")
        let points = vertexCount == 0 ? nil
            : try pointBuffer(vertices, vertexCount, vertexStride, names: ("vertices", "vertex_count", "vertex_stride"))
        let indexBuffer = triangleCount == 0
            ? UnsafeBufferPointer<UInt32>(start: nil, count: 0)
            : UnsafeBufferPointer(start: try required(indices, "indices"), count: 3 * triangleCount)
        let classBuffer = classes.map { UnsafeBufferPointer(start: $0, count: triangleCount) }
        let created = try Mesh(vertices: points, indices: indexBuffer, classes: classBuffer,
                               storage: storages[Int(truncatingIfNeeded: flags)])
        out.pointee = retainedHandle(created)
    }
}

@_cdecl("fathom_mesh_load")
public func fathom_mesh_load(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> fathom_status {
    abiCall("fathom_mesh_load") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        let out = try required(out, "out")
        out.pointee = retainedHandle(try Mesh.make(from: MeshFile.load(path: path)))
    }
}

@_cdecl("fathom_mesh_destroy")
public func fathom_mesh_destroy(_ handle: OpaquePointer?) { releaseHandle(handle, as: Mesh.self) }

@_cdecl("fathom_mesh_get_info")
public func fathom_mesh_get_info(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<fathom_mesh_info>?) -> fathom_status {
    abiCall("fathom_mesh_get_info") { () throws(FathomError) in
        let m = try mesh(handle)
        let out = try required(out, "out")
        var info = fathom_mesh_info()
        info.vertex_count = UInt64(m.vertexCount)
        info.triangle_count = UInt64(m.triangleCount)
        info.bounds_min = fathom_vec3(m.boundsMin)
        info.bounds_max = fathom_vec3(m.boundsMax)
        info.surface_area = m.surfaceArea
        info.memory_bytes = UInt64(m.memoryBytes)
        info.bvh_bytes = UInt64(m.bvhBytes)
        info.bvh_nodes = UInt64(m.bvhNodeCount)
        info.bvh_depth = UInt32(m.bvhDepth)
        info.bvh_width = UInt32(Mesh.bvhWidth)
        out.pointee = info
    }
}

@_cdecl("fathom_mesh_face_geometry")
public func fathom_mesh_face_geometry(_ handle: OpaquePointer?, _ outNormals: UnsafeMutablePointer<Float>?,
                                      _ outAreas: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_mesh_face_geometry") { () throws(FathomError) in
        let m = try mesh(handle)
        let (normals, areas) = m.faceGeometry()
        if let outNormals {
            for (i, n) in normals.enumerated() { outNormals[3 * i] = n.x; outNormals[3 * i + 1] = n.y; outNormals[3 * i + 2] = n.z }
        }
        if let outAreas { write(areas, to: outAreas) }
    }
}

@_cdecl("fathom_mesh_intersect")
public func fathom_mesh_intersect(_ handle: OpaquePointer?, _ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float,
                                  _ out: UnsafeMutablePointer<fathom_hit>?) -> fathom_status {
    abiCall("fathom_mesh_intersect") { () throws(FathomError) in
        let m = try mesh(handle)
        let r = try castArguments(ray, tmin, tmax)
        try required(out, "out").pointee = fathom_hit(m.intersect(r, tmin: tmin, tmax: tmax))
    }
}

@_cdecl("fathom_mesh_occluded")
public func fathom_mesh_occluded(_ handle: OpaquePointer?, _ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float,
                                 _ out: UnsafeMutablePointer<Bool>?) -> fathom_status {
    abiCall("fathom_mesh_occluded") { () throws(FathomError) in
        let m = try mesh(handle)
        let r = try castArguments(ray, tmin, tmax)
        try required(out, "out_occluded").pointee = m.occluded(r, tmin: tmin, tmax: tmax)
    }
}

@_cdecl("fathom_mesh_intersect_all")
public func fathom_mesh_intersect_all(_ handle: OpaquePointer?, _ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float,
                                      _ out: UnsafeMutablePointer<fathom_hit>?, _ capacity: Int,
                                      _ outCount: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_mesh_intersect_all") { () throws(FathomError) in
        let m = try mesh(handle)
        let r = try castArguments(ray, tmin, tmax)
        let count = try required(outCount, "out_count")
        let limit = capacityLimit(capacity)
        if limit > 0 { _ = try required(out, "out") }
        let hits = m.intersectAll(r, tmin: tmin, tmax: tmax)
        count.pointee = hits.count
        if let out { for (i, hit) in hits.prefix(limit).enumerated() { out[i] = fathom_hit(hit) } }
        try requireCapacity(capacity, hits.count, "crossings; the first \(limit) were written")
    }
}

@_cdecl("fathom_mesh_intersect_batch")
public func fathom_mesh_intersect_batch(_ handle: OpaquePointer?, _ rays: UnsafePointer<fathom_ray>?, _ count: Int,
                                        _ options: UnsafePointer<fathom_batch_options>?,
                                        _ out: UnsafeMutablePointer<fathom_hit>?) -> fathom_status {
    abiCall("fathom_mesh_intersect_batch") { () throws(FathomError) in
        let m = try mesh(handle)
        guard try rayCount(count) > 0 else { return }
        let buffer = try rayBuffer(rays, count)
        let o = try batchOptions(options)
        nonisolated(unsafe) let out = try required(out, "out")
        m.intersect(buffer, tmin: o.tmin, tmax: o.tmax, threads: o.threads,
                    output: (UnsafeMutableRawPointer(out), MemoryLayout<fathom_hit>.stride)) { i, hit in out[i] = fathom_hit(hit) }
    }
}

@_cdecl("fathom_mesh_intersect_batch_compact")
public func fathom_mesh_intersect_batch_compact(_ handle: OpaquePointer?, _ rays: UnsafePointer<fathom_ray>?, _ count: Int,
                                                _ options: UnsafePointer<fathom_batch_options>?, _ outT: UnsafeMutablePointer<Float>?,
                                                _ outPrimitive: UnsafeMutablePointer<UInt32>?) -> fathom_status {
    abiCall("fathom_mesh_intersect_batch_compact") { () throws(FathomError) in
        let m = try mesh(handle)
        guard try rayCount(count) > 0 else { return }
        let buffer = try rayBuffer(rays, count)
        let o = try batchOptions(options)
        guard outT != nil || outPrimitive != nil else { throw FathomError(.nullPointer, "out_t and out_primitive are both NULL") }
        m.intersectDistances(buffer, tmin: o.tmin, tmax: o.tmax, threads: o.threads, t: outT, primitive: outPrimitive)
    }
}

@_cdecl("fathom_mesh_ray_order")
public func fathom_mesh_ray_order(_ handle: OpaquePointer?, _ rays: UnsafePointer<fathom_ray>?, _ count: Int,
                                  _ options: UnsafePointer<fathom_batch_options>?, _ out: UnsafeMutablePointer<UInt32>?) -> fathom_status {
    abiCall("fathom_mesh_ray_order") { () throws(FathomError) in
        let m = try mesh(handle)
        guard try rayCount(count) > 0 else { return }
        let buffer = try rayBuffer(rays, count)
        let o = try batchOptions(options)
        m.tracingIndices(buffer, tmin: o.tmin, tmax: o.tmax, threads: o.threads, into: try required(out, "out_order"))
    }
}

@_cdecl("fathom_mesh_occluded_batch")
public func fathom_mesh_occluded_batch(_ handle: OpaquePointer?, _ rays: UnsafePointer<fathom_ray>?, _ count: Int,
                                       _ options: UnsafePointer<fathom_batch_options>?,
                                       _ out: UnsafeMutablePointer<Bool>?) -> fathom_status {
    abiCall("fathom_mesh_occluded_batch") { () throws(FathomError) in
        let m = try mesh(handle)
        guard try rayCount(count) > 0 else { return }
        let buffer = try rayBuffer(rays, count)
        let o = try batchOptions(options)
        // A C bool is one byte holding 0 or 1: what the core writes.
        let flags = UnsafeMutableRawPointer(try required(out, "out_occluded")).assumingMemoryBound(to: UInt8.self)
        m.occluded(buffer, tmin: o.tmin, tmax: o.tmax, threads: o.threads, into: flags)
    }
}

@_cdecl("fathom_mesh_intersect_all_batch")
public func fathom_mesh_intersect_all_batch(_ handle: OpaquePointer?, _ rays: UnsafePointer<fathom_ray>?, _ count: Int,
                                            _ options: UnsafePointer<fathom_batch_options>?, _ hits: UnsafeMutablePointer<fathom_hit>?,
                                            _ capacity: Int, _ outOffsets: UnsafeMutablePointer<UInt64>?) -> fathom_status {
    abiCall("fathom_mesh_intersect_all_batch") { () throws(FathomError) in
        let m = try mesh(handle)
        _ = try rayCount(count)
        let offsets = try required(outOffsets, "out_offsets")
        guard count > 0 else { offsets[0] = 0; return }
        let buffer = try rayBuffer(rays, count)
        let o = try batchOptions(options)
        let perRay = m.intersectAll(buffer, tmin: o.tmin, tmax: o.tmax, threads: o.threads)
        let total = perRay.reduce(0) { $0 + $1.count }
        // The hits' buffer is checked before the offsets are written: a failed call writes nothing but the
        // offsets of a buffer too small, which say what to allocate.
        let out = total > 0 && fits(capacity, total) ? try required(hits, "hits") : nil
        var end = 0
        offsets[0] = 0
        for (i, list) in perRay.enumerated() { end += list.count; offsets[i + 1] = UInt64(end) }
        try requireCapacity(capacity, total, "crossings needed")
        guard let out else { return }
        var k = 0
        for list in perRay { for hit in list { out[k] = fathom_hit(hit); k += 1 } }
    }
}
