// General oriented boxes: validation, corners, and the culling entry points (count, mask, indices, signed
// distances) against the local-coordinate test in Double, with points exactly on faces, NaN and infinity,
// strided buffers, and block boundaries of the index compaction.
import FathomCore
import Glibc
import Testing

@Suite("OrientedBox containment")
struct OrientedBoxContainmentTests {
    @Test("init validates centre, scale and rotation")
    func validation() throws {
        for (axis, name) in ["x", "y", "z"].enumerated() {
            var c = SIMD3<Float>(0, 0, 0)
            c[axis] = .nan
            expectError(.notFinite, containing: ["center.\(name)"]) { () throws(FathomError) in
                _ = try OrientedBox(center: c, scale: SIMD3(1, 1, 1))
            }
            var s = SIMD3<Float>(1, 1, 1)
            s[axis] = 0
            expectError(.outOfRange, containing: ["scale.\(name)"]) { () throws(FathomError) in
                _ = try OrientedBox(center: .zero, scale: s)
            }
            s[axis] = .infinity
            expectError(.notFinite, containing: ["scale.\(name)"]) { () throws(FathomError) in
                _ = try OrientedBox(center: .zero, scale: s)
            }
        }
        expectError(.outOfRange, containing: ["rotation"]) { () throws(FathomError) in
            _ = try OrientedBox(center: .zero, scale: SIMD3(1, 1, 1), rotation: Quaternion(0, 0, 0, 2))
        }
        expectError(.notFinite, containing: ["rotation.w"]) { () throws(FathomError) in
            _ = try OrientedBox(center: .zero, scale: SIMD3(1, 1, 1), rotation: Quaternion(0, 0, 0, .nan))
        }
        // Finite fields that put the corners or the volume beyond the float range.
        expectError(.notFinite) { () throws(FathomError) in
            _ = try OrientedBox(center: SIMD3(3e38, 0, 0), scale: SIMD3(1e38, 1, 1))
        }
        expectError(.notFinite) { () throws(FathomError) in
            _ = try OrientedBox(center: .zero, scale: SIMD3(1e20, 1e20, 1e20))
        }
        // Within 1e-3 of unit: accepted and normalised.
        let box = try OrientedBox(center: .zero, scale: SIMD3(1, 1, 1), rotation: Quaternion(0, 0, 0, 1.0005))
        #expect(box.rotation == .identity)
    }

