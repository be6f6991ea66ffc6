import FathomCore

/// Typed access to a call's evaluated arguments, with usage errors that name the argument.
struct Arguments {
    let values: [Value]
    let usage: String

    var count: Int { values.count }

    func expect(_ range: ClosedRange<Int>) throws {
        guard range.contains(values.count) else {
            throw FathomError(.outOfRange, "expected \(range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)") argument(s), got \(values.count); usage: \(usage)")
        }
    }

    private func wrong(_ i: Int, _ name: String, _ wanted: String) -> FathomError {
        FathomError(.outOfRange, "\(name) must be \(wanted), got \(values[i].typeName); usage: \(usage)")
    }

    func number(_ i: Int, _ name: String) throws -> Double {
        guard case .number(let v) = values[i] else { throw wrong(i, name, "a number") }
        return v
    }

    func float(_ i: Int, _ name: String) throws -> Float { Float(try number(i, name)) }

    func integer(_ i: Int, _ name: String) throws -> Int {
        let v = try number(i, name)
        guard v.rounded() == v, abs(v) < 1e15 else { throw wrong(i, name, "a whole number") }
        return Int(v)
    }

    func vector3(_ i: Int, _ name: String) throws -> SIMD3<Float> {
        guard case .vector(let v) = values[i], v.count == 3 else { throw wrong(i, name, "a 3-vector (x, y, z)") }
        return SIMD3(Float(v[0]), Float(v[1]), Float(v[2]))
    }

    func quaternion(_ i: Int, _ name: String) throws -> Quaternion {
        guard case .vector(let v) = values[i], v.count == 4 else { throw wrong(i, name, "a quaternion (x, y, z, w)") }
        return Quaternion(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]))
    }

    func floats(_ i: Int, _ name: String, count: Int) throws -> [Float] {
        guard case .vector(let v) = values[i], v.count == count else { throw wrong(i, name, "\(count) numbers") }
        return v.map(Float.init)
    }

    func string(_ i: Int, _ name: String) throws -> String {
        guard case .string(let s) = values[i] else { throw wrong(i, name, "a string in double quotes") }
        return s
    }

    /// Argument i, one of `choices` in any case (given lower-case), or `fallback` when there is no argument i.
    func choice(_ i: Int, _ name: String, _ choices: [String], default fallback: String) throws -> String {
        guard i < count else { return fallback }
        let value = try string(i, name).lowercased()
        guard choices.contains(value) else {
            let names = choices.map { "\"\($0)\"" }.joined(separator: " or ")
            throw FathomError(.outOfRange, "\(name) must be \(names), got \"\(value)\"; usage: \(usage)")
        }
        return value
    }

    func pose(_ i: Int, _ name: String) throws -> Pose {
        guard case .pose(let p) = values[i] else { throw wrong(i, name, "a pose") }
        return p
    }

    func cloud(_ i: Int, _ name: String) throws -> Cloud {
        guard case .cloud(let c) = values[i] else { throw wrong(i, name, "a point cloud") }
        return c
    }

    func mesh(_ i: Int, _ name: String) throws -> Mesh {
        guard case .mesh(let m) = values[i] else { throw wrong(i, name, "a mesh") }
        return m
    }

    func camera(_ i: Int, _ name: String) throws -> Intrinsics {
        guard case .camera(let k) = values[i] else { throw wrong(i, name, "camera intrinsics (see intrinsics)") }
        return k
    }

    func depth(_ i: Int, _ name: String) throws -> DepthImage {
        guard case .depth(let d) = values[i] else { throw wrong(i, name, "a depth map (see depth_formula, load_depth)") }
        return d
    }

    func mask(_ i: Int, _ name: String) throws -> MaskImage {
        guard case .mask(let m) = values[i] else { throw wrong(i, name, "a mask (see mask_formula)") }
        return m
    }

    func coverage(_ i: Int, _ name: String) throws -> CoverageTracker {
        guard case .coverage(let c) = values[i] else { throw wrong(i, name, "a coverage tracker (see coverage)") }
        return c
    }

    func motion(_ i: Int, _ name: String) throws -> MotionRecorder {
        guard case .motion(let m) = values[i] else { throw wrong(i, name, "a motion tracker (see motion)") }
        return m
    }

    func box(_ i: Int, _ name: String) throws -> Box {
        guard case .box(let b) = values[i] else { throw wrong(i, name, "a box (see box)") }
        return b
    }

    /// A ray given as 6 numbers (origin, direction), validated.
    func ray(_ i: Int, _ name: String) throws -> Ray {
        guard case .vector(let v) = values[i], v.count == 6 else { throw wrong(i, name, "a ray (ox, oy, oz, dx, dy, dz)") }
        let ray = Ray(origin: SIMD3(Float(v[0]), Float(v[1]), Float(v[2])), direction: SIMD3(Float(v[3]), Float(v[4]), Float(v[5])))
        try ray.validate(name)
        return ray
    }

    /// A box or an oriented box, as an oriented box (for culling and distances).
    func orientedBox(_ i: Int, _ name: String) throws -> OrientedBox {
        switch values[i] {
        case .obb(let o): return o
        case .box(let b): return try b.orientedBox()
        default: throw wrong(i, name, "a box or an oriented box")
        }
    }
}

func vector(_ v: SIMD3<Float>) -> Value { .vector([Double(v.x), Double(v.y), Double(v.z)]) }
func vector(_ q: Quaternion) -> Value { .vector([q.vector.x, q.vector.y, q.vector.z, q.vector.w].map(Double.init)) }
