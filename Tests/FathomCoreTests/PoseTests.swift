// Matrix3 and Pose: layouts (column-major, row-major), composition against hand-multiplied 4x4 matrices,
// inverses, rigidity checks, orthonormalisation (polar decomposition), yaw and distances.
import FathomCore
import Glibc
import Testing

@Suite("Matrix3")
struct Matrix3Tests {
    @Test("column-major layout: element (r, c) at values[c*3 + r], and back")
    func layout() throws {
        let values: [Float] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        let m = try Matrix3(columnMajor: values)
        #expect(m.c0 == SIMD3(1, 2, 3) && m.c1 == SIMD3(4, 5, 6) && m.c2 == SIMD3(7, 8, 9))
        #expect(m.columnMajor == values)
        // m * e_c is column c.
        #expect(m * SIMD3(0, 1, 0) == SIMD3(4, 5, 6))
        #expect(m.transposed.columnMajor == [1, 4, 7, 2, 5, 8, 3, 6, 9])
        for count in [0, 8, 10, 16] {
            expectError(.outOfRange, containing: ["9"]) { () throws(FathomError) in
                _ = try Matrix3(columnMajor: [Float](repeating: 1, count: count))
            }
        }
    }

    @Test("product and determinant against Double references")
    func productDeterminant() {
        var rng = SplitMix64(seed: 20)
        for _ in 0..<200 {
            let a = Matrix3(rng.vector(-2...2), rng.vector(-2...2), rng.vector(-2...2))
            let b = Matrix3(rng.vector(-2...2), rng.vector(-2...2), rng.vector(-2...2))
            let reference = DMatrix3(a) * DMatrix3(b)
            // Entries are sums of 3 products of magnitude <= 4: 3 roundings of values <= 12.
            #expect(reference.distance(to: a * b) <= Double(4 * ulp * 12))
            #expect(abs(Double(a.determinant) - DMatrix3(a).determinant) <= Double(8 * ulp * 48))
        }
    }

    @Test("rotationY is box.md's R_y(a) = [[cos, 0, sin], [0, 1, 0], [-sin, 0, cos]]")
    func rotationY() {
        for a: Float in [0, 0.3, -1.2, .pi / 2, .pi, 4] {
            let m = Matrix3.rotationY(a)
            let reference = DMatrix3.rotationY(Double(a))
            #expect(reference.distance(to: m) <= Double(ulp))
            // Row 0 is (cos a, 0, sin a): a positive angle turns +z toward +x.
            #expect(close(m * SIMD3(0, 0, 1), SIMD3(sin(a), 0, cos(a)), ulp))
        }
    }

