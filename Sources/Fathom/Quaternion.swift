import CFathom
import FathomCore

// Quaternions (x, y, z, w) — see include/fathom.h.

@_cdecl("fathom_quat_from_axis_angle")
public func fathom_quat_from_axis_angle(_ axis: fathom_vec3, _ angle: Float, _ out: UnsafeMutablePointer<fathom_quat>?) -> fathom_status {
    abiCall("fathom_quat_from_axis_angle") { () throws(FathomError) in
        let out = try required(out, "out")
        out.pointee = fathom_quat(try Quaternion(axis: SIMD3(axis), angle: angle))
    }
}

@_cdecl("fathom_quat_from_matrix")
public func fathom_quat_from_matrix(_ matrix: UnsafePointer<Float>?, _ out: UnsafeMutablePointer<fathom_quat>?) -> fathom_status {
    abiCall("fathom_quat_from_matrix") { () throws(FathomError) in
        let values = try floatArray(matrix, 9, "matrix")
        let out = try required(out, "out")
        let m = try Matrix3(columnMajor: values)
        out.pointee = fathom_quat(try Quaternion(checkedRotation: m))
    }
}

@_cdecl("fathom_quat_to_matrix")
public func fathom_quat_to_matrix(_ q: fathom_quat, _ out: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_quat_to_matrix") { () throws(FathomError) in
        let rotation = try Quaternion.rotation(finite(q, "q"), "q")
        write(rotation.matrix.columnMajor, to: try required(out, "out"))
    }
}

@_cdecl("fathom_quat_multiply")
public func fathom_quat_multiply(_ a: fathom_quat, _ b: fathom_quat, _ out: UnsafeMutablePointer<fathom_quat>?) -> fathom_status {
    abiCall("fathom_quat_multiply") { () throws(FathomError) in
        let product = try finite(a, "a") * finite(b, "b")
        guard product.isFinite else { throw FathomError(.notFinite, "the product of a and b overflows the float range") }
        let out = try required(out, "out")
        out.pointee = fathom_quat(product)
    }
}

@_cdecl("fathom_quat_normalize")
public func fathom_quat_normalize(_ q: fathom_quat, _ out: UnsafeMutablePointer<fathom_quat>?) -> fathom_status {
    abiCall("fathom_quat_normalize") { () throws(FathomError) in
        let unit = try finite(q, "q").normalized()
        try required(out, "out").pointee = fathom_quat(unit)
    }
}

@_cdecl("fathom_quat_slerp")
public func fathom_quat_slerp(_ a: fathom_quat, _ b: fathom_quat, _ t: Float, _ out: UnsafeMutablePointer<fathom_quat>?) -> fathom_status {
    abiCall("fathom_quat_slerp") { () throws(FathomError) in
        let qa = try Quaternion.rotation(finite(a, "a"), "a")
        let qb = try Quaternion.rotation(finite(b, "b"), "b")
        try Check.finite(t, "t")
        let result = qa.slerp(to: qb, t: t)
        try Check.finite(result.length, "result (t too large)")
        try required(out, "out").pointee = fathom_quat(result)
    }
}

@_cdecl("fathom_quat_angle_between")
public func fathom_quat_angle_between(_ a: fathom_quat, _ b: fathom_quat, _ out: UnsafeMutablePointer<Float>?) -> fathom_status {
    abiCall("fathom_quat_angle_between") { () throws(FathomError) in
        let qa = try Quaternion.rotation(finite(a, "a"), "a")
        let qb = try Quaternion.rotation(finite(b, "b"), "b")
        try required(out, "out_radians").pointee = qa.angle(to: qb)
    }
}

@_cdecl("fathom_quat_rotate")
public func fathom_quat_rotate(_ q: fathom_quat, _ v: fathom_vec3, _ out: UnsafeMutablePointer<fathom_vec3>?) -> fathom_status {
    abiCall("fathom_quat_rotate") { () throws(FathomError) in
        let rotation = try Quaternion.rotation(finite(q, "q"), "q")
        let vector = try finite(v, "v")
        try required(out, "out").pointee = fathom_vec3(rotation.rotate(vector))
    }
}
