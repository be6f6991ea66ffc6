// Quaternions: Hamilton products against the basis table, rotations against Rodrigues' formula in Double,
// matrix round trips, slerp and angles, and every validation path.
import FathomCore
import Glibc
import Testing

@Suite("Quaternion")
struct QuaternionTests {
    // Basis units as (x, y, z, w): i, j, k and 1.
    static let one = Quaternion(0, 0, 0, 1), i = Quaternion(1, 0, 0, 0)
    static let j = Quaternion(0, 1, 0, 0), k = Quaternion(0, 0, 1, 0)

    @Test("storage order is (x, y, z, w): vector part first, real part last")
    func storageOrder() {
        let q = Quaternion(1, 2, 3, 4)
        #expect(q.vector == SIMD4(1, 2, 3, 4))
        #expect(q.imag == SIMD3(1, 2, 3))
        #expect(q.real == 4)
        #expect(Quaternion.identity == Quaternion(0, 0, 0, 1))
    }

    @Test("Hamilton products of the basis units match the table i^2 = j^2 = k^2 = ijk = -1 exactly")
    func basisTable() {
        let basis = [Self.one, Self.i, Self.j, Self.k]
        // table[a][b] = basis[a] * basis[b] as (sign, index).
        let table: [[(Float, Int)]] = [
            [(1, 0), (1, 1), (1, 2), (1, 3)],     // 1 * (1, i, j, k)
            [(1, 1), (-1, 0), (1, 3), (-1, 2)],   // i * (1, i, j, k) = i, -1, k, -j
            [(1, 2), (-1, 3), (-1, 0), (1, 1)],   // j * ... = j, -k, -1, i
            [(1, 3), (1, 2), (-1, 1), (-1, 0)],   // k * ... = k, j, -i, -1
        ]
        for a in 0..<4 {
            for b in 0..<4 {
                let (sign, index) = table[a][b]
                let product = basis[a] * basis[b]
                #expect(product.vector == sign * basis[index].vector, "basis \(a) * basis \(b) = \(product)")
            }
        }
    }

