import CFathom
import FathomCore

// Camera intrinsics — see include/fathom.h.

@_cdecl("fathom_intrinsics_scale")
public func fathom_intrinsics_scale(_ intrinsics: UnsafePointer<fathom_intrinsics>?, _ width: UInt32, _ height: UInt32,
                                    _ out: UnsafeMutablePointer<fathom_intrinsics>?) -> fathom_status {
    abiCall("fathom_intrinsics_scale") { () throws(FathomError) in
        let k = try required(intrinsics, "intrinsics").pointee
        let core = try Intrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: Int(k.width), height: Int(k.height))
        let scaled = try core.scaled(width: Int(width), height: Int(height))
        try required(out, "out").pointee = fathom_intrinsics(fx: scaled.fx, fy: scaled.fy, cx: scaled.cx, cy: scaled.cy,
                                                             width: width, height: height)
    }
}
