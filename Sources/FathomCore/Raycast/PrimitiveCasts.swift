import Glibc

/// Ray casts against single primitives: planes, spheres, oriented boxes and triangles. Each returns the
/// hit within [tmin, tmax] or nil. Callers validate the ray and range first.
public enum PrimitiveCast {
    /// Ray against the plane through `point` with normal `normal` (non-zero). Parallel rays miss.
    public static func plane(_ ray: Ray, tmin: Float, tmax: Float, point: SIMD3<Float>, normal: SIMD3<Float>) throws(FathomError) -> Hit? {
        try Check.finite(point, "point")
        try Check.finite(normal, "normal")
        // Through Double: a float length of a tiny or huge normal underflows or overflows.
        let unit = FathomCore.unit(normal)
        guard unit != .zero else { throw FathomError(.degenerate, "normal must not be zero") }
        let denominator = dot(unit, ray.direction)
        guard denominator != 0 else { return nil }
        let t = dot(unit, point - ray.origin) / denominator
        // A hit beyond the floats (a far plane met at a grazing angle) has no point: no hit.
        guard t >= tmin, t <= tmax, t.isFinite else { return nil }
        let point = ray.at(t)
        guard point.isFinite else { return nil }
        return Hit(t: t, point: point, normal: unit, frontFace: denominator < 0)
    }

    /// Ray against a sphere (radius > 0); from inside, the exit point.
    public static func sphere(_ ray: Ray, tmin: Float, tmax: Float, center: SIMD3<Float>, radius: Float) throws(FathomError) -> Hit? {
        try Check.finite(center, "center")
        try Check.positive(radius, "radius")
        // Solve |o + t d - c|^2 = r^2 in Double: the quadratic loses digits in Float for far spheres.
        let o = SIMD3<Double>(ray.origin - center), d = SIMD3<Double>(ray.direction)
        let a = dot(d, d), b = dot(o, d), c = dot(o, o) - Double(radius) * Double(radius)
        let discriminant = b * b - a * c
        guard discriminant >= 0 else { return nil }
        let root = discriminant.squareRoot()
        // Numerically stable pair of roots.
        let q = b >= 0 ? -(b + root) : -(b - root)
        var roots = [q / a, q != 0 ? c / q : -b / a].sorted()
        roots = roots.filter { $0 >= Double(tmin) && $0 <= Double(tmax) }
        guard let t = roots.first.map(Float.init), t.isFinite else { return nil }
        let point = ray.at(t)
        guard point.isFinite else { return nil }
        // From the centre to the hit in Double (o + t d - c): the float point of a sphere far smaller than its
        // coordinates can round onto the centre. A hit whose direction from the centre is lost even so is none.
        let normal = unit(o + Double(t) * d)
        guard normal != .zero else { return nil }
        return Hit(t: t, point: point, normal: normal, frontFace: dot(ray.direction, normal) < 0)
    }

    /// The two crossings of a ray's line with an oriented box.
    public struct BoxCrossing: Sendable {
        public var hit: Hit?
        public var tEnter: Float, tExit: Float
        public var faceEnter: Int, faceExit: Int
        public var originInside: Bool
    }

    /// Ray against an oriented box: slab test in the box frame. Faces use the box's face order
    /// (front -z, left -x, right +x, bottom -y, top +y, back +z).
    public static func orientedBox(_ ray: Ray, tmin: Float, tmax: Float, box: OrientedBox) -> BoxCrossing {
        orientedBox(ray, tmin: tmin, tmax: tmax, center: box.center, axes: box.rotation.matrix, half: box.scale / 2)
    }

    /// The slab test against the box with this centre, local axes (the world columns of its rotation) and half extents.
    public static func orientedBox(_ ray: Ray, tmin: Float, tmax: Float, center: SIMD3<Float>, axes r: Matrix3,
                                   half h: SIMD3<Float>) -> BoxCrossing {
        let relative = ray.origin - center
        let o = SIMD3(dot(r.c0, relative), dot(r.c1, relative), dot(r.c2, relative))
        let d = SIMD3(dot(r.c0, ray.direction), dot(r.c1, ray.direction), dot(r.c2, ray.direction))
        let originInside = all(componentAbs(o) .<= h)
        var tEnter = -Float.infinity, tExit = Float.infinity
        var faceEnter = -1, faceExit = -1
        for axis in 0..<3 {
            // The faces at -h and +h along this axis.
            let (low, high) = axis == 0 ? (1, 2) : (axis == 1 ? (3, 4) : (0, 5))
            if d[axis] == 0 {
                if abs(o[axis]) > h[axis] { return BoxCrossing(hit: nil, tEnter: 0, tExit: 0, faceEnter: -1, faceExit: -1, originInside: false) }
                continue
            }
            // One division per axis (the coverage batch runs this in lanes, where divisions are what it waits on).
            let inverse = 1 / d[axis]
            var t0 = (-h[axis] - o[axis]) * inverse, t1 = (h[axis] - o[axis]) * inverse
            var f0 = low, f1 = high
            // Ordered by the direction's sign, not by comparing t0 and t1: on a slab too thin for them to round
            // apart, the face entered must still be the one the ray meets from outside.
            if d[axis] < 0 { swap(&t0, &t1); swap(&f0, &f1) }
            if t0 > tEnter { tEnter = t0; faceEnter = f0 }
            if t1 < tExit { tExit = t1; faceExit = f1 }
        }
        guard tEnter <= tExit, faceEnter >= 0, faceExit >= 0 else {
            return BoxCrossing(hit: nil, tEnter: 0, tExit: 0, faceEnter: -1, faceExit: -1, originInside: originInside)
        }
        var crossing = BoxCrossing(hit: nil, tEnter: tEnter, tExit: tExit, faceEnter: faceEnter, faceExit: faceExit, originInside: originInside)
        let entering = tEnter >= tmin && tEnter <= tmax
        guard entering || (tExit >= tmin && tExit <= tmax) else { return crossing }
        let (t, face) = entering ? (tEnter, faceEnter) : (tExit, faceExit)
        // Outward normal: the face's axis column, negative for front, left and bottom.
        let column = face == 1 || face == 2 ? r.c0 : (face == 3 || face == 4 ? r.c1 : r.c2)
        let normal = face == 0 || face == 1 || face == 3 ? -column : column
        crossing.hit = Hit(t: t, point: ray.at(t), normal: normal, primitive: UInt32(face), frontFace: entering)
        return crossing
    }

    /// Ray against one triangle with the watertight test; both sides count.
    public static func triangle(_ ray: Ray, tmin: Float, tmax: Float, _ v0: SIMD3<Float>, _ v1: SIMD3<Float>, _ v2: SIMD3<Float>) throws(FathomError) -> Hit? {
        try Check.finite(v0, "v0")
        try Check.finite(v1, "v1")
        try Check.finite(v2, "v2")
        guard !isZeroArea(v0, v1, v2), let (t, u, v) = ShearedRay(ray).intersect(v0, v1, v2, tmin: tmin, tmax: tmax) else { return nil }
        let normal = triangleNormal(v0, v1, v2)
        return Hit(t: t, point: (1 - u - v) * v0 + u * v1 + v * v2, normal: normal, u: u, v: v,
                   frontFace: dot(ray.direction, normal) < 0)
    }
}
