import CFathom
import FathomCore

// boundingbox.json — see include/fathom.h.

@_cdecl("fathom_box_manifest_write")
public func fathom_box_manifest_write(_ box: UnsafePointer<fathom_box>?, _ buffer: UnsafeMutablePointer<CChar>?,
                                      _ capacity: Int, _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_box_manifest_write") {
        try writeText(Box(required(box, "box").pointee).manifestJSON(), buffer, capacity, outLength)
    }
}

@_cdecl("fathom_box_manifest_read")
public func fathom_box_manifest_read(_ json: UnsafePointer<CChar>?, _ length: Int, _ out: UnsafeMutablePointer<fathom_box>?) -> fathom_status {
    abiCall("fathom_box_manifest_read") {
        let text = try required(json, "json")
        guard length >= 0 else { throw ArgumentError(status: FATHOM_ERR_OVERFLOW, message: "length is too large") }
        let out = try required(out, "out")
        let bytes = UnsafeRawBufferPointer(start: text, count: length)
        out.pointee = fathom_box(try Box(manifestJSON: bytes))
    }
}

@_cdecl("fathom_box_manifest_save")
public func fathom_box_manifest_save(_ box: UnsafePointer<fathom_box>?, _ path: UnsafePointer<CChar>?) -> fathom_status {
    abiCall("fathom_box_manifest_save") {
        let core = try Box(required(box, "box").pointee)
        try core.saveManifest(to: String(cString: required(path, "path")))
    }
}

@_cdecl("fathom_box_manifest_load")
public func fathom_box_manifest_load(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<fathom_box>?) -> fathom_status {
    abiCall("fathom_box_manifest_load") {
        let path = String(cString: try required(path, "path"))
        let out = try required(out, "out")
        out.pointee = fathom_box(try Box(manifestAt: path))
    }
}