    @Test("corners, volume and local coordinates")
    func cornersVolumeLocal() throws {
        let box = try OrientedBox(center: SIMD3(1, 2, 3), scale: SIMD3(2, 4, 6))
        #expect(box.corners == [SIMD3(0, 4, 0), SIMD3(2, 4, 0), SIMD3(2, 0, 0), SIMD3(0, 0, 0),
                                SIMD3(0, 4, 6), SIMD3(2, 4, 6), SIMD3(2, 0, 6), SIMD3(0, 0, 6)])
        #expect(box.volume == 48)
        var rng = SplitMix64(seed: 70)
        for _ in 0..<200 {
            let q = rng.rotation()
            let b = try OrientedBox(center: rng.vector(-5...5), scale: rng.vector(0.1...3), rotation: q)
            let v = rng.vector(-2...2)
            #expect(close(b.local(b.center + q.matrix * v), v, 16 * ulp * 8))
            for (sign, corner) in zip(Box.cornerSigns, b.corners) {
                #expect(close(b.local(corner), sign * b.scale / 2, 16 * ulp * 8))
            }
        }
    }

    /// Boxes whose rotation matrices are exact (identity and half turns), so face points are exact.
    static let exactBoxes: [OrientedBox] = [
        try! OrientedBox(center: SIMD3(0.5, -1, 2), scale: SIMD3(2, 1, 0.5)),
        try! OrientedBox(center: SIMD3(0.5, -1, 2), scale: SIMD3(2, 1, 0.5), rotation: Quaternion(0, 1, 0, 0)),
        try! OrientedBox(center: SIMD3(-3, 4, 0.25), scale: SIMD3(0.5, 8, 1), rotation: Quaternion(1, 0, 0, 0)),
    ]

    @Test("points exactly on faces, edges and corners are inside; a few ulps beyond is outside")
    func onFaces() throws {
        for box in Self.exactBoxes {
            let m = box.rotation.matrix
            let h = box.scale / 2
            var points = [SIMD3<Float>]()
            // All 27 combinations of {-h, 0, +h} per local axis: the centre, face centres, edges and corners.
            for a: Float in [-1, 0, 1] { for b: Float in [-1, 0, 1] { for c: Float in [-1, 0, 1] {
                points.append(box.center + m * SIMD3(a * h.x, b * h.y, c * h.z))
            } } }
            // Each nudged up and down along each world axis by 8 ulps of the problem's magnitude: beyond
            // what Float rounding of the local coordinates (a few ulps of it) can undo. (One ulp beyond a
            // face is below the resolution of any Float computation of R^T (p - c).)
            let nudge = 8 * ulp * (maxAbs(box.center) + maxAbs(h))
            var nudged = [SIMD3<Float>]()
            for p in points {
                for axis in 0..<3 {
                    var up = p, down = p
                    up[axis] += nudge
                    down[axis] -= nudge
                    nudged += [up, down]
                }
            }
            // The matrix is a signed permutation, so the Double reference is exact (margin -1: never unsure).
            let all = points + nudged
            let expected = all.map { referenceInside(box, $0, margin: -1)! }
            #expect(expected[0..<27].allSatisfy { $0 }, "test construction: face points must be inside")
            #expect(expected[27...].contains(false) && expected[27...].contains(true))
            try withPoints(all) { buffer in
                #expect(box.countInside(buffer) == expected.filter { $0 }.count)
                var mask = [UInt8](repeating: 7, count: all.count)
                _ = box.maskInside(buffer, mask: &mask)
                for i in all.indices {
                    #expect(mask[i] == (expected[i] ? 1 : 0), "\(all[i]) local \(box.local(all[i]))")
                }
            }
        }
    }

    @Test("points with NaN or infinite coordinates are outside; huge finite ones too")
    func nonFinitePoints() throws {
        let box = try OrientedBox(center: SIMD3(0, 0, 0), scale: SIMD3(2, 2, 2),
                                  rotation: Quaternion(axis: SIMD3(1, 2, 3), angle: 0.5))
        var points = [SIMD3<Float>]()
        for axis in 0..<3 {
            for bad: Float in [.nan, -.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude] {
                var p = SIMD3<Float>(0, 0, 0)
                p[axis] = bad
                points.append(p)
            }
        }
        points.append(SIMD3(.nan, .nan, .nan))
        points.append(SIMD3(.infinity, .infinity, .infinity))
        points.append(.zero)  // the centre: inside
        try withPoints(points) { buffer in
            #expect(box.countInside(buffer) == 1)
            var mask = [UInt8](repeating: 9, count: points.count)
            #expect(box.maskInside(buffer, mask: &mask) == 1)
            #expect(mask == [UInt8](repeating: 0, count: points.count - 1) + [1])
            var index: UInt64 = 0
            #expect(box.indicesInside(buffer, into: &index, capacity: 1) == 1)
            #expect(index == UInt64(points.count - 1))
        }
    }

    /// Checks count, mask and indices against the Double reference for one box and point set.
    static func checkAgainstReference(_ box: OrientedBox, _ points: [SIMD3<Float>], strideFloats: Int,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let magnitude = Double(maxAbs(box.center) + maxAbs(box.scale)) + 10
        let reference = points.map { referenceInside(box, $0, margin: 1e-5 * magnitude) }
        let sure = reference.filter { $0 == true }.count
        let unsure = reference.filter { $0 == nil }.count
        try withPoints(points, strideFloats: strideFloats) { buffer in
            let count = box.countInside(buffer)
            #expect(count >= sure && count <= sure + unsure, "count \(count), reference \(sure) (+\(unsure))",
                    sourceLocation: sourceLocation)
            var mask = [UInt8](repeating: 0xAA, count: points.count)
            let maskCount = box.maskInside(buffer, mask: &mask)
            #expect(maskCount == count, sourceLocation: sourceLocation)
            #expect(mask.allSatisfy { $0 <= 1 }, sourceLocation: sourceLocation)
            #expect(mask.reduce(0) { $0 + Int($1) } == count, sourceLocation: sourceLocation)
            for (i, r) in reference.enumerated() where r != nil {
                #expect((mask[i] == 1) == r!, "point \(i) \(points[i])", sourceLocation: sourceLocation)
            }
            var indices = [UInt64](repeating: .max, count: points.count + 1)
            let found = box.indicesInside(buffer, into: &indices, capacity: points.count)
            #expect(found == count, sourceLocation: sourceLocation)
            let expected = mask.enumerated().filter { $0.element == 1 }.map { UInt64($0.offset) }
            #expect(Array(indices[0..<found]) == expected, sourceLocation: sourceLocation)
            #expect(indices[found...].allSatisfy { $0 == .max }, "wrote past the inside count", sourceLocation: sourceLocation)
        }
    }

    @Test("count, mask and indices agree with the Double reference for random boxes",
          arguments: [3, 4, 5, 8])
    func randomAgainstReference(strideFloats: Int) throws {
        var rng = SplitMix64(seed: 71 &+ UInt64(strideFloats))
        for trial in 0..<60 {
            let box = try OrientedBox(center: rng.vector(-10...10), scale: rng.vector(0.1...5), rotation: rng.rotation())
            let n = [1, 2, 7, 8, 9, 63, 1023, 1024, 1025, 3001][trial % 10]
            var points = [SIMD3<Float>]()
            for i in 0..<n {
                switch i % 5 {
                case 0: points.append(box.corners[i % 8])                                  // on corners (ambiguous)
                case 1: points.append(box.center + box.rotation.matrix * (rng.vector(-0.5...0.5) * box.scale))  // inside
                default: points.append(box.center + rng.vector(-4...4))                    // anywhere near
                }
            }
            try Self.checkAgainstReference(box, points, strideFloats: strideFloats)
        }
    }

    @Test("every small count 1...40 with exhaustive inside/outside patterns of the first 8 points")
    func smallCounts() throws {
        let box = try OrientedBox(center: SIMD3(1, 1, 1), scale: SIMD3(1, 1, 1), rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: 0.3))
        let inside = box.center, outside = box.center + SIMD3(5, 0, 0)
        for n in 1...40 {
            for pattern in [0, 0xFF, 0xA5, 0x5A, 0x01, 0x80, n * 37 % 256] {
                let points = (0..<n).map { i in (pattern >> (i % 8)) & 1 == 1 ? inside : outside }
                try Self.checkAgainstReference(box, points, strideFloats: 3)
                try Self.checkAgainstReference(box, points, strideFloats: 7)
            }
        }
    }

    @Test("indicesInside with a small capacity writes only the first indices and reports the total")
    func indicesCapacity() throws {
        let box = try OrientedBox(center: .zero, scale: SIMD3(2, 2, 2))
        // Every third point inside, over several 1024-point blocks.
        let n = 5000
        let points = (0..<n).map { i in i % 3 == 0 ? SIMD3<Float>(0, 0, 0) : SIMD3<Float>(3, 0, 0) }
        let total = (n + 2) / 3
        try withPoints(points) { buffer in
            #expect(box.indicesInside(buffer, into: nil, capacity: 0) == total)
            for capacity in [0, 1, 2, 341, 342, 343, 1000, total - 1, total, total + 5] {
                var out = [UInt64](repeating: .max, count: capacity + 8)
                let found = box.indicesInside(buffer, into: &out, capacity: capacity)
                #expect(found == total)
                let written = min(capacity, total)
                #expect(Array(out[0..<written]) == (0..<written).map { UInt64($0 * 3) }, "capacity \(capacity)")
                #expect(out[written...].allSatisfy { $0 == .max }, "capacity \(capacity): wrote past the end")
            }
        }
    }

    @Test("signed distances: negative inside, positive outside, against the Double reference")
    func signedDistances() throws {
        var rng = SplitMix64(seed: 72)
        for _ in 0..<50 {
            let box = try OrientedBox(center: rng.vector(-5...5), scale: rng.vector(0.1...3), rotation: rng.rotation())
            let points = (0..<200).map { _ in box.center + rng.vector(-4...4) }
            let r = DMatrix3(box.rotation.matrix)
            let h = SIMD3<Double>(box.scale) / 2
            try withPoints(points, strideFloats: 4) { buffer in
                var out = [Float](repeating: .nan, count: points.count)
                box.signedDistances(buffer, into: &out)
                for (p, d) in zip(points, out) {
                    let l = r.transposed * (SIMD3<Double>(p) - SIMD3<Double>(box.center))
                    let q = SIMD3(abs(l.x) - h.x, abs(l.y) - h.y, abs(l.z) - h.z)
                    let outside = length(SIMD3(max(q.x, 0), max(q.y, 0), max(q.z, 0)))
                    let inside = min(max(q.x, max(q.y, q.z)), 0)
                    #expect(abs(Double(d) - (outside + inside)) <= Double(32 * ulp * 10), "\(p): \(d) vs \(outside + inside)")
                }
            }
        }
        // By hand, an axis-aligned box from -1 to 1: the centre is -1 from the surface, (3, 0, 0) is 2 away,
        // (2, 2, 1) is sqrt(2) from the edge.
        let box = try OrientedBox(center: .zero, scale: SIMD3(2, 2, 2))
        try withPoints([SIMD3(0, 0, 0), SIMD3(3, 0, 0), SIMD3(2, 2, 1), SIMD3(0.5, 0, 0), SIMD3(1, 1, 1)]) { buffer in
            var out = [Float](repeating: .nan, count: 5)
            box.signedDistances(buffer, into: &out)
            #expect(out[0] == -1 && out[1] == 2 && close(out[2], Float(2).squareRoot(), ulp) && out[3] == -0.5 && out[4] == 0)
        }
    }

    @Test("PointBuffer validates count, stride, alignment and overflow")
    func pointBufferValidation() throws {
        let storage = [Float](repeating: 0, count: 64)
        try storage.withUnsafeBytes { raw in
            let base = raw.baseAddress!
            for count in [0, -1, Int.min] {
                expectError(.outOfRange, containing: ["count"]) { () throws(FathomError) in
                    _ = try PointBuffer(base: base, count: count, strideBytes: 12)
                }
            }
            for stride in [0, 4, 8, 11, 13, 14, 15, -12] {
                expectError(.outOfRange, containing: ["stride"]) { () throws(FathomError) in
                    _ = try PointBuffer(base: base, count: 1, strideBytes: stride)
                }
            }
            expectError(.outOfRange, containing: ["aligned"]) { () throws(FathomError) in
                _ = try PointBuffer(base: base + 2, count: 1, strideBytes: 12)
            }
            expectError(.overflow) { () throws(FathomError) in
                _ = try PointBuffer(base: base, count: Int.max / 8, strideBytes: 12)
            }
            expectError(.overflow) { () throws(FathomError) in
                _ = try PointBuffer(base: base, count: Int.max, strideBytes: 16)
            }
            let ok = try PointBuffer(base: base, count: 5, strideBytes: 12)
            #expect(ok.count == 5 && ok.floatStride == 3)
            let strided = try PointBuffer(base: base, count: 2, strideBytes: 32)
            #expect(strided.floatStride == 8)
        }
    }

    @Test("requireFinite names the first non-finite point")
    func requireFinite() throws {
        try withPoints([SIMD3(0, 0, 0), SIMD3(1, 2, 3), SIMD3(0, .nan, 0), SIMD3(.infinity, 0, 0)], strideFloats: 5) { buffer in
            expectError(.notFinite, containing: ["cloud[2]"]) { () throws(FathomError) in try buffer.requireFinite("cloud") }
        }
        try withPoints([SIMD3(0, 0, 0), SIMD3(1, 2, 3)], strideFloats: 5) { buffer in
            try buffer.requireFinite()
            #expect(buffer[1] == SIMD3(1, 2, 3))
        }
    }
}
