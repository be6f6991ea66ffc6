import FathomCore
import Glibc

/// A REPL function: its usage line, one-line summary, and implementation.
struct Builtin {
    let usage: String
    let summary: String
    let run: (Arguments) throws -> Value
}

/// Global functions, grouped for `help`.
let builtinGroups: [(title: String, names: [String])] = [
    ("Output", ["print"]),
    ("Numbers and rotations", ["deg", "rad", "sqrt", "abs", "min", "max", "quat", "quat_matrix", "matrix_quat", "qmul", "normalize", "slerp", "angle_between", "rotate"]),
    ("Poses", ["pose", "pose_rows", "pose_columns", "identity", "compose", "inverse", "apply", "apply_dir", "yaw", "distance",
               "orthonormalize", "rotation", "translation", "rows", "columns", "convert_pose"]),
    ("Cameras", ["intrinsics", "scale_intrinsics", "pixel_ray", "project"]),
    ("Rays and meshes", ["cast_plane", "cast_floor", "cast_sphere", "cast_box", "cast_triangle", "icosphere", "floor_mesh",
                         "load_mesh", "cast", "cast_all", "occluded", "tap_floor"]),
    ("Boxes", ["box", "obb", "load_manifest", "fit_pca", "fit_upright"]),
    ("Point clouds", ["random_points", "count_inside", "indices_inside", "signed_distance"]),
    ("Tags and labels", ["tag_world", "snap_vertical", "rotate_cov", "fuse", "label"]),
    ("Depth and lengths", ["depth_formula", "load_depth", "mask_formula", "backproject", "depth_at", "depth_point",
                           "fit_line", "fit_plane", "measure", "measure_mask", "measure_midline", "mask_ends", "measure_ends"]),
    ("Files: point clouds and camera poses", ["read_ply", "write_ply", "read_transforms"]),
    ("Capture guidance", ["look_at", "coverage", "record", "record_orbit", "face_coverage", "next_view", "motion", "move", "walk"]),
    ("Scans and reports", ["open_scan", "scan_frame", "scan_pose", "scan_warnings", "scan_cloud", "convert_scan", "scan_report",
                           "report_box", "save_report", "demo_scan"]),
]

/// Every global function: these and the depth ones (DepthBuiltins.swift).
let builtins = coreBuiltins.merging(depthBuiltins) { core, _ in core }.merging(guidanceBuiltins) { core, _ in core }
    .merging(fileBuiltins) { core, _ in core }
    .merging(scanBuiltins) { core, _ in core }

