// Uses FathomCore from Swift: a box, a ray cast against a mesh, and a scan written and opened again. Each result is
// checked against geometry worked out by hand; any difference exits with status 1.
import FathomCore
import Glibc

var failures = 0
@MainActor func check(_ ok: Bool, _ what: String) {
    print("\(ok ? "ok" : "FAIL"): \(what)")
    if !ok { failures += 1 }
}
func near(_ a: Float, _ b: Float, _ tolerance: Float = 1e-5) -> Bool { abs(a - b) <= tolerance }

do {
    print("Fathom \(FathomVersion.string)")

    // A 0.4 x 0.3 x 0.2 m box standing on the floor (y = 0), turned 90 degrees about y: its x and z extents swap.
    let box = try Box(center: [0, 0.15, -1], scale: [0.4, 0.3, 0.2], rotY: .pi / 2, floor: 0)
    let xs = box.corners.map(\.x), ys = box.corners.map(\.y), zs = box.corners.map(\.z)
    check(near(xs.max()! - xs.min()!, 0.2) && near(zs.max()! - zs.min()!, 0.4) && near(ys.min()!, 0),
          "box: corners span 0.2 m in x, 0.4 m in z, and stand on y = 0")

    // A 4 x 4 m floor of two triangles at y = 0; a ray from 1.5 m up, 45 degrees down, meets it 1.5 m ahead (t counts
    // lengths of the direction given, here (0, -1, -1)).
    let mesh = try Mesh.make(from: MeshData(vertices: [-2, 0, -2, 2, 0, -2, 2, 0, 2, -2, 0, 2], indices: [0, 2, 1, 0, 3, 2]))
    let ray = Ray(origin: [0, 1.5, 0], direction: [0, -1, -1])
    if let hit = mesh.intersect(ray, tmin: 0, tmax: .infinity) {
        check(near(hit.point.x, 0) && near(hit.point.y, 0) && near(hit.point.z, -1.5, 1e-4) && near(hit.t, 1.5, 1e-4),
              "mesh: the ray meets the floor at (0, 0, -1.5), t = 1.5")
    } else {
        check(false, "mesh: the ray meets the floor")
    }
    check(mesh.intersect(Ray(origin: [0, 1.5, 0], direction: [0, 1, 0]), tmin: 0, tmax: .infinity) == nil, "mesh: a ray looking up misses")

    // Three frames of a 4 x 3 float16 depth map written in the scanner app's format, then opened and read back.
    let folder = "/tmp/fathom-consumer-\(getpid())"
    guard mkdir(folder, 0o700) == 0 else { throw FathomError(.io, "cannot make \(folder)") }
    defer { _ = system("rm -rf '\(folder)'") }
    let writer = try ScanWriter(directory: folder, scanID: "consumer", depthWidth: 4, depthHeight: 3, rgbWidth: 1920, rgbHeight: 1440)
    let rgb = try Intrinsics(fx: 1500, fy: 1500, cx: 960, cy: 720, width: 1920, height: 1440)
    for frame in 0..<3 {
        let meters = [Float16](repeating: Float16(1 + Float(frame) * 0.25), count: 12)
        let confidence = [UInt8](repeating: 2, count: 12)
        let pose = Pose(rotation: Matrix3.identity, translation: [Float(frame) * 0.1, 1.2, 0])
        try meters.withUnsafeBytes { depth in
            try confidence.withUnsafeBytes { values in
                try writer.append(timestamp: Int64(frame) * 16_666_667, rgb: rgb, pose: pose, depth: depth, confidence: values)
            }
        }
    }
    try writer.finish()
    let scan = try Scan(path: folder)
    check(scan.count == 3 && scan.depthWidth == 4 && scan.depthHeight == 3, "scan: 3 frames of 4 x 3 read back")
    check(near(scan.poses[2].translation.x, 0.2), "scan: the third pose is 0.2 m along x")
    var depth = [Float16](repeating: 0, count: 12)
    try depth.withUnsafeMutableBytes { buffer in try scan.readDepth(2, into: buffer) }
    check(depth.allSatisfy { $0 == 1.5 }, "scan: the third frame's depth is 1.5 m everywhere")
} catch {
    print("FAIL: \(error)")
    failures += 1
}
print(failures == 0 ? "fathom-consumer: all passed" : "fathom-consumer: \(failures) failed")
exit(failures == 0 ? 0 : 1)
