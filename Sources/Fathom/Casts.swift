import CFathom
import FathomCore

// Ray casts against planes, spheres, oriented boxes and triangles — see include/fathom.h.

@_cdecl("fathom_ray_plane")
public func fathom_ray_plane(_ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float, _ point: fathom_vec3,
                             _ normal: fathom_vec3, _ out: UnsafeMutablePointer<fathom_hit>?) -> fathom_status {
    abiCall("fathom_ray_plane") { () throws(FathomError) in
        let r = try castArguments(ray, tmin, tmax)
        let hit = try PrimitiveCast.plane(r, tmin: tmin, tmax: tmax, point: SIMD3(point), normal: SIMD3(normal))
        try required(out, "out").pointee = fathom_hit(hit)
    }
}

@_cdecl("fathom_ray_floor")
public func fathom_ray_floor(_ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float, _ height: Float,
                             _ out: UnsafeMutablePointer<fathom_hit>?) -> fathom_status {
    abiCall("fathom_ray_floor") { () throws(FathomError) in
        let r = try castArguments(ray, tmin, tmax)
        try Check.finite(height, "height")
        let hit = try PrimitiveCast.plane(r, tmin: tmin, tmax: tmax, point: SIMD3(0, height, 0), normal: SIMD3(0, 1, 0))
        try required(out, "out").pointee = fathom_hit(hit)
    }
}

@_cdecl("fathom_ray_sphere")
public func fathom_ray_sphere(_ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float, _ center: fathom_vec3,
                              _ radius: Float, _ out: UnsafeMutablePointer<fathom_hit>?) -> fathom_status {
    abiCall("fathom_ray_sphere") { () throws(FathomError) in
        let r = try castArguments(ray, tmin, tmax)
        let hit = try PrimitiveCast.sphere(r, tmin: tmin, tmax: tmax, center: SIMD3(center), radius: radius)
        try required(out, "out").pointee = fathom_hit(hit)
    }
}

@_cdecl("fathom_ray_obb")
public func fathom_ray_obb(_ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float, _ obb: UnsafePointer<fathom_obb>?,
                           _ out: UnsafeMutablePointer<fathom_box_hit>?) -> fathom_status {
    abiCall("fathom_ray_obb") { () throws(FathomError) in
        let r = try castArguments(ray, tmin, tmax)
        let box = try OrientedBox(required(obb, "obb").pointee)
        let out = try required(out, "out")
        let c = PrimitiveCast.orientedBox(r, tmin: tmin, tmax: tmax, box: box)
        var result = fathom_box_hit()
        result.hit = fathom_hit(c.hit)
        result.origin_inside = c.originInside
        if c.hit != nil {
            result.t_enter = c.tEnter
            result.t_exit = c.tExit
            result.face_enter = UInt32(c.faceEnter)
            result.face_exit = UInt32(c.faceExit)
        }
        out.pointee = result
    }
}

@_cdecl("fathom_ray_triangle")
public func fathom_ray_triangle(_ ray: UnsafePointer<fathom_ray>?, _ tmin: Float, _ tmax: Float, _ v0: fathom_vec3,
                                _ v1: fathom_vec3, _ v2: fathom_vec3, _ out: UnsafeMutablePointer<fathom_hit>?) -> fathom_status {
    abiCall("fathom_ray_triangle") { () throws(FathomError) in
        let r = try castArguments(ray, tmin, tmax)
        let hit = try PrimitiveCast.triangle(r, tmin: tmin, tmax: tmax, SIMD3(v0), SIMD3(v1), SIMD3(v2))
        try required(out, "out").pointee = fathom_hit(hit)
    }
}
