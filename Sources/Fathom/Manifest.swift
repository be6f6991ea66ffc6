import CFathom
import FathomCore

// boundingbox.json — see include/fathom.h.

@_cdecl("fathom_box_manifest_write")
public func fathom_box_manifest_write(_ box: UnsafePointer<fathom_box>?, _ buffer: UnsafeMutablePointer<CChar>?,
                                      _ capacity: Int, _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_box_manifest_write") { () throws(FathomError) in
        try writeText(Box(required(box, "box").pointee).manifestJSON(), buffer, capacity, outLength)
    }
}

@_cdecl("fathom_box_manifest_read")
public func fathom_box_manifest_read(_ json: UnsafePointer<CChar>?, _ length: Int, _ out: UnsafeMutablePointer<fathom_box>?) -> fathom_status {
    abiCall("fathom_box_manifest_read") { () throws(FathomError) in
        let text = try required(json, "json")
        let length = try size(length, "length")
        let out = try required(out, "out")
        let bytes = UnsafeRawBufferPointer(start: text, count: length)
        out.pointee = fathom_box(try Box(manifestJSON: bytes))
    }
}

@_cdecl("fathom_box_manifest_save")
public func fathom_box_manifest_save(_ box: UnsafePointer<fathom_box>?, _ path: UnsafePointer<CChar>?) -> fathom_status {
    abiCall("fathom_box_manifest_save") { () throws(FathomError) in
        let core = try Box(required(box, "box").pointee)
        try core.saveManifest(to: pathArgument(path, "path"))
    }
}

@_cdecl("fathom_box_manifest_load")
public func fathom_box_manifest_load(_ path: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<fathom_box>?) -> fathom_status {
    abiCall("fathom_box_manifest_load") { () throws(FathomError) in
        let path = try pathArgument(path, "path")
        let out = try required(out, "out")
        out.pointee = fathom_box(try Box(manifestAt: path))
    }
}
