import FathomCore
import Glibc

/// A point cloud held by the REPL: packed float32 xyz.
final class Cloud {
    let xyz: [Float]
    init(xyz: [Float]) { self.xyz = xyz }
    var count: Int { xyz.count / 3 }

    /// Runs `body` with a validated view of the points.
    func withBuffer<R>(_ body: (PointBuffer) throws -> R) throws -> R {
        try xyz.withUnsafeBufferPointer { raw in
            guard let base = raw.baseAddress else { throw FathomError(.outOfRange, "the cloud is empty") }
            return try body(PointBuffer(base: base, count: count, strideBytes: 12))
        }
    }
}

/// A value in the REPL.
enum Value {
    case none
    case number(Double)
    case vector([Double])      // 2..16 numbers: points, directions, quaternions (x, y, z, w), 4x4 matrices
    case string(String)
    case box(Box)
    case obb(OrientedBox)
    case pose(Pose)
    case cloud(Cloud)
    case mesh(Mesh)
    case camera(Intrinsics)
    case hit(Hit?)
    case depth(DepthImage)
    case mask(MaskImage)
    case coverage(CoverageTracker)
    case motion(MotionRecorder)
    case scan(Scan)
    case report(ScanReport)
    case list([Value])

    var typeName: String {
        switch self {
        case .none: "nothing"
        case .number: "a number"
        case .vector(let v): "a \(v.count)-vector"
        case .string: "a string"
        case .box: "a box"
        case .obb: "an oriented box"
        case .pose: "a pose"
        case .cloud: "a point cloud"
        case .mesh: "a mesh"
        case .camera: "camera intrinsics"
        case .hit: "a hit"
        case .depth: "a depth map"
        case .mask: "a mask"
        case .coverage: "a coverage tracker"
        case .motion: "a motion tracker"
        case .scan: "a scan"
        case .report: "a report"
        case .list: "a list"
        }
    }
}

/// Numbers as %.6g, so printed values are short and stable.
func format(_ v: Double) -> String {
    if v == 0 { return "0" }  // also -0
    var buffer = [CChar](repeating: 0, count: 64)
    _ = withVaList([v]) { vsnprintf(&buffer, buffer.count, "%.6g", $0) }
    return String(cString: buffer)
}

func format(_ v: Float) -> String { format(Double(v)) }

/// Components as %.6g, with those below the printed resolution of the largest (1e-6 of it, or of 1)
/// shown as 0, so float rounding noise such as -1.19209e-07 next to 1 does not clutter the output.
func format(components: [Double]) -> String {
    let resolution = 1e-6 * max(1, components.map(abs).max() ?? 0)
    return "(" + components.map { format(abs($0) < resolution ? 0 : $0) }.joined(separator: ", ") + ")"
}

func format(_ v: SIMD3<Float>) -> String { format(components: [Double(v.x), Double(v.y), Double(v.z)]) }

func format(_ q: Quaternion) -> String { format(components: [q.vector.x, q.vector.y, q.vector.z, q.vector.w].map(Double.init)) }

func format(_ value: Value) -> String {
    switch value {
    case .none: return ""
    case .number(let v): return format(v)
    case .vector(let v): return format(components: v)
    case .string(let s): return s
    case .box(let b):
        let floor = b.floor.map { " floor=\(format($0))" } ?? ""
        return "box center=\(format(b.center)) scale=\(format(b.scale)) rot_y=\(format(b.rotY)) (\(format(Double(b.rotY) * 180 / .pi))deg)\(floor)"
    case .obb(let o):
        return "obb center=\(format(o.center)) scale=\(format(o.scale)) rotation=\(format(o.rotation)) volume=\(format(o.volume))"
    case .pose(let p):
        let rows = p.rowMajor
        return "pose\n" + (0..<4).map { r in "  " + format(components: (0..<4).map { Double(rows[r * 4 + $0]) }) }.joined(separator: "\n")
    case .cloud(let c):
        guard c.count > 0 else { return "cloud of 0 points" }
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        for i in 0..<c.count {
            let p = SIMD3(c.xyz[3 * i], c.xyz[3 * i + 1], c.xyz[3 * i + 2])
            lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p)
        }
        return "cloud of \(c.count) points, bounds \(format(lo))...\(format(hi))"
    case .mesh(let m):
        return "mesh of \(m.triangleCount) triangles, \(m.vertexCount) vertices, bounds \(format(m.boundsMin))...\(format(m.boundsMax)), "
            + "BVH \(m.bvhNodeCount) nodes, depth \(m.bvhDepth), \(m.memoryBytes) bytes\(m.storage == .compact ? " (compact)" : "")"
    case .camera(let k):
        return "intrinsics fx=\(format(k.fx)) fy=\(format(k.fy)) cx=\(format(k.cx)) cy=\(format(k.cy)) \(k.width)x\(k.height)"
    case .hit(nil): return "miss"
    case .hit(let h?):
        let names = ["none", "wall", "floor", "ceiling", "table", "seat", "window", "door"]
        return "hit t=\(format(h.t)) point=\(format(h.point)) normal=\(format(h.normal)) primitive=\(h.primitive)"
            + " uv=(\(format(h.u)), \(format(h.v))) class=\(names[Int(h.classification) < names.count ? Int(h.classification) : 0])"
            + (h.frontFace ? " front" : " back")
    case .depth(let d):
        return "depth map \(d.width)x\(d.height), \(d.validCount) valid samples, of a \(d.rgb.width)x\(d.rgb.height) image"
    case .mask(let m): return "mask \(m.width)x\(m.height), \(m.insideCount) pixels inside"
    case .coverage(let c):
        let s = c.summary
        return "coverage: \(c.counted) of \(c.views) views counted, \(s.facesComplete)/\(s.facesNeeded) faces complete, angular score \(format(s.angularScore))"
    case .motion(let m): return describe(m.tracker.state)
    case .scan(let scan): return describe(scan)
    case .report(let report): return report.text()
    case .list(let items): return items.map(format).joined(separator: "\n")
    }
}
