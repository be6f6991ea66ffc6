import CFathom
import FathomCore

// Rays from pixels, pixels from points — see include/fathom.h.

@_cdecl("fathom_camera_ray")
public func fathom_camera_ray(_ k: UnsafePointer<fathom_intrinsics>?, _ camera: UnsafePointer<fathom_pose>?,
                              _ u: Float, _ v: Float, _ out: UnsafeMutablePointer<fathom_ray>?) -> fathom_status {
    abiCall("fathom_camera_ray") { () throws(FathomError) in
        let ray = try intrinsics(k).ray(camera: rigidPose(camera, "camera_to_world"), u: u, v: v)
        try required(out, "out").pointee = fathom_ray(origin: fathom_vec3(ray.origin), direction: fathom_vec3(ray.direction))
    }
}

@_cdecl("fathom_camera_project")
public func fathom_camera_project(_ k: UnsafePointer<fathom_intrinsics>?, _ camera: UnsafePointer<fathom_pose>?,
                                  _ point: fathom_vec3, _ outU: UnsafeMutablePointer<Float>?, _ outV: UnsafeMutablePointer<Float>?,
                                  _ outFlags: UnsafeMutablePointer<UInt32>?) -> fathom_status {
    abiCall("fathom_camera_project") { () throws(FathomError) in
        let p = try intrinsics(k).project(SIMD3(point), camera: rigidPose(camera, "camera_to_world"))
        let u = try required(outU, "out_u"), v = try required(outV, "out_v"), flags = try required(outFlags, "out_flags")
        u.pointee = p.u
        v.pointee = p.v
        flags.pointee = (p.behind ? UInt32(FATHOM_PROJECT_BEHIND) : 0) | (p.outside ? UInt32(FATHOM_PROJECT_OUTSIDE) : 0)
    }
}

@_cdecl("fathom_camera_grid_rays")
public func fathom_camera_grid_rays(_ k: UnsafePointer<fathom_intrinsics>?, _ camera: UnsafePointer<fathom_pose>?, _ step: UInt32,
                                    _ out: UnsafeMutablePointer<fathom_ray>?, _ capacity: Int,
                                    _ outCount: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_camera_grid_rays") { () throws(FathomError) in
        let core = try intrinsics(k)
        let pose = try rigidPose(camera, "camera_to_world")
        guard step >= 1 else { throw FathomError(.outOfRange, "step must be >= 1, got 0") }
        let count = try required(outCount, "out_count")
        let needed = core.gridCount(step: Int(step))
        let rayBytes = MemoryLayout<fathom_ray>.stride
        let rays = fits(capacity, needed, elementBytes: rayBytes) ? try required(out, "out") : nil
        count.pointee = Int(bitPattern: UInt(needed))  // size_t
        try requireCapacity(capacity, needed, "rays of the grid", elementBytes: rayBytes)
        guard let rays else { return }  // not nil: the rays fit
        let rayCount = Int(needed)
        try UnsafeMutableRawPointer(rays).withMemoryRebound(to: Float.self, capacity: 6 * rayCount) { floats throws(FathomError) in
            try core.gridRays(camera: pose, step: Int(step), into: floats)
        }
    }
}
