import CFathom
import FathomCore

// boundingbox.json — see include/fathom.h.

@_cdecl("fathom_box_manifest_write")
public func fathom_box_manifest_write(_ box: UnsafePointer<fathom_box>?, _ buffer: UnsafeMutablePointer<CChar>?,
                                      _ capacity: Int, _ outLength: UnsafeMutablePointer<Int>?) -> fathom_status {
    abiCall("fathom_box_manifest_write") {
        let json = Array(try Box(required(box, "box").pointee).manifestJSON().utf8)
        let length = try required(outLength, "out_length")
        length.pointee = json.count
        // capacity arrives negative when the size_t exceeds Int.max: then it is certainly large enough.
        guard capacity < 0 || capacity > json.count else {
            throw ArgumentError(status: FATHOM_ERR_BUFFER_TOO_SMALL,
                                message: "capacity \(capacity) is less than the \(json.count + 1) bytes needed")
        }
        let buffer = try required(buffer, "buffer")
        json.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress!, byteCount: json.count)
        }
        buffer[json.count] = 0
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
