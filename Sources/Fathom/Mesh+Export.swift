import CFathom
import FathomCore

// A mesh's vertices, triangles and classes as given, and saving it to PLY or OBJ — see include/fathom.h
// ("Triangle meshes and their BVH").

@_cdecl("fathom_mesh_vertices")
public func fathom_mesh_vertices(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<Float>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_mesh_vertices") { () throws(FathomError) in
        let m = try mesh(handle)
        try copyOut(m.vertices, width: 3, to: out, capacity: capacity, what: "vertices")
    }
}

@_cdecl("fathom_mesh_triangles")
public func fathom_mesh_triangles(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UInt32>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_mesh_triangles") { () throws(FathomError) in
        let m = try mesh(handle)
        try copyOut(m.indices, width: 3, to: out, capacity: capacity, what: "triangles")
    }
}

@_cdecl("fathom_mesh_classes")
public func fathom_mesh_classes(_ handle: OpaquePointer?, _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int) -> fathom_status {
    abiCall("fathom_mesh_classes") { () throws(FathomError) in
        let m = try mesh(handle)
        guard let classes = m.triangleClasses else { throw FathomError(.noData, "the mesh has no classes") }
        try copyOut(classes, to: out, capacity: capacity, what: "triangles")
    }
}

@_cdecl("fathom_mesh_save")
public func fathom_mesh_save(_ handle: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> fathom_status {
    abiCall("fathom_mesh_save") { () throws(FathomError) in
        let m = try mesh(handle)
        let path = try pathArgument(path, "path")
        try m.data.save(path: path)
    }
}
