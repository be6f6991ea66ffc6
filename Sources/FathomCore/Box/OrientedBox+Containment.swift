/// Point-in-box tests over large point sets: the server's culling step.
///
/// A point is inside when |l_i| <= scale_i / 2 for its local coordinates l = R^T (p - c). NaN compares
/// false, so points with NaN are outside; infinities land outside too. Each loop reads the points once
/// and is written so LLVM vectorises it (branch-free body, separate loops for packed and strided input).
extension OrientedBox {
    /// The precomputed test: rows of R^T, the centre and the half sizes. The centre is subtracted before the
    /// rotation: R^T c of a centre near the float limit overflows, where p - c of a point near it does not.
    @usableFromInline
    struct InsideTest {
        @usableFromInline let r0: SIMD3<Float>, r1: SIMD3<Float>, r2: SIMD3<Float>
        @usableFromInline let center: SIMD3<Float>
        @usableFromInline let half: SIMD3<Float>

        @usableFromInline
        init(_ box: OrientedBox) {
            let m = box.rotation.matrix
            r0 = m.c0; r1 = m.c1; r2 = m.c2
            center = box.center
            half = box.scale / 2
        }

        /// The local coordinates R^T (p - c) of p = (x, y, z), rounded exactly as `inside` rounds them.
        @inlinable @inline(__always)
        func local(_ x: Float, _ y: Float, _ z: Float) -> (x: Float, y: Float, z: Float) {
            let dx = x - center.x, dy = y - center.y, dz = z - center.z
            return (r0.x * dx + r0.y * dy + r0.z * dz, r1.x * dx + r1.y * dy + r1.z * dz, r2.x * dx + r2.y * dy + r2.z * dz)
        }

        /// 1 if (x, y, z) is inside, else 0. Three selects joined with `&`, not `&&`: no branches, so
        /// the loops around it vectorise.
        @inlinable @inline(__always)
        func inside(_ x: Float, _ y: Float, _ z: Float) -> Int {
            let l = local(x, y, z)
            return (abs(l.x) <= half.x ? 1 : 0) & (abs(l.y) <= half.y ? 1 : 0) & (abs(l.z) <= half.z ? 1 : 0)
        }

        /// mask[k] = inside(point start + k) for k in 0..<count; returns how many are inside.
        @inlinable
        func mask(_ points: PointBuffer, from start: Int, count: Int, into mask: UnsafeMutablePointer<UInt8>) -> Int {
            let s = points.floatStride
            var inside = 0
            if s == 3 {
                let p = points.base + start &* 3
                for k in 0..<count {
                    let q = p + k &* 3
                    let flag = self.inside(q[0], q[1], q[2])
                    mask[k] = UInt8(truncatingIfNeeded: flag)
                    inside &+= flag
                }
            } else {
                let p = points.base + start &* s
                for k in 0..<count {
                    let q = p + k &* s
                    let flag = self.inside(q[0], q[1], q[2])
                    mask[k] = UInt8(truncatingIfNeeded: flag)
                    inside &+= flag
                }
            }
            return inside
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
                inside &+= test.inside(q[0], q[1], q[2])
            }
        } else {
            let s = points.floatStride
            for i in 0..<n {
                let q = p + i &* s
                inside &+= test.inside(q[0], q[1], q[2])
            }
        }
        return inside
    }

    /// mask[i] = 1 if point i is inside, else 0; returns the number inside. `mask` holds count bytes.
    public func maskInside(_ points: PointBuffer, mask: UnsafeMutablePointer<UInt8>) -> Int {
        InsideTest(self).mask(points, from: 0, count: points.count, into: mask)
    }

    /// Writes the indices of the points inside, ascending, up to `capacity`; returns the total number
    /// inside (which may exceed capacity: then only the first `capacity` were written).
    ///
    /// Works in blocks: a vectorised mask of `block` points, then a compaction that skips eight
    /// outside points at a time.
    public func indicesInside(_ points: PointBuffer, into out: UnsafeMutablePointer<UInt64>?, capacity: Int) -> Int {
        let test = InsideTest(self)
        let block = 1024
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: block / 8) { words in
            let mask = UnsafeMutableRawPointer(words.baseAddress!).assumingMemoryBound(to: UInt8.self)
            var found = 0
            var start = 0
            while start < points.count {
                let m = Swift.min(block, points.count &- start)
                let inBlock = test.mask(points, from: start, count: m, into: mask)
                if inBlock > 0 {
                    // Zero the tail so whole words can be tested.
                    for k in m..<((m &+ 7) / 8 &* 8) { mask[k] = 0 }
                    // Each flag byte is 0 or 1, so a word's set bits are its inside points: walk them
                    // (lowest first) instead of branching on every byte.
                    for w in 0..<((m &+ 7) / 8) {
                        var bits = UInt64(littleEndian: words[w])
                        while bits != 0 {
                            let k = w &* 8 &+ bits.trailingZeroBitCount / 8
                            if found < capacity, let out { out[found] = UInt64(start &+ k) }
                            found &+= 1
                            bits &= bits &- 1
                        }
                    }
                }
                start &+= m
            }
            return found
        }
    }

    /// out[i] = signed distance from point i to the surface: negative inside, positive outside (meters).
    /// In Double: p - c of a point and a centre on opposite sides of the float range overflows a float, and
    /// 0 * inf in the rotation would then turn a far point's distance into NaN.
    public func signedDistances(_ points: PointBuffer, into out: UnsafeMutablePointer<Float>) {
        let m = rotation.matrix
        let r0 = SIMD3<Double>(m.c0), r1 = SIMD3<Double>(m.c1), r2 = SIMD3<Double>(m.c2)
        let c = SIMD3<Double>(center), h = SIMD3<Double>(scale) / 2
        for i in 0..<points.count {
            let d = SIMD3<Double>(points[i]) - c
            let q = componentAbs(SIMD3(dot(r0, d), dot(r1, d), dot(r2, d))) - h
            let outside = length(pointwiseMax(q, .zero))
            let inside = Swift.min(Swift.max(q.x, Swift.max(q.y, q.z)), 0)
            out[i] = Float(outside + inside)
        }
    }
}
