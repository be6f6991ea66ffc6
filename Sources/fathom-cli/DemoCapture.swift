import FathomCore
import Glibc

/// The built-in capture of `fathom demo` and `demo_scan(...)`: a 40 x 30 x 20 cm box standing on a floor,
/// turned 17 degrees, circled along half a circle of 0.8 m by an iPhone (256 x 192 LiDAR depth, 1920 x 1440 RGB intrinsics) over
/// 10 seconds at 60 fps, rendered by casting each depth sample's ray at a mesh of the scene. Depth carries
/// LiDAR-like noise (1 mm + 2 mm per square meter of depth) and flying pixels at the box's silhouette with
/// confidence 0; poses carry a little hand shake. Deterministic: the same files every run.
enum DemoCapture {
    static let boxCenter = SIMD3<Float>(0.05, 0.15, -0.02)
    static let boxScale = SIMD3<Float>(0.40, 0.30, 0.20)
    static let boxYaw: Float = 0.3
    static let scanID = "20261125_090000_fathomdemo"

    /// Writes the capture into `directory` and returns the metadata path.
    static func write(to directory: String, frames: Int = 600) throws -> String {
        guard (2...100_000).contains(frames) else { throw FathomError(.outOfRange, "frames must be in 2...100000, got \(frames)") }
        let box = try Box(center: boxCenter, scale: boxScale, rotY: boxYaw)
        let scene = try Mesh.make(from: sceneMesh(box))
        let rgb = try Intrinsics(fx: 1600, fy: 1600, cx: 960, cy: 720, width: 1920, height: 1440)
        let (w, h) = (256, 192)
        let grid = try rgb.scaled(width: w, height: h)
        let writer = try ScanWriter(directory: directory, scanID: scanID, depthWidth: w, depthHeight: h, rgbWidth: 1920, rgbHeight: 1440)
        var random = SplitMix64(state: 2026)
        func uniform() -> Float { Float(random.next() >> 40) / Float(1 << 24) }
        func gaussian() -> Float { sqrt(-2 * log(max(uniform(), 1e-7))) * cos(2 * .pi * uniform()) }
        var depth = [Float16](repeating: 0, count: w * h)
        var confidence = [UInt8](repeating: 0, count: w * h)
        var onBox = [Bool](repeating: false, count: w * h)
        var rays = [Float](repeating: 0, count: 6 * w * h)
        let hits = UnsafeMutablePointer<(Float, Bool)>.allocate(capacity: w * h)
        hits.initialize(repeating: (0, false), count: w * h)
        defer { hits.deallocate() }
        for i in 0..<frames {
            // Half a circle at 0.8 m in 10 s (0.25 m/s, the app's upper speed), with a slow sway of the hands.
            let angle = Float.pi * Float(i) / Float(frames)
            let time = Float(i) / 60
            let eye = SIMD3<Float>(0.8 * cos(angle), 0.7 + 0.03 * sin(1.3 * time), 0.8 * sin(angle))
                + SIMD3(sin(2.1 * time), sin(1.7 * time + 1), sin(2.9 * time + 2)) * 0.005
            let pose = try lookAt(eye: eye, target: SIMD3(0.02 * sin(0.9 * time), 0.1, 0.02 * cos(1.1 * time)))
            for j in 0..<h {
                for c in 0..<w {
                    let optical = SIMD3((Float(c) + 0.5 - grid.cx) / grid.fx, (Float(j) + 0.5 - grid.cy) / grid.fy, 1)
                    let direction = pose.rotation * SIMD3(optical.x, -optical.y, -optical.z)
                    let k = 6 * (j * w + c)
                    rays[k] = eye.x; rays[k + 1] = eye.y; rays[k + 2] = eye.z
                    rays[k + 3] = direction.x; rays[k + 4] = direction.y; rays[k + 5] = direction.z
                }
            }
            rays.withUnsafeBufferPointer { r in
                // The direction's optical z is 1, so a hit's t is the z-depth.
                scene.intersect(RayBuffer(base: r.baseAddress!, count: w * h), tmin: 0, tmax: 20, threads: 0) { k, hit in
                    hits[k] = hit.map { ($0.t, $0.primitive >= 2) } ?? (0, false)
                }
            }
            for k in 0..<(w * h) {
                let (d, box) = hits[k]
                onBox[k] = box
                if d > 0 {
                    depth[k] = Float16(d + gaussian() * (0.001 + 0.002 * d * d))
                    confidence[k] = uniform() < 0.05 ? 1 : 2
                } else {
                    depth[k] = 0; confidence[k] = 0
                }
            }
            for j in 1..<h { for c in 1..<w {
                let k = j * w + c
                if (onBox[k] != onBox[k - 1] || onBox[k] != onBox[k - w]), uniform() < 0.5 {
                    depth[k] = Float16(Float(depth[k]) * (0.6 + 0.8 * uniform()))
                    confidence[k] = 0
                }
            } }
            let timestamp = Int64(280_670_466_266_040) + Int64(i) * 16_666_667
            try depth.withUnsafeBytes { d in
                try confidence.withUnsafeBytes { c in
                    try writer.append(timestamp: timestamp, rgb: rgb, pose: pose, depth: d, confidence: c)
                }
            }
        }
        try writer.finish()
        return "\(directory)/\(scanID).json"
    }

    /// A 6 m floor square (triangles 0 and 1) and the box's 12 triangles.
    static func sceneMesh(_ box: Box) -> MeshData {
        var vertices: [Float] = [-3, 0, -3, 3, 0, -3, 3, 0, 3, -3, 0, 3]
        var indices: [UInt32] = [0, 2, 1, 0, 3, 2]
        for corner in box.corners { vertices += [corner.x, corner.y, corner.z] }
        for face in [[0, 1, 2, 3], [0, 3, 7, 4], [1, 2, 6, 5], [2, 3, 7, 6], [0, 1, 5, 4], [4, 5, 6, 7]] {
            let q = face.map { UInt32($0 + 4) }
            indices += [q[0], q[1], q[2], q[0], q[2], q[3]]
        }
        return MeshData(vertices: vertices, indices: indices)
    }
}