let coreBuiltins: [String: Builtin] = [
    "print": Builtin(usage: "print(value, ...)", summary: "prints the values on one line (strings as they are)") { a in
        .string(a.values.map(format).joined(separator: " "))
    },
    "deg": Builtin(usage: "deg(radians)", summary: "radians to degrees (write 30deg for 30 degrees in radians)") { a in
        try a.expect(1...1); return .number(try a.number(0, "radians") * 180 / .pi)
    },
    "sqrt": Builtin(usage: "sqrt(x)", summary: "square root (x >= 0)") { a in
        try a.expect(1...1)
        let x = try a.number(0, "x")
        guard x >= 0 else { throw FathomError(.outOfRange, "x must be >= 0, got \(format(x))") }
        return .number(x.squareRoot())
    },
    "abs": Builtin(usage: "abs(x)", summary: "absolute value") { a in
        try a.expect(1...1); return .number(Swift.abs(try a.number(0, "x")))
    },
    "min": Builtin(usage: "min(a, b)", summary: "the smaller number") { a in
        try a.expect(2...2); return .number(Swift.min(try a.number(0, "a"), try a.number(1, "b")))
    },
    "max": Builtin(usage: "max(a, b)", summary: "the larger number") { a in
        try a.expect(2...2); return .number(Swift.max(try a.number(0, "a"), try a.number(1, "b")))
    },
    "rad": Builtin(usage: "rad(degrees)", summary: "degrees to radians") { a in
        try a.expect(1...1); return .number(try a.number(0, "degrees") * .pi / 180)
    },
    "quat": Builtin(usage: "quat(axis, angle)", summary: "rotation quaternion (x, y, z, w) from an axis and an angle (radians)") { a in
        try a.expect(2...2); return vector(try Quaternion(axis: a.vector3(0, "axis"), angle: a.float(1, "angle")))
    },
    "quat_matrix": Builtin(usage: "quat_matrix(q)", summary: "3x3 rotation matrix of q, 9 numbers column-major") { a in
        try a.expect(1...1)
        return .vector(try Quaternion.rotation(a.quaternion(0, "q"), "q").matrix.columnMajor.map(Double.init))
    },
    "matrix_quat": Builtin(usage: "matrix_quat(m9)", summary: "quaternion of a 3x3 rotation given as 9 numbers column-major") { a in
        try a.expect(1...1)
        let m = try Matrix3(columnMajor: a.floats(0, "m9", count: 9))
        return vector(try Quaternion(checkedRotation: m))
    },
    "qmul": Builtin(usage: "qmul(a, b)", summary: "Hamilton product a * b (b first, then a)") { a in
        try a.expect(2...2); return vector(try a.quaternion(0, "a") * a.quaternion(1, "b"))
    },
    "normalize": Builtin(usage: "normalize(q)", summary: "q / |q|") { a in
        try a.expect(1...1); return vector(try a.quaternion(0, "q").normalized())
    },
    "slerp": Builtin(usage: "slerp(a, b, t)", summary: "spherical interpolation of rotations, t = 0 gives a, 1 gives b") { a in
        try a.expect(3...3)
        let qa = try Quaternion.rotation(a.quaternion(0, "a"), "a"), qb = try Quaternion.rotation(a.quaternion(1, "b"), "b")
        return vector(qa.slerp(to: qb, t: try a.float(2, "t")))
    },
    "angle_between": Builtin(usage: "angle_between(a, b)", summary: "angle of the rotation from a to b, radians") { a in
        try a.expect(2...2)
        let qa = try Quaternion.rotation(a.quaternion(0, "a"), "a"), qb = try Quaternion.rotation(a.quaternion(1, "b"), "b")
        return .number(Double(qa.angle(to: qb)))
    },
    "rotate": Builtin(usage: "rotate(q, v)", summary: "v rotated by q") { a in
        try a.expect(2...2); return vector(try Quaternion.rotation(a.quaternion(0, "q"), "q").rotate(a.vector3(1, "v")))
    },
    "pose": Builtin(usage: "pose(q, t)", summary: "rigid pose from a rotation quaternion and a translation") { a in
        try a.expect(2...2); return .pose(try Pose(rotation: a.quaternion(0, "q"), translation: a.vector3(1, "t")))
    },
    "pose_rows": Builtin(usage: "pose_rows(m16)", summary: "pose from 16 numbers row by row (as NeRF-style files nest them)") { a in
        try a.expect(1...1); return .pose(try Pose(rowMajor: a.floats(0, "m16", count: 16)))
    },
    "pose_columns": Builtin(usage: "pose_columns(m16)", summary: "pose from 16 numbers column by column (simd / ARKit order)") { a in
        try a.expect(1...1); return .pose(try Pose(columnMajor: a.floats(0, "m16", count: 16)))
    },
    "identity": Builtin(usage: "identity()", summary: "the identity pose") { a in
        try a.expect(0...0); return .pose(.identity)
    },
    "compose": Builtin(usage: "compose(a, b)", summary: "a * b: pose b followed by a (also written a * b)") { a in
        try a.expect(2...2); return .pose(try a.pose(0, "a") * a.pose(1, "b"))
    },
    "convert_pose": Builtin(usage: "convert_pose(p, from, to)",
                            summary: "a pose in another tool's convention: \"arkit\", \"opencv\" or \"opencv_world_to_camera\"") { a in
        try a.expect(3...3)
        func convention(_ i: Int, _ name: String) throws -> PoseConvention {
            let text = try a.string(i, name)
            guard let c = PoseConvention.allCases.first(where: { $0.name == text.lowercased() }) else {
                throw FathomError(.outOfRange, "\(name) must be \"arkit\", \"opencv\" or \"opencv_world_to_camera\", got \"\(text)\"; usage: \(a.usage)")
            }
            return c
        }
        let p = try a.pose(0, "p"), from = try convention(1, "from"), to = try convention(2, "to")
        return .pose(try p.converted(from: from, to: to))
    },
    "inverse": Builtin(usage: "inverse(p)", summary: "inverse of a rigid pose") { a in
        try a.expect(1...1); return .pose(try a.pose(0, "p").inverse)
    },
    "apply": Builtin(usage: "apply(p, point)", summary: "pose applied to a point (also written p * point)") { a in
        try a.expect(2...2); return vector(try a.pose(0, "p").apply(point: a.vector3(1, "point")))
    },
    "apply_dir": Builtin(usage: "apply_dir(p, direction)", summary: "pose's rotation applied to a direction") { a in
        try a.expect(2...2); return vector(try a.pose(0, "p").apply(direction: a.vector3(1, "direction")))
    },
    "yaw": Builtin(usage: "yaw(p)", summary: "heading of a pose about +y, radians in (-pi, pi]") { a in
        try a.expect(1...1); return .number(Double(try a.pose(0, "p").yaw))
    },
    "distance": Builtin(usage: "distance(a, b)", summary: "(meters, radians) between two poses") { a in
        try a.expect(2...2)
        let d = try a.pose(0, "a").distance(to: a.pose(1, "b"))
        return .vector([Double(d.meters), Double(d.radians)])
    },
    "orthonormalize": Builtin(usage: "orthonormalize(m16, max_deviation)", summary: "nearest rigid pose to a 4x4 column-major matrix (LAPACK SVD)") { a in
        try a.expect(2...2)
        return .pose(try Pose.orthonormalized(columnMajor: a.floats(0, "m16", count: 16), maxDeviation: a.float(1, "max_deviation")))
    },
    "rotation": Builtin(usage: "rotation(p)", summary: "the rotation of a pose as a quaternion (x, y, z, w), w >= 0") { a in
        try a.expect(1...1); return vector(try a.pose(0, "p").quaternion)
    },
    "translation": Builtin(usage: "translation(p)", summary: "the translation of a pose") { a in
        try a.expect(1...1); return vector(try a.pose(0, "p").translation)
    },
    "rows": Builtin(usage: "rows(p)", summary: "the 16 numbers of a pose, row by row") { a in
        try a.expect(1...1); return .vector(try a.pose(0, "p").rowMajor.map(Double.init))
    },
    "columns": Builtin(usage: "columns(p)", summary: "the 16 numbers of a pose, column by column (simd / ARKit order)") { a in
        try a.expect(1...1); return .vector(try a.pose(0, "p").columnMajor.map(Double.init))
    },
    "intrinsics": Builtin(usage: "intrinsics((fx, fy, cx, cy), (w, h))", summary: "pinhole camera intrinsics in pixels of a w x h image") { a in
        try a.expect(2...2)
        let k = try a.floats(0, "(fx, fy, cx, cy)", count: 4), size = try a.floats(1, "(w, h)", count: 2)
        for v in size where v.rounded() != v || !(1...1e9).contains(v) {
            throw FathomError(.outOfRange, "w and h must be whole numbers of pixels >= 1, got \(v)")
        }
        return .camera(try Intrinsics(fx: k[0], fy: k[1], cx: k[2], cy: k[3], width: Int(size[0]), height: Int(size[1])))
    },
    "pixel_ray": Builtin(usage: "pixel_ray(k, camera, u, v)", summary: "ray (origin, direction) through pixel (u, v); pixel centres at +0.5") { a in
        try a.expect(4...4)
        let r = try a.camera(0, "k").ray(camera: a.pose(1, "camera"), u: a.float(2, "u"), v: a.float(3, "v"))
        return .vector([r.origin.x, r.origin.y, r.origin.z, r.direction.x, r.direction.y, r.direction.z].map(Double.init))
    },
    "project": Builtin(usage: "project(k, camera, point)", summary: "pixel (u, v) of a world point, or where it is not visible") { a in
        try a.expect(3...3)
        let p = try a.camera(0, "k").project(a.vector3(2, "point"), camera: a.pose(1, "camera"))
        if p.behind { return .string("behind the camera") }
        return .string("(\(format(p.u)), \(format(p.v)))" + (p.outside ? " outside the image" : ""))
    },
    "cast_plane": Builtin(usage: "cast_plane(ray, point, normal)", summary: "ray against a plane") { a in
        try a.expect(3...3)
        return .hit(try PrimitiveCast.plane(a.ray(0, "ray"), tmin: 0, tmax: .infinity, point: a.vector3(1, "point"), normal: a.vector3(2, "normal")))
    },
    "cast_floor": Builtin(usage: "cast_floor(ray, height)", summary: "ray against the horizontal plane y = height") { a in
        try a.expect(2...2)
        let h = try a.float(1, "height")
        try Check.finite(h, "height")
        return .hit(try PrimitiveCast.plane(a.ray(0, "ray"), tmin: 0, tmax: .infinity, point: SIMD3(0, h, 0), normal: SIMD3(0, 1, 0)))
    },
    "cast_sphere": Builtin(usage: "cast_sphere(ray, center, radius)", summary: "ray against a sphere") { a in
        try a.expect(3...3)
        return .hit(try PrimitiveCast.sphere(a.ray(0, "ray"), tmin: 0, tmax: .infinity, center: a.vector3(1, "center"), radius: a.float(2, "radius")))
    },
    "cast_box": Builtin(usage: "cast_box(ray, box)", summary: "ray against a box or oriented box: the face entered and both crossings") { a in
        try a.expect(2...2)
        let c = PrimitiveCast.orientedBox(try a.ray(0, "ray"), tmin: 0, tmax: .infinity, box: try a.orientedBox(1, "box"))
        guard let hit = c.hit else { return .hit(nil) }
        return .list([.hit(hit), .string("enters \(Box.faceNames[c.faceEnter]) at t=\(format(c.tEnter)), leaves \(Box.faceNames[c.faceExit]) at t=\(format(c.tExit))"
                                        + (c.originInside ? " (origin inside)" : ""))])
    },
    "cast_triangle": Builtin(usage: "cast_triangle(ray, v0, v1, v2)", summary: "ray against one triangle (watertight test)") { a in
        try a.expect(4...4)
        return .hit(try PrimitiveCast.triangle(a.ray(0, "ray"), tmin: 0, tmax: .infinity, a.vector3(1, "v0"), a.vector3(2, "v1"), a.vector3(3, "v2")))
    },
    "icosphere": Builtin(usage: "icosphere(subdivisions [, radius [, center]])", summary: "a closed sphere mesh, 20 * 4^n triangles") { a in
        try a.expect(1...3)
        let data = try MeshData.icosphere(subdivisions: a.integer(0, "subdivisions"), radius: a.count > 1 ? a.float(1, "radius") : 1,
                                          center: a.count > 2 ? a.vector3(2, "center") : .zero)
        return .mesh(try Mesh.make(from: data))
    },
    "floor_mesh": Builtin(usage: "floor_mesh(height, size)", summary: "a square floor (2 triangles classified floor) at y = height") { a in
        try a.expect(2...2)
        return .mesh(try Mesh.make(from: MeshData.floorQuad(height: a.float(0, "height"), size: a.float(1, "size"))))
    },
    "load_mesh": Builtin(usage: "load_mesh(\"scene.obj\" | \"scene.ply\" [, storage])",
                         summary: "read a triangle mesh from an OBJ or PLY file; storage \"copy\" (default: the fastest casts) or "
                                  + "\"compact\" (the vertices kept once, the least memory, slower casts)") { a in
        try a.expect(1...2)
        let storage = try a.choice(1, "storage", ["copy", "compact"], default: "copy")
        return .mesh(try Mesh.make(from: MeshFile.load(path: a.string(0, "path")), storage: storage == "compact" ? .compact : .copy))
    },
    "cast": Builtin(usage: "cast(mesh, ray)  or  cast(mesh, k, camera, u, v)", summary: "closest hit of a ray, or of the ray through a pixel") { a in
        try a.expect(2...5)
        let m = try a.mesh(0, "mesh")
        let ray: Ray
        if a.count == 2 { ray = try a.ray(1, "ray") } else {
            try a.expect(5...5)
            ray = try a.camera(1, "k").ray(camera: a.pose(2, "camera"), u: a.float(3, "u"), v: a.float(4, "v"))
        }
        return .hit(m.intersect(ray, tmin: 0, tmax: .infinity))
    },
    "cast_all": Builtin(usage: "cast_all(mesh, ray)", summary: "every surface crossing along the ray, nearest first") { a in
        try a.expect(2...2)
        let hits = try a.mesh(0, "mesh").intersectAll(a.ray(1, "ray"), tmin: 0, tmax: .infinity)
        return hits.isEmpty ? .hit(nil) : .list(hits.map { .hit($0) })
    },
    "occluded": Builtin(usage: "occluded(mesh, ray, tmax)", summary: "1 if anything is hit before tmax, else 0") { a in
        try a.expect(3...3)
        let tmax = try a.float(2, "tmax")
        try validateRange(tmin: 0, tmax: tmax)
        return .number(try a.mesh(0, "mesh").occluded(a.ray(1, "ray"), tmin: 0, tmax: tmax) ? 1 : 0)
    },
    "tap_floor": Builtin(usage: "tap_floor(k, camera, u, v, mesh)", summary: "floor height from a tap: y of the first hit on the mesh") { a in
        try a.expect(5...5)
        let y = try TapFlows.floorHeight(intrinsics: a.camera(0, "k"), camera: a.pose(1, "camera"), u: a.float(2, "u"), v: a.float(3, "v"),
                                         mesh: a.mesh(4, "mesh"), plane: nil)
        return y.map { .number(Double($0)) } ?? .hit(nil)
    },
    "scale_intrinsics": Builtin(usage: "scale_intrinsics((fx, fy, cx, cy), (w, h), (w2, h2))",
                                summary: "intrinsics of the same sensor at another resolution, as (fx, fy, cx, cy)") { a in
        try a.expect(3...3)
        let k = try a.floats(0, "(fx, fy, cx, cy)", count: 4)
        let size = try a.floats(1, "(w, h)", count: 2), target = try a.floats(2, "(w2, h2)", count: 2)
        for (name, v) in [("w", size[0]), ("h", size[1]), ("w2", target[0]), ("h2", target[1])] where v.rounded() != v || !(1...1e9).contains(v) {
            throw FathomError(.outOfRange, "\(name) must be a whole number of pixels >= 1, got \(v)")
        }
        let scaled = try Intrinsics(fx: k[0], fy: k[1], cx: k[2], cy: k[3], width: Int(size[0]), height: Int(size[1]))
            .scaled(width: Int(target[0]), height: Int(target[1]))
        return .vector([scaled.fx, scaled.fy, scaled.cx, scaled.cy].map(Double.init))
    },
    "box": Builtin(usage: "box(center, scale [, rot_y [, floor]])", summary: "the capture app's box (yaw only), optionally on a floor") { a in
        try a.expect(2...4)
        return .box(try Box(center: a.vector3(0, "center"), scale: a.vector3(1, "scale"),
                            rotY: a.count > 2 ? a.float(2, "rot_y") : 0, floor: a.count > 3 ? a.float(3, "floor") : nil))
    },
    "obb": Builtin(usage: "obb(center, scale [, q])", summary: "oriented box with any rotation") { a in
        try a.expect(2...3)
        return .obb(try OrientedBox(center: a.vector3(0, "center"), scale: a.vector3(1, "scale"),
                                    rotation: a.count > 2 ? a.quaternion(2, "q") : .identity))
    },
    "load_manifest": Builtin(usage: "load_manifest(\"boundingbox.json\")", summary: "read a box from the capture app's manifest") { a in
        try a.expect(1...1); return .box(try Box(manifestAt: a.string(0, "path")))
    },
    "fit_pca": Builtin(usage: "fit_pca(cloud)", summary: "oriented box along the points' principal axes (LAPACK)") { a in
        try a.expect(1...1); return .obb(try a.cloud(0, "cloud").withBuffer { try OrientedBox.fitPCA($0) })
    },
    "fit_upright": Builtin(usage: "fit_upright(cloud)", summary: "yaw-only box of least footprint (min-area rectangle of the x-z hull)") { a in
        try a.expect(1...1); return .box(try a.cloud(0, "cloud").withBuffer { try Box.fitUpright($0) })
    },
    "random_points": Builtin(usage: "random_points(n, low, high [, seed])", summary: "n points uniform in the axis box [low, high]") { a in
        try a.expect(3...4)
        let n = try a.integer(0, "n")
        guard (1...100_000_000).contains(n) else { throw FathomError(.outOfRange, "n must be in 1...100000000, got \(n)") }
        let low = try a.vector3(1, "low"), high = try a.vector3(2, "high")
        var random = SplitMix64(state: UInt64(truncatingIfNeeded: a.count > 3 ? try a.integer(3, "seed") : 1))
        let xyz = (0..<(3 * n)).map { i -> Float in
            let u = Float(random.next() >> 40) / Float(1 << 24)
            return low[i % 3] + (high[i % 3] - low[i % 3]) * u
        }
        return .cloud(Cloud(xyz: xyz))
    },
    "count_inside": Builtin(usage: "count_inside(box, cloud)", summary: "how many points are inside a box or oriented box") { a in
        try a.expect(2...2)
        let box = try a.orientedBox(0, "box")
        return .number(Double(try a.cloud(1, "cloud").withBuffer { box.countInside($0) }))
    },
    "indices_inside": Builtin(usage: "indices_inside(box, cloud)", summary: "indices of the points inside (first 20 shown)") { a in
        try a.expect(2...2)
        let box = try a.orientedBox(0, "box")
        let indices = try a.cloud(1, "cloud").withBuffer { points in
            var out = [UInt64](repeating: 0, count: points.count)
            let n = out.withUnsafeMutableBufferPointer { box.indicesInside(points, into: $0.baseAddress, capacity: $0.count) }
            return Array(out.prefix(n))
        }
        return .vector(indices.prefix(20).map(Double.init))
    },
    "signed_distance": Builtin(usage: "signed_distance(box, point)", summary: "signed distance from a point to the box surface (negative inside)") { a in
        try a.expect(2...2)
        let box = try a.orientedBox(0, "box")
        let point = try a.vector3(1, "point")
        try Check.finite(point, "point")
        var xyz = [point.x, point.y, point.z]
        var d: Float = 0
        try xyz.withUnsafeMutableBufferPointer { buffer in
            box.signedDistances(try PointBuffer(base: buffer.baseAddress!, count: 1, strideBytes: 12), into: &d)
        }
        return .number(Double(d))
    },
    "tag_world": Builtin(usage: "tag_world(camera, tag_in_optical)", summary: "tag's world pose: camera * diag(1,-1,-1,1) * tag") { a in
        try a.expect(2...2); return .pose(TagPose.world(camera: try a.pose(0, "camera"), tagInOptical: try a.pose(1, "tag_in_optical")))
    },
    "snap_vertical": Builtin(usage: "snap_vertical(tag)", summary: "tag turned about its x axis so its normal is horizontal") { a in
        try a.expect(1...1); return .pose(try TagPose.snappedVertical(a.pose(0, "tag")))
    },
    "rotate_cov": Builtin(usage: "rotate_cov(p, cov9)", summary: "R * S * R^T for a 3x3 covariance given column-major") { a in
        try a.expect(2...2)
        let s = try Matrix3(columnMajor: a.floats(1, "cov9", count: 9))
        return .vector(TagPose.rotate(covariance: s, by: try a.pose(0, "p").rotation).columnMajor.map(Double.init))
    },
    "fuse": Builtin(usage: "fuse(pose1, pose2, ...)", summary: "one pose from several observations of a tag (equal weights)") { a in
        guard a.count >= 1 else { throw FathomError(.outOfRange, "fuse needs at least one pose; usage: \(a.usage)") }
        let poses = try (0..<a.count).map { try a.pose($0, "pose\($0 + 1)") }
        return .pose(try TagFusion.fuse(poses, covariances: nil).pose)
    },
    "label": Builtin(usage: "label(\"anchor\", (W, H), (w, h) [, \"image\"|\"panel\" [, \"used,...\"]])",
                     summary: "label panel position and orientation next to an image or panel") { a in
        try a.expect(3...5)
        let name = try a.string(0, "anchor")
        guard let anchor = LabelPlacement.Anchor.allCases.first(where: { $0.name == name }) else {
            throw FathomError(.outOfRange, "anchor must be one of \(LabelPlacement.Anchor.allCases.map(\.name).joined(separator: ", ")), got '\(name)'")
        }
        let target = try a.count > 3 ? a.string(3, "target") : "image"
        guard target == "image" || target == "panel" else { throw FathomError(.outOfRange, "target must be \"image\" or \"panel\", got '\(target)'") }
        let used = try a.count > 4 ? a.string(4, "used").split(separator: ",").map(String.init) : []
        let usedAnchors = Set(LabelPlacement.Anchor.allCases.filter { used.contains($0.name) })
        let t = try a.floats(1, "(W, H)", count: 2), p = try a.floats(2, "(w, h)", count: 2)
        let placement = try LabelPlacement.place(.init(anchor: anchor, target: target == "image" ? .image : .panel,
                                                       targetSize: SIMD2(t[0], t[1]), panelSize: SIMD2(p[0], p[1]), used: usedAnchors))
        return .list([.string("anchor \(placement.anchor.name)"), .string("position \(format(placement.position))"),
                      .string("orientation \(format(placement.orientation))")])
    },
]