    @Test("the identity is neutral on both sides, exactly")
    func identityNeutral() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<100 {
            let q = Quaternion(vector: SIMD4(rng.float(-2...2), rng.float(-2...2), rng.float(-2...2), rng.float(-2...2)))
            #expect((Quaternion.identity * q) == q)
            #expect((q * Quaternion.identity) == q)
        }
    }

    @Test("q * conj(q) = conj(q) * q = identity within 4 ulp for unit q")
    func conjugateInverse() {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<500 {
            let q = rng.rotation()
            for product in [q * q.conjugate, q.conjugate * q] {
                let d = product.vector - Quaternion.identity.vector
                #expect(max(max(abs(d.x), abs(d.y)), max(abs(d.z), abs(d.w))) <= 4 * ulp, "\(q) -> \(product)")
            }
        }
    }

    @Test("axis-angle follows the right-hand rule: quarter turns of the basis axes")
    func quarterTurns() throws {
        let cases: [(axis: SIMD3<Float>, from: SIMD3<Float>, to: SIMD3<Float>)] = [
            (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)),   // about x: y -> z
            (SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 0, 0)),   // about y: z -> x
            (SIMD3(0, 0, 1), SIMD3(1, 0, 0), SIMD3(0, 1, 0)),   // about z: x -> y
        ]
        for c in cases {
            let q = try Quaternion(axis: c.axis, angle: .pi / 2)
            #expect(close(q.rotate(c.from), c.to, 2 * ulp), "\(c.axis): \(q.rotate(c.from))")
            #expect(close(q.matrix * c.from, c.to, 2 * ulp))
            // The axis itself does not move.
            #expect(close(q.rotate(c.axis), c.axis, 2 * ulp))
            // A quarter turn has |w| = cos(pi/4).
            #expect(close(q.real, Float(0.5).squareRoot(), 2 * ulp))
        }
    }

    @Test("the axis need not be unit length")
    func axisScaleInvariant() throws {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<200 {
            let axis = SIMD3<Float>(rng.direction())
            let angle = rng.float(-6...6)
            let unit = try Quaternion(axis: axis, angle: angle)
            for factor: Float in [1e-30, 1e-3, 0.5, 7, 1e4, 1e30] {
                let scaled = try Quaternion(axis: axis * factor, angle: angle)
                #expect(sameRotation(unit, scaled, 4 * ulp), "factor \(factor): \(unit) vs \(scaled)")
            }
        }
    }

    @Test("matrix and rotate agree with Rodrigues' formula computed in Double")
    func matchesRodrigues() throws {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<300 {
            let axis = rng.direction()
            let angle = rng.double(-.pi...(.pi))
            let q = try Quaternion(axis: SIMD3<Float>(axis), angle: Float(angle))
            // Reference from the Float inputs actually passed, so only the engine's arithmetic is measured.
            let floatAxis = SIMD3<Double>(SIMD3<Float>(axis))
            let reference = DMatrix3.rotation(axis: floatAxis / length(floatAxis), angle: Double(Float(angle)))
            #expect(reference.distance(to: q.matrix) <= Double(8 * ulp), "axis \(axis) angle \(angle)")
            let v = rng.vector(-3...3)
            let expected = reference * SIMD3<Double>(v)
            #expect(close(q.rotate(v), expected, Double(16 * ulp * 3)), "rotate \(v)")
        }
    }

    @Test("the product composes rotations: (a * b) rotates by b, then by a")
    func productComposes() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<300 {
            let a = rng.rotation(), b = rng.rotation()
            let v = rng.vector(-2...2)
            let ab = a * b
            #expect(close(ab.rotate(v), a.rotate(b.rotate(v)), 16 * ulp * 2))
            #expect(close(ab.matrix, a.matrix * b.matrix, 8 * ulp))
        }
    }

    @Test("matrix -> quaternion -> matrix round trip, including half turns, with w >= 0")
    func matrixRoundTrip() throws {
        var rng = SplitMix64(seed: 6)
        var rotations = (0..<500).map { _ in rng.rotation() }
        // Half turns (trace = -1) about the axes and diagonals exercise every branch of Shepperd's method.
        let halfTurnAxes: [SIMD3<Float>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0),
                                            SIMD3(0, 1, 1), SIMD3(1, 0, 1), SIMD3(1, 1, 1), SIMD3(-1, 2, 3)]
        for axis in halfTurnAxes {
            rotations.append(try Quaternion(axis: axis, angle: .pi))
            rotations.append(try Quaternion(axis: axis, angle: .pi - 1e-3))
        }
        rotations.append(.identity)
        for q in rotations {
            let back = Quaternion(rotation: q.matrix)
            #expect(back.real >= 0, "\(back)")
            #expect(abs(back.length - 1) <= 2 * ulp, "|q| = \(back.length)")
            #expect(sameRotation(back, q, 8 * ulp), "\(q) -> \(back)")
            #expect(close(back.matrix, q.matrix, 8 * ulp))
        }
    }

    @Test("checkedRotation accepts rotations within tolerance and rejects the rest")
    func checkedRotation() throws {
        // Within 1e-3: accepted, and the result is still (close to) the rotation.
        let nearly = Matrix3(SIMD3(1 + 4e-4, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        #expect(sameRotation(try Quaternion(checkedRotation: nearly), .identity, 1e-3))
        // A reflection.
        let reflection = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, -1))
        expectError(.notRigid, containing: ["reflection"]) { () throws(FathomError) in
            _ = try Quaternion(checkedRotation: reflection)
        }
        // A scale (determinant > 0 but not orthonormal).
        let scale = Matrix3(SIMD3(2, 0, 0), SIMD3(0, 2, 0), SIMD3(0, 0, 2))
        expectError(.notRigid) { () throws(FathomError) in _ = try Quaternion(checkedRotation: scale) }
        // A singular matrix.
        let singular = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 0))
        expectError(.notRigid) { () throws(FathomError) in _ = try Quaternion(checkedRotation: singular) }
        // Non-finite entries, in each column.
        for column in 0..<3 {
            var m = Matrix3.identity.columnMajor
            m[column * 3 + column] = .nan
            expectError(.notFinite) { () throws(FathomError) in
                _ = try Quaternion(checkedRotation: Matrix3(columnMajor: m))
            }
            m[column * 3 + column] = .infinity
            expectError(.notFinite) { () throws(FathomError) in
                _ = try Quaternion(checkedRotation: Matrix3(columnMajor: m))
            }
        }
        // A tighter tolerance rejects what the default accepts.
        expectError(.notRigid) { () throws(FathomError) in _ = try Quaternion(checkedRotation: nearly, tolerance: 1e-5) }
    }

    @Test("normalized divides by the length and refuses a zero quaternion")
    func normalized() throws {
        let q = try Quaternion(3, 0, 4, 0).normalized()
        #expect(close(q.vector.x, 0.6, ulp) && close(q.vector.z, 0.8, ulp) && q.vector.y == 0 && q.vector.w == 0)
        expectError(.degenerate) { () throws(FathomError) in _ = try Quaternion(0, 0, 0, 0).normalized() }
        expectError(.degenerate) { () throws(FathomError) in _ = try Quaternion(0, -0.0, 0, 0).normalized() }
        // Every sign pattern of a 4-vector with equal components normalises to +-1/2 each.
        for bits in 0..<16 {
            let signs = SIMD4<Float>((0..<4).map { bits & (1 << $0) != 0 ? -1 : 1 })
            let n = try Quaternion(vector: 7 * signs).normalized()
            #expect(n.vector == signs / 2, "\(signs)")
        }
    }

    @Test("normalized and length work for large and tiny quaternions (|q|^2 over- or underflows, |q| does not)")
    func normalizedLarge() throws {
        // |q|^2 = 1e40 overflows Float, but |q| = 1e20 does not: q / |q| = (1, 0, 0, 0) is well defined.
        // The header promises FATHOM_ERR_DEGENERATE only for |q| = 0 or too small to normalise.
        #expect(close(Quaternion(0, 0, 3e30, 4e30).length, 5e30, 2 * ulp * 5e30))
        #expect(close(Quaternion(0, 3e-30, 0, 4e-30).length, 5e-30, 2 * ulp * 5e-30))
        for q in [Quaternion(1e20, 0, 0, 0), Quaternion(0, 0, 3e19, 4e19), Quaternion(2e30, 2e30, 2e30, 2e30),
                  Quaternion(-.greatestFiniteMagnitude, 0, .greatestFiniteMagnitude, 0),
                  Quaternion(0, 1e-30, 0, 0), Quaternion(0, 0, 3e-25, 4e-25)] {
            let n: Quaternion
            do { n = try q.normalized() } catch {
                Issue.record("normalized() of \(q) threw .\(error.kind): \(error.message)")
                continue
            }
            #expect(abs(n.length - 1) <= 2 * ulp, "\(q) -> \(n)")
        }
    }

    @Test("slerp: endpoints, unit results, the halfway angle and extrapolation")
    func slerp() throws {
        var rng = SplitMix64(seed: 7)
        for trial in 0..<300 {
            let a = rng.rotation()
            // Angles from tiny (the linear branch, dot > 0.9995) to nearly a half turn.
            let angle = trial % 3 == 0 ? rng.float(1e-4...0.05) : rng.float(0.05...3.1)
            let relative = try Quaternion(axis: SIMD3<Float>(rng.direction()), angle: angle)
            let b = relative * a
            #expect(sameRotation(a.slerp(to: b, t: 0), a, 4 * ulp))
            #expect(sameRotation(a.slerp(to: b, t: 1), b, 16 * ulp))
            for t: Float in [-0.5, 0, 0.1, 0.25, 0.5, 0.9, 1, 1.5] {
                let s = a.slerp(to: b, t: t)
                #expect(abs(s.length - 1) <= 4 * ulp, "t \(t): |q| = \(s.length)")
            }
            // The midpoint is at half the angle from both ends, and equals the half rotation applied to a.
            let mid = a.slerp(to: b, t: 0.5)
            let half = try Quaternion(axis: relative.imag, angle: angle / 2) * a
            #expect(sameRotation(mid, half, 3e-5), "angle \(angle): \(mid) vs \(half)")
            // Interpolating at t gives the rotation t * angle about the same axis (also for t outside [0, 1]).
            for t: Float in [0.25, 0.75, 1.5] where angle * t < 3.1 {
                let expected = try Quaternion(axis: relative.imag, angle: angle * t) * a
                #expect(sameRotation(a.slerp(to: b, t: t), expected, 3e-5), "t \(t) angle \(angle)")
            }
        }
    }

    @Test("slerp far outside [0, 1] stays a unit rotation about the same axis (its float sum of squares would overflow)")
    func slerpFarExtrapolation() {
        // From the identity to R_y(2h), h = atan2(0.6, 0.8): slerp at t is the rotation by 2 t h about +y, so x and z stay
        // exactly 0 and (y, w) = (sin t h, cos t h); at t = 1000 that is checked against Double trigonometry.
        let a = Quaternion(0, 0, 0, 1), b = Quaternion(0, 0.6, 0, 0.8)
        let h = atan2(0.6, 0.8)
        let q = a.slerp(to: b, t: 1000)
        #expect(abs(Double(q.vector.y) - sin(1000 * h)) < 2e-3 && abs(Double(q.vector.w) - cos(1000 * h)) < 2e-3, "\(q)")
        for t: Float in [1000, -1000, 1e10, -1e10, 1e30, -1e30, 3e38] {
            let s = a.slerp(to: b, t: t)
            #expect(abs(s.length - 1) <= 1e-5 && s.vector.x == 0 && s.vector.z == 0, "t \(t): \(s)")
        }
    }

    @Test("slerp takes the shorter arc: b and -b interpolate to the same rotation")
    func slerpShorterArc() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let a = rng.rotation(), b = rng.rotation()
            let minusB = Quaternion(vector: -b.vector)
            for t: Float in [0.2, 0.5, 0.8] {
                #expect(sameRotation(a.slerp(to: b, t: t), a.slerp(to: minusB, t: t), 8 * ulp))
            }
        }
    }

    @Test("angle(to:) is the relative rotation angle in [0, pi], the same for q and -q")
    func angleBetween() throws {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<300 {
            let axis = SIMD3<Float>(rng.direction())
            let alpha = rng.float(-3...3), beta = rng.float(-3...3)
            let a = try Quaternion(axis: axis, angle: alpha), b = try Quaternion(axis: axis, angle: beta)
            var expected = abs(Double(alpha) - Double(beta))
            if expected > .pi { expected = 2 * .pi - expected }
            let got = a.angle(to: b)
            #expect(got >= 0 && got <= Float.pi + ulp)
            // The engine takes 2 acos(|<a, b>|): allow what a 4-ulp error in the dot product does through acos
            // (large near 0, see angleToSelf), plus 1e-5 rad.
            let d = cos(expected / 2), e = Double(4 * ulp)
            let allowance = 2 * max(abs(acos(max(d - e, -1)) - acos(d)), abs(acos(min(d + e, 1)) - acos(d))) + 1e-5
            #expect(abs(Double(got) - expected) <= allowance, "\(alpha) vs \(beta): \(got) vs \(expected)")
            #expect(a.angle(to: Quaternion(vector: -b.vector)) == got)
            #expect(b.angle(to: a) == got)
        }
        // Exact cases: a half turn, and a quarter turn.
        #expect(close(Quaternion.identity.angle(to: Self.i), .pi, 2 * ulp))
        let quarter = try Quaternion(axis: SIMD3(0, 0, 1), angle: .pi / 2)
        #expect(close(Quaternion.identity.angle(to: quarter), .pi / 2, 4 * ulp))
    }

    @Test("the angle between a rotation and itself is 0 (within 1e-5 rad)")
    func angleToSelf() {
        // 2 acos(|<q, q>|) turns a dot product that rounds to 1 - 2^-24 into 2 acos(1 - 2^-24) = 6.9e-4 rad
        // (0.04 degrees): a formula such as 2 atan2(|v|, |w|) of the relative rotation does not.
        var rng = SplitMix64(seed: 10)
        var worst: (angle: Float, q: Quaternion) = (0, .identity)
        for _ in 0..<1000 {
            let q = rng.rotation()
            let a = q.angle(to: q)
            if a > worst.angle { worst = (a, q) }
        }
        #expect(worst.angle <= 1e-5, "angle(to: itself) = \(worst.angle) rad for \(worst.q)")
    }

    @Test("Quaternion.rotation validates unit length within 1e-3 and finiteness, naming the component")
    func rotationValidation() throws {
        let slightly = try Quaternion.rotation(Quaternion(0, 0, 0, 1.0009), "q")
        #expect(abs(slightly.length - 1) <= ulp)
        expectError(.outOfRange, containing: ["q", "unit"]) { () throws(FathomError) in
            _ = try Quaternion.rotation(Quaternion(0, 0, 0, 1.002), "q")
        }
        expectError(.outOfRange) { () throws(FathomError) in _ = try Quaternion.rotation(Quaternion(0, 0, 0, 0), "q") }
        for (index, name) in ["x", "y", "z", "w"].enumerated() {
            for bad: Float in [.nan, .infinity, -.infinity] {
                var v = SIMD4<Float>(0, 0, 0, 1)
                v[index] = bad
                expectError(.notFinite, containing: ["q.\(name)"]) { () throws(FathomError) in
                    _ = try Quaternion.rotation(Quaternion(vector: v), "q")
                }
            }
        }
    }

    @Test("axis-angle validation: zero axis is degenerate, non-finite axis or angle is named")
    func axisAngleValidation() {
        expectError(.degenerate, containing: ["axis"]) { () throws(FathomError) in
            _ = try Quaternion(axis: .zero, angle: 1)
        }
        for (index, name) in ["x", "y", "z"].enumerated() {
            var axis = SIMD3<Float>(0, 1, 0)
            axis[index] = .nan
            expectError(.notFinite, containing: ["axis.\(name)"]) { () throws(FathomError) in
                _ = try Quaternion(axis: axis, angle: 1)
            }
        }
        for angle: Float in [.nan, .infinity, -.infinity] {
            expectError(.notFinite, containing: ["angle"]) { () throws(FathomError) in
                _ = try Quaternion(axis: SIMD3(0, 1, 0), angle: angle)
            }
        }
    }
}
