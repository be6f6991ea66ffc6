import FathomCore

/// A method of a box value. Methods that edit the box mutate the variable they are called on.
struct BoxMethod {
    let usage: String
    let summary: String
    let run: (inout Box, Arguments) throws -> Value
}

let boxMethodOrder = ["set_center", "update_center", "update_center_in_camera", "set_center_on_floor", "set_scale",
                      "update_scale", "set_angle", "update_angle", "set_floor", "clear_floor", "extend_side", "shrink_side",
                      "tap_place", "tap_face", "corners", "faces", "face_distances", "to_obb", "manifest", "save", "volume"]

let boxMethods: [String: BoxMethod] = [
    "set_center": BoxMethod(usage: "b.set_center(center)", summary: "move the centre; prints the new centre") { b, a in
        try a.expect(1...1); try b.setCenter(a.vector3(0, "center")); return vector(b.center)
    },
    "update_center": BoxMethod(usage: "b.update_center(offset)", summary: "centre += offset (world)") { b, a in
        try a.expect(1...1); try b.updateCenter(a.vector3(0, "offset")); return vector(b.center)
    },
    "update_center_in_camera": BoxMethod(usage: "b.update_center_in_camera(offset, camera)", summary: "centre += R_camera * offset") { b, a in
        try a.expect(2...2); try b.updateCenter(a.vector3(0, "offset"), inFrameOf: a.pose(1, "camera")); return vector(b.center)
    },
    "set_center_on_floor": BoxMethod(usage: "b.set_center_on_floor(x, z)", summary: "stand the box on its floor at (x, z)") { b, a in
        try a.expect(2...2); try b.setCenterOnFloor(x: a.float(0, "x"), z: a.float(1, "z")); return vector(b.center)
    },
    "set_scale": BoxMethod(usage: "b.set_scale(scale)", summary: "set the extents (re-seats on the floor); prints centre and scale") { b, a in
        try a.expect(1...1); try b.setScale(a.vector3(0, "scale")); return .list([vector(b.center), vector(b.scale)])
    },
    "update_scale": BoxMethod(usage: "b.update_scale(multiplier)", summary: "scale *= multiplier per axis (re-seats on the floor)") { b, a in
        try a.expect(1...1); try b.updateScale(a.vector3(0, "multiplier")); return .list([vector(b.center), vector(b.scale)])
    },
    "set_angle": BoxMethod(usage: "b.set_angle(radians)", summary: "rot_y = angle (write 30deg for degrees)") { b, a in
        try a.expect(1...1); try b.setAngle(a.float(0, "radians")); return .number(Double(b.rotY))
    },
    "update_angle": BoxMethod(usage: "b.update_angle(radians)", summary: "rot_y += angle") { b, a in
        try a.expect(1...1); try b.updateAngle(a.float(0, "radians")); return .number(Double(b.rotY))
    },
    "set_floor": BoxMethod(usage: "b.set_floor(height)", summary: "set the floor height; bottom corners clamp to it") { b, a in
        try a.expect(1...1); try b.setFloor(a.float(0, "height")); return .number(Double(b.floor ?? 0))
    },
    "clear_floor": BoxMethod(usage: "b.clear_floor()", summary: "remove the floor") { b, a in
        try a.expect(0...0); b.clearFloor(); return .none
    },
    "extend_side": BoxMethod(usage: "b.extend_side(offset)", summary: "push the face on the offset's side out by |offset| (local)") { b, a in
        try a.expect(1...1); try b.extendSide(a.vector3(0, "offset")); return .list([vector(b.center), vector(b.scale)])
    },
    "shrink_side": BoxMethod(usage: "b.shrink_side(offset)", summary: "pull the opposite face in by |offset| (refuses scale <= 0)") { b, a in
        try a.expect(1...1); try b.shrinkSide(a.vector3(0, "offset")); return .list([vector(b.center), vector(b.scale)])
    },
    "tap_place": BoxMethod(usage: "b.tap_place(k, camera, u, v [, mesh])", summary: "stand the box on its floor where the tap's ray hits") { b, a in
        try a.expect(4...5)
        let placed = try TapFlows.placeBox(&b, intrinsics: a.camera(0, "k"), camera: a.pose(1, "camera"), u: a.float(2, "u"), v: a.float(3, "v"),
                                           mesh: a.count > 4 ? a.mesh(4, "mesh") : nil)
        return placed ? vector(b.center) : .string("the tap's ray hits nothing: box unchanged")
    },
    "tap_face": BoxMethod(usage: "b.tap_face(k, camera, u, v)", summary: "which face of the box is under the screen point") { b, a in
        try a.expect(4...4)
        let face = try TapFlows.boxFace(b, intrinsics: a.camera(0, "k"), camera: a.pose(1, "camera"), u: a.float(2, "u"), v: a.float(3, "v"))
        return .string(face.map { Box.faceNames[$0] } ?? "none")
    },
    "corners": BoxMethod(usage: "b.corners()", summary: "the 8 corners, in the capture app's order") { b, a in
        try a.expect(0...0)
        return .list(zip(Box.cornerNames, b.corners).map { .string("\($0) \(format($1))") })
    },
    "faces": BoxMethod(usage: "b.faces()", summary: "centre, outward normal and orientation of each face") { b, a in
        try a.expect(0...0)
        return .list(zip(Box.faceNames, try b.faces()).map {
            .string("\($0) center=\(format($1.center)) normal=\(format($1.normal)) orientation=\(format($1.orientation))")
        })
    },
    "face_distances": BoxMethod(usage: "b.face_distances(point)", summary: "signed distance from a point to each face plane") { b, a in
        try a.expect(1...1)
        return .list(zip(Box.faceNames, try b.faceDistances(a.vector3(0, "point"))).map { .string("\($0) \(format($1))") })
    },
    "to_obb": BoxMethod(usage: "b.to_obb()", summary: "the general oriented box of the corners") { b, a in
        try a.expect(0...0); return .obb(try b.orientedBox())
    },
    "manifest": BoxMethod(usage: "b.manifest()", summary: "the boundingbox.json text") { b, a in
        try a.expect(0...0); return .string(b.manifestJSON())
    },
    "save": BoxMethod(usage: "b.save(\"boundingbox.json\")", summary: "write the manifest file") { b, a in
        try a.expect(1...1)
        let path = try a.string(0, "path")
        try b.saveManifest(to: path)
        return .string("wrote \(path)")
    },
    "volume": BoxMethod(usage: "b.volume()", summary: "volume of the (floor-clamped) box, cubic meters") { b, a in
        try a.expect(0...0); return .number(Double(try b.orientedBox().volume))
    },
]