    @Test("rotationDeviation: 0 for rotations, |M^T M - I| otherwise, infinity for reflections")
    func rotationDeviation() {
        #expect(Matrix3.identity.rotationDeviation == 0)
        let stretched = Matrix3(SIMD3(1.5, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        #expect(close(stretched.rotationDeviation, 1.25, ulp))
        let reflection = Matrix3(SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        #expect(reflection.rotationDeviation == .infinity)
        var rng = SplitMix64(seed: 21)
        for _ in 0..<100 { #expect(rng.rotation().matrix.rotationDeviation <= 4 * ulp) }
    }
}

@Suite("Pose")
struct PoseTests {
    @Test("column-major and row-major: translation at 12, 13, 14; row-major is the transpose")
    func layouts() throws {
        // Rotation R_z(90 deg): columns (0, 1, 0), (-1, 0, 0), (0, 0, 1); translation (5, 6, 7).
        let columnMajor: [Float] = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1]
        let rowMajor: [Float] = [0, -1, 0, 5, 1, 0, 0, 6, 0, 0, 1, 7, 0, 0, 0, 1]
        let a = try Pose(columnMajor: columnMajor)
        let b = try Pose(rowMajor: rowMajor)
        #expect(a == b)
        #expect(a.translation == SIMD3(5, 6, 7))
        #expect(a.rotation.c0 == SIMD3(0, 1, 0))
        #expect(a.columnMajor == columnMajor)
        #expect(a.rowMajor == rowMajor)
        #expect(a.apply(point: SIMD3(1, 0, 0)) == SIMD3(5, 7, 7))
        #expect(a.apply(direction: SIMD3(1, 0, 0)) == SIMD3(0, 1, 0))
    }

    @Test("column-major -> row-major -> pose round trips exactly for random poses")
    func roundTrips() throws {
        var rng = SplitMix64(seed: 22)
        for _ in 0..<300 {
            let pose = randomPose(&rng)
            let m = pose.columnMajor
            let rows = pose.rowMajor
            for r in 0..<4 { for c in 0..<4 { #expect(rows[r * 4 + c] == m[c * 4 + r]) } }
            #expect(m[3] == 0 && m[7] == 0 && m[11] == 0 && m[15] == 1)
            #expect(try Pose(columnMajor: m) == pose)
            #expect(try Pose(rowMajor: rows) == pose)
        }
    }

    @Test("composition equals the hand-multiplied 4x4 matrices (b first, then a)")
    func composition() {
        var rng = SplitMix64(seed: 23)
        for _ in 0..<300 {
            let a = randomPose(&rng), b = randomPose(&rng)
            let product = (a * b).columnMajor
            let reference = multiply4(a.columnMajor.map(Double.init), b.columnMajor.map(Double.init))
            for i in 0..<16 {
                // Translation entries reach |R t| + |t| <= ~14: 4 ulps of that.
                #expect(abs(Double(product[i]) - reference[i]) <= Double(4 * ulp * 16), "entry \(i)")
            }
            let p = rng.vector(-3...3)
            #expect(close((a * b).apply(point: p), a.apply(point: b.apply(point: p)), 8 * ulp * 16))
        }
        // By hand: a = R_z(90 deg) then +(1, 0, 0); b = +(1, 0, 0). a * b moves the origin to (1, 1, 0).
        let rz = Pose(rotation: Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1)), translation: SIMD3(1, 0, 0))
        let shift = Pose(rotation: Matrix3.identity, translation: SIMD3(1, 0, 0))
        #expect((rz * shift).translation == SIMD3(1, 1, 0))
        #expect((shift * rz).translation == SIMD3(2, 0, 0))
    }

    @Test("pose * inverse = inverse * pose = identity")
    func inverse() {
        var rng = SplitMix64(seed: 24)
        for _ in 0..<300 {
            let pose = randomPose(&rng, range: 10)
            for product in [pose * pose.inverse, pose.inverse * pose] {
                #expect(close(product.rotation, .identity, 4 * ulp))
                #expect(maxAbs(product.translation) <= 8 * ulp * 10, "\(product.translation)")
            }
            let p = rng.vector(-10...10)
            #expect(close(pose.inverse.apply(point: pose.apply(point: p)), p, 8 * ulp * 20))
            // Directions ignore the translation.
            #expect(pose.apply(direction: p) == pose.rotation * p)
        }
    }

    @Test("init(columnMajor:) rejects wrong counts, non-finite entries, bad bottom rows, scales and reflections")
    func columnMajorValidation() throws {
        let identity = Pose.identity.columnMajor
        for count in [0, 9, 15, 17] {
            expectError(.outOfRange, containing: ["16"]) { () throws(FathomError) in
                _ = try Pose(columnMajor: [Float](repeating: 0, count: count))
            }
            expectError(.outOfRange, containing: ["16"]) { () throws(FathomError) in
                _ = try Pose(rowMajor: [Float](repeating: 0, count: count))
            }
        }
        // Every entry, NaN and +-infinity: .notFinite naming the index, row and column.
        for i in 0..<16 {
            for bad: Float in [.nan, .infinity, -.infinity] {
                var m = identity
                m[i] = bad
                expectError(.notFinite, containing: ["[\(i)]", "row \(i % 4), column \(i / 4)"]) { () throws(FathomError) in
                    _ = try Pose(columnMajor: m)
                }
            }
        }
        // Bottom row entries off by 0.01.
        for i in [3, 7, 11, 15] {
            var m = identity
            m[i] += 0.01
            expectError(.notRigid, containing: ["bottom row"]) { () throws(FathomError) in _ = try Pose(columnMajor: m) }
        }
        // A uniform scale, a shear, a reflection.
        var scale = identity
        scale[0] = 2; scale[5] = 2; scale[10] = 2
        expectError(.notRigid) { () throws(FathomError) in _ = try Pose(columnMajor: scale) }
        var shear = identity
        shear[4] = 0.1
        expectError(.notRigid) { () throws(FathomError) in _ = try Pose(columnMajor: shear) }
        var reflection = identity
        reflection[10] = -1
        expectError(.notRigid, containing: ["reflection"]) { () throws(FathomError) in _ = try Pose(columnMajor: reflection) }
        // Within the default tolerance (1e-3) is accepted; a tighter tolerance refuses it.
        var nearly = identity
        nearly[0] = 1 + 4e-4
        _ = try Pose(columnMajor: nearly)
        expectError(.notRigid) { () throws(FathomError) in _ = try Pose(columnMajor: nearly, tolerance: 1e-5) }
        // The name appears in the message.
        expectError(.notRigid, containing: ["camera"]) { () throws(FathomError) in
            _ = try Pose(columnMajor: scale, name: "camera")
        }
    }

    @Test("init(rotation:translation:) validates the quaternion and the translation")
    func quaternionInit() throws {
        let q = try Quaternion(axis: SIMD3(0, 1, 0), angle: 0.7)
        let pose = try Pose(rotation: q, translation: SIMD3(1, 2, 3))
        #expect(close(pose.rotation, q.matrix, 2 * ulp))
        #expect(sameRotation(pose.quaternion, q, 4 * ulp))
        #expect(pose.quaternion.real >= 0)
        expectError(.outOfRange) { () throws(FathomError) in
            _ = try Pose(rotation: Quaternion(0, 0, 0, 1.01), translation: .zero)
        }
        expectError(.notFinite, containing: ["rotation.x"]) { () throws(FathomError) in
            _ = try Pose(rotation: Quaternion(.nan, 0, 0, 1), translation: .zero)
        }
        expectError(.notFinite, containing: ["translation.z"]) { () throws(FathomError) in
            _ = try Pose(rotation: Quaternion.identity, translation: SIMD3(0, 0, .infinity))
        }
    }

    @Test("rigidDeviation: the largest |R^T R - I| or bottom-row entry, infinity for bad input")
    func rigidDeviation() {
        #expect(Pose.rigidDeviation(columnMajor: Pose.identity.columnMajor) == 0)
        var m = Pose.identity.columnMajor
        m[0] = 1.1
        #expect(close(Pose.rigidDeviation(columnMajor: m), 0.21, 2 * ulp))
        m = Pose.identity.columnMajor
        m[7] = 0.5
        #expect(Pose.rigidDeviation(columnMajor: m) == 0.5)
        m[7] = .nan
        #expect(Pose.rigidDeviation(columnMajor: m) == .infinity)
        #expect(Pose.rigidDeviation(columnMajor: [1, 0, 0]) == .infinity)
    }

    @Test("orthonormalized recovers R from R * S (S symmetric positive definite near I: the polar factor)")
    func orthonormalizePolar() throws {
        var rng = SplitMix64(seed: 25)
        for _ in 0..<200 {
            let r = DMatrix3(rng.rotation().matrix)
            // S = I + E, E symmetric with entries up to 1e-4.
            var s = DMatrix3.identity
            for row in 0..<3 {
                for col in row..<3 {
                    let e = rng.double(-1e-4...1e-4)
                    s[row, col] += e
                    if row != col { s[col, row] += e }
                }
            }
            let a = r * s
            let t = rng.vector(-5...5)
            var m = Pose(rotation: a.float, translation: t).columnMajor
            m[3] = 1e-5  // a slightly wrong bottom row is reset
            let fixed = try Pose.orthonormalized(columnMajor: m, maxDeviation: 1e-2)
            #expect(r.distance(to: fixed.rotation) <= Double(8 * ulp), "\(r.distance(to: fixed.rotation))")
            #expect(fixed.rotation.rotationDeviation <= 4 * ulp)
            #expect(fixed.rotation.determinant > 0)
            #expect(fixed.translation == t)
            #expect(fixed.columnMajor[3] == 0)
        }
    }

    @Test("orthonormalized: a slightly perturbed rotation comes back rigid, and no rotation is nearer the input")
    func orthonormalizePerturbed() throws {
        // The polar factor Q minimises |M - Q| (Frobenius) over all rotations, so it is at least as near
        // M as the rotation M was perturbed from, and within about twice the perturbation of it.
        func frobenius(_ a: DMatrix3, _ b: Matrix3) -> Double {
            zip(a.m, b.columnMajor).map { ($0 - Double($1)) * ($0 - Double($1)) }.reduce(0, +).squareRoot()
        }
        var rng = SplitMix64(seed: 26)
        for _ in 0..<200 {
            let pose = randomPose(&rng)
            var m = pose.columnMajor
            for i in [0, 1, 2, 4, 5, 6, 8, 9, 10] { m[i] += rng.float(-2e-4...2e-4) }
            let fixed = try Pose.orthonormalized(columnMajor: m, maxDeviation: rigidTolerance)
            #expect(fixed.rotation.rotationDeviation <= 4 * ulp)
            #expect(fixed.rotation.determinant > 0)
            let input = DMatrix3(columnMajor: [0, 1, 2, 4, 5, 6, 8, 9, 10].map { Double(m[$0]) })
            let toResult = frobenius(input, fixed.rotation), toOriginal = frobenius(input, pose.rotation)
            #expect(toResult <= toOriginal + Double(8 * ulp), "|M - Q| = \(toResult) > |M - R| = \(toOriginal)")
            #expect(DMatrix3(pose.rotation).distance(to: fixed.rotation) <= 2 * 3 * 2e-4)
            #expect(fixed.translation == pose.translation)
        }
    }

    @Test("orthonormalized refuses what was never a pose, and bad arguments")
    func orthonormalizeRefuses() {
        var scale = Pose.identity.columnMajor
        scale[0] = 2; scale[5] = 2; scale[10] = 2
        expectError(.notRigid, containing: ["deviates"]) { () throws(FathomError) in
            _ = try Pose.orthonormalized(columnMajor: scale, maxDeviation: 0.1)
        }
        var reflection = Pose.identity.columnMajor
        reflection[0] = -1
        expectError(.notRigid, containing: ["reflection"]) { () throws(FathomError) in
            _ = try Pose.orthonormalized(columnMajor: reflection, maxDeviation: 10)
        }
        var projection = Pose.identity.columnMajor
        projection[11] = -1; projection[15] = 0
        expectError(.notRigid) { () throws(FathomError) in
            _ = try Pose.orthonormalized(columnMajor: projection, maxDeviation: 0.5)
        }
        for bad: Float in [0, -1] {
            expectError(.outOfRange, containing: ["max_deviation"]) { () throws(FathomError) in
                _ = try Pose.orthonormalized(columnMajor: Pose.identity.columnMajor, maxDeviation: bad)
            }
        }
        expectError(.notFinite, containing: ["max_deviation"]) { () throws(FathomError) in
            _ = try Pose.orthonormalized(columnMajor: Pose.identity.columnMajor, maxDeviation: .nan)
        }
        expectError(.outOfRange) { () throws(FathomError) in
            _ = try Pose.orthonormalized(columnMajor: [Float](repeating: 0, count: 15), maxDeviation: 1)
        }
        var nan = Pose.identity.columnMajor
        nan[5] = .nan
        expectError(.notFinite, containing: ["[5]"]) { () throws(FathomError) in
            _ = try Pose.orthonormalized(columnMajor: nan, maxDeviation: 1)
        }
    }

    @Test("yaw of R_y(a) * R_x(tilt) is a for any tilt short of vertical, and from local x when z is vertical")
    func yaw() throws {
        for step in -15...16 {
            let a = Double(step) * .pi / 16.5  // inside (-pi, pi)
            for tilt in [-1.3, -0.4, 0, 0.9, 1.4] {
                let r = (DMatrix3.rotationY(a) * DMatrix3.rotationX(tilt)).float
                let pose = Pose(rotation: r, translation: SIMD3(1, 2, 3))
                #expect(abs(Double(pose.yaw) - a) <= 1e-5, "a \(a) tilt \(tilt): \(pose.yaw)")
            }
            // Looking straight down (local z up) or up: local x decides.
            for tilt in [-Double.pi / 2, Double.pi / 2] {
                let r = (DMatrix3.rotationY(a) * DMatrix3.rotationX(tilt)).float
                let pose = Pose(rotation: r, translation: .zero)
                #expect(abs(Double(pose.yaw) - a) <= 1e-5, "vertical, a \(a): \(pose.yaw)")
            }
        }
    }

    @Test("yaw of a pose heading exactly backwards is +pi, as the range (-pi, pi] requires")
    func yawAtPi() throws {
        // R_y(pi) as a caller's matrix would hold it: the -0.0 is what simd writes for -sin(pi) rounded.
        let backwards = try Pose(columnMajor: [-1, 0, 0, 0, 0, 1, 0, 0, -0.0, 0, -1, 0, 0, 0, 0, 1])
        #expect(backwards.yaw > 0, "yaw = \(backwards.yaw), outside (-pi, pi]")
        #expect(close(backwards.yaw, .pi, 2 * ulp))
        // Local z straight up, local x = -x_world: R_y(pi) * R_x(-90 deg), an exact integer matrix.
        let downBackwards = try Pose(columnMajor: [-1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1])
        #expect(downBackwards.yaw > 0, "yaw = \(downBackwards.yaw), outside (-pi, pi]")
        #expect(close(downBackwards.yaw, .pi, 2 * ulp))
    }

    @Test("distance: Euclidean distance of the origins and the relative rotation angle")
    func distance() throws {
        let a = Pose(rotation: Matrix3.identity, translation: SIMD3(1, 1, 1))
        let q = try Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 2)
        let b = try Pose(rotation: q, translation: SIMD3(4, 5, 1))
        let (meters, radians) = a.distance(to: b)
        #expect(meters == 5)
        #expect(close(radians, .pi / 2, 4 * ulp))
        let (m2, r2) = b.distance(to: a)
        #expect(m2 == meters && r2 == radians)
    }
}
