import FathomCore

/// REPL functions for point-cloud PLY files and NeRF-style transforms.json (mesh files: load_mesh, m.save).
let fileBuiltins: [String: Builtin] = [
    "read_ply": Builtin(usage: "read_ply(\"cloud.ply\")",
                        summary: "the points of a PLY file's vertex element as a cloud (normals, colours dropped)") { a in
        try a.expect(1...1)
        return .cloud(Cloud(xyz: try PointCloud.load(plyPath: a.string(0, "path")).points))
    },
    "write_ply": Builtin(usage: "write_ply(\"cloud.ply\", cloud [, \"ascii\"])", summary: "write a cloud's points as PLY (binary unless \"ascii\")") { a in
        try a.expect(2...3)
        let path = try a.string(0, "path"), cloud = try a.cloud(1, "cloud")
        let encoding = try a.count > 2 ? a.string(2, "encoding") : "binary"
        guard encoding == "binary" || encoding == "ascii" else {
            throw FathomError(.outOfRange, "encoding must be \"binary\" or \"ascii\", got '\(encoding)'")
        }
        try PointCloud(points: cloud.xyz).savePLY(path: path, encoding: encoding == "ascii" ? .ascii : .binary)
        return .string("wrote \(cloud.count) points to \(path)")
    },
    "read_transforms": Builtin(usage: "read_transforms(\"transforms.json\" [, i])",
                               summary: "frame count, size and first/last camera positions; with i, frame i's pose") { a in
        try a.expect(1...2)
        let file = try TransformsFile.load(path: a.string(0, "path"))
        if a.count > 1 {
            let i = try a.integer(1, "i")
            guard file.frames.indices.contains(i) else {
                throw FathomError(.outOfRange, "i must be a frame index, 0 to \(file.frames.count - 1), got \(i)")
            }
            return .pose(file.frames[i].pose)
        }
        guard let first = file.frames.first, let last = file.frames.last else { return .string("no frames") }
        let k = first.intrinsics
        let same = file.frames.allSatisfy { $0.intrinsics == k }
        return .list([
            .string("\(file.frames.count) frames, " + (same ? "\(k.width)x\(k.height) fx=\(format(k.fx)) fy=\(format(k.fy))" : "intrinsics per frame")
                    + (file.repaired > 0 ? ", \(file.repaired) poses re-orthonormalized" : "")),
            .string("first position \(format(first.pose.translation))"),
            .string("last position \(format(last.pose.translation))"),
        ])
    },
]
