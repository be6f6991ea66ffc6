/// Point-in-box tests over large point sets: the server's culling step.
///
/// A point is inside when |l_i| <= scale_i / 2 for its local coordinates l = R^T (p - c). NaN compares
/// false, so points with NaN are outside; infinities land outside too. Each loop reads the points once
/// and is written so LLVM vectorises it (branch-free body, separate loops for packed and strided input).
extension OrientedBox {
    /// The precomputed test: rows of R^T, and the centre moved into local coordinates.
    @usableFromInline
    struct InsideTest {
        @usableFromInline let r0: SIMD3<Float>, r1: SIMD3<Float>, r2: SIMD3<Float>
        @usableFromInline let offset: SIMD3<Float>  // R^T c
        @usableFromInline let half: SIMD3<Float>

        @usableFromInline
        init(_ box: OrientedBox) {
            let m = box.rotation.matrix
            r0 = m.c0; r1 = m.c1; r2 = m.c2
            offset = SIMD3(dot(m.c0, box.center), dot(m.c1, box.center), dot(m.c2, box.center))
            half = box.scale / 2
        }

        @inlinable @inline(__always)
        func contains(_ x: Float, _ y: Float, _ z: Float) -> Bool {
            let lx = r0.x * x + r0.y * y + r0.z * z - offset.x
            let ly = r1.x * x + r1.y * y + r1.z * z - offset.y
            let lz = r2.x * x + r2.y * y + r2.z * z - offset.z
            return (abs(lx) <= half.x) && (abs(ly) <= half.y) && (abs(lz) <= half.z)
        }
    }

    /// The number of points inside.
    public func countInside(_ points: PointBuffer) -> Int {
        let test = InsideTest(self)
        let p = points.base, n = points.count
        var inside = 0
        if points.floatStride == 3 {
            for i in 0..<n {
                let q = p + i &* 3
                inside &+= test.contains(q[0], q[1], q[2]) ? 1 : 0
            }
        } else {
            let s = points.floatStride
            for i in 0..<n {
                let q = p + i &* s
                inside &+= test.contains(q[0], q[1], q[2]) ? 1 : 0
            }
        }
        return inside
    }

    /// mask[i] = 1 if point i is inside, else 0; returns the number inside. `mask` holds count bytes.
    public func maskInside(_ points: PointBuffer, mask: UnsafeMutablePointer<UInt8>) -> Int {
        let test = InsideTest(self)
        let p = points.base, n = points.count, s = points.floatStride
        var inside = 0
        if s == 3 {
            for i in 0..<n {
                let q = p + i &* 3
                let flag: UInt8 = test.contains(q[0], q[1], q[2]) ? 1 : 0
                mask[i] = flag
                inside &+= Int(flag)
            }
        } else {
            for i in 0..<n {
                let q = p + i &* s
                let flag: UInt8 = test.contains(q[0], q[1], q[2]) ? 1 : 0
                mask[i] = flag
                inside &+= Int(flag)
            }
        }
        return inside
    }

    /// Writes the indices of the points inside, ascending, up to `capacity`; returns the total number
    /// inside (which may exceed capacity: then only the first `capacity` were written).
    public func indicesInside(_ points: PointBuffer, into out: UnsafeMutablePointer<UInt64>?, capacity: Int) -> Int {
        let test = InsideTest(self)
        let p = points.base, n = points.count, s = points.floatStride
        var found = 0
        var i = 0
        // Branch-free stores while a whole block is sure to fit: out[found] is written every step and
        // kept only when the point is inside.
        let block = 256
        if let out {
            while i &+ block <= n && capacity &- found >= block {
                for j in i..<(i &+ block) {
                    let q = p + j &* s
                    out[found] = UInt64(j)
                    found &+= test.contains(q[0], q[1], q[2]) ? 1 : 0
                }
                i &+= block
            }
        }
        while i < n {
            let q = p + i &* s
            if test.contains(q[0], q[1], q[2]) {
                if found < capacity, let out { out[found] = UInt64(i) }
                found &+= 1
            }
            i &+= 1
        }
        return found
    }

    /// out[i] = signed distance from point i to the surface: negative inside, positive outside (meters).
    public func signedDistances(_ points: PointBuffer, into out: UnsafeMutablePointer<Float>) {
        let test = InsideTest(self)
        let h = test.half
        for i in 0..<points.count {
            let v = points[i]
            let l = SIMD3(dot(test.r0, v), dot(test.r1, v), dot(test.r2, v)) - test.offset
            let q = componentAbs(l) - h
            let outside = length(pointwiseMax(q, .zero))
            let inside = Swift.min(Swift.max(q.x, Swift.max(q.y, q.z)), 0)
            out[i] = outside + inside
        }
    }
}
