import CFathom
import FathomCore

// General oriented boxes: culling, signed distances, fits — see include/fathom.h.

@_cdecl("fathom_obb_check")
public func fathom_obb_check(_ obb: UnsafePointer<fathom_obb>?) -> fathom_status {
    abiCall("fathom_obb_check") { () throws(FathomError) in _ = try OrientedBox(required(obb, "obb").pointee) }
}

@_cdecl("fathom_obb_corners")
public func fathom_obb_corners(_ obb: UnsafePointer<fathom_obb>?, _ out: UnsafeMutablePointer<fathom_vec3>?) -> fathom_status {
    abiCall("fathom_obb_corners") { () throws(FathomError) in
        let corners = try OrientedBox(required(obb, "obb").pointee).corners
        let out = try required(out, "out_corners")
        for (i, c) in corners.enumerated() { out[i] = fathom_vec3(c) }
    }
}

@_cdecl("fathom_obb_volume")
public func fathom_obb_volume(_ obb: UnsafePointer<fathom_obb>?, _ out: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_obb_volume") { () throws(FathomError) in
        let volume = try OrientedBox(required(obb, "obb").pointee).volume
        try required(out, "out_volume").pointee = volume
    }
}

@_cdecl("fathom_obb_count_inside")
public func fathom_obb_count_inside(_ obb: UnsafePointer<fathom_obb>?, _ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                                    _ outInside: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_obb_count_inside") { () throws(FathomError) in
        let box = try OrientedBox(required(obb, "obb").pointee)
        let buffer = try pointBuffer(points, count, stride)
        let out = try required(outInside, "out_inside")
        out.pointee = box.countInside(buffer)
    }
}

@_cdecl("fathom_obb_mask_inside")
public func fathom_obb_mask_inside(_ obb: UnsafePointer<fathom_obb>?, _ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                                   _ outMask: UnsafeMutablePointer<UInt8>?, _ outInside: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_obb_mask_inside") { () throws(FathomError) in
        let box = try OrientedBox(required(obb, "obb").pointee)
        let buffer = try pointBuffer(points, count, stride)
        let mask = try required(outMask, "out_mask")
        let inside = box.maskInside(buffer, mask: mask)
        outInside?.pointee = inside
    }
}

@_cdecl("fathom_obb_indices_inside")
public func fathom_obb_indices_inside(_ obb: UnsafePointer<fathom_obb>?, _ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                                      _ outIndices: UnsafeMutablePointer<UInt64>?, _ capacity: Int,
                                      _ outInside: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_obb_indices_inside") { () throws(FathomError) in
        let box = try OrientedBox(required(obb, "obb").pointee)
        let buffer = try pointBuffer(points, count, stride)
        let out = try required(outInside, "out_inside")
        let limit = capacityLimit(capacity)
        if limit > 0 { _ = try required(outIndices, "out_indices") }
        let inside = box.indicesInside(buffer, into: outIndices, capacity: limit)
        out.pointee = inside
        try requireCapacity(capacity, inside, "points inside; the first \(limit) were written")
    }
}

@_cdecl("fathom_obb_signed_distances")
public func fathom_obb_signed_distances(_ obb: UnsafePointer<fathom_obb>?, _ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                                        _ outDistances: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_obb_signed_distances") { () throws(FathomError) in
        let box = try OrientedBox(required(obb, "obb").pointee)
        let buffer = try pointBuffer(points, count, stride)
        let out = try required(outDistances, "out_distances")
        try buffer.requireFinite()
        box.signedDistances(buffer, into: out)
    }
}

@_cdecl("fathom_obb_fit_pca")
public func fathom_obb_fit_pca(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                               _ out: UnsafeMutablePointer<fathom_obb>?, _ outVolume: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_obb_fit_pca") { () throws(FathomError) in
        let buffer = try pointBuffer(points, count, stride)
        let out = try required(out, "out")
        let volume = try required(outVolume, "out_volume")
        let box = try OrientedBox.fitPCA(buffer)
        out.pointee = fathom_obb(box)
        volume.pointee = box.volume
    }
}

@_cdecl("fathom_box_fit_upright")
public func fathom_box_fit_upright(_ points: UnsafePointer<Float>?, _ count: Int, _ stride: Int,
                                   _ out: UnsafeMutablePointer<fathom_box>?, _ outVolume: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_box_fit_upright") { () throws(FathomError) in
        let buffer = try pointBuffer(points, count, stride)
        let out = try required(out, "out")
        let volume = try required(outVolume, "out_volume")
        let box = try Box.fitUpright(buffer)
        out.pointee = fathom_box(box)
        volume.pointee = box.scale.x * box.scale.y * box.scale.z
    }
}
