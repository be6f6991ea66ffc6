// LAPACK wrappers: eigen-decomposition, nearest rotation and SPD inverse against hand and Double results.
import FathomCore
import Testing

@Suite("LinearAlgebra")
struct LinearAlgebraTests {
    @Test("symmetricEigen: ascending eigenvalues, orthonormal eigenvectors, A v = lambda v")
    func eigen() throws {
        // By hand: [[2, 1], [1, 2]] has eigenvalues 1 and 3 with vectors (1, -1)/sqrt 2 and (1, 1)/sqrt 2.
        let (values, vectors) = try LinearAlgebra.symmetricEigen([2, 1, 1, 2], n: 2)
        #expect(abs(values[0] - 1) <= 1e-14 && abs(values[1] - 3) <= 1e-14)
        #expect(abs(abs(vectors[2]) - 0.5.squareRoot()) <= 1e-14 && abs(vectors[2] - vectors[3]) <= 1e-14)
        var rng = SplitMix64(seed: 110)
        for n in 1...6 {
            for _ in 0..<20 {
                var a = [Double](repeating: 0, count: n * n)
                for r in 0..<n { for c in r..<n { let v = rng.double(-2...2); a[c * n + r] = v; a[r * n + c] = v } }
                let (w, v) = try LinearAlgebra.symmetricEigen(a, n: n)
                #expect(zip(w, w.dropFirst()).allSatisfy { $0 <= $1 })
                for k in 0..<n {
                    for r in 0..<n {
                        let av = (0..<n).map { c in a[c * n + r] * v[k * n + c] }.reduce(0, +)
                        #expect(abs(av - w[k] * v[k * n + r]) <= 1e-12)
                    }
                    for l in 0..<n {
                        let d = (0..<n).map { v[k * n + $0] * v[l * n + $0] }.reduce(0, +)
                        #expect(abs(d - (k == l ? 1 : 0)) <= 1e-12)
                    }
                }
            }
        }
        expectError(.outOfRange) { () throws(FathomError) in _ = try LinearAlgebra.symmetricEigen([1, 2, 3], n: 2) }
        expectError(.outOfRange) { () throws(FathomError) in _ = try LinearAlgebra.symmetricEigen([], n: 0) }
        // Orders whose n * n, or LAPACK's 32-bit sizes, would overflow are refused before any arithmetic on them.
        for n in [4097, Int(Int32.max) + 1, Int.max] {
            expectError(.outOfRange, containing: ["at most 4096x4096"]) { () throws(FathomError) in _ = try LinearAlgebra.symmetricEigen([1], n: n) }
            expectError(.outOfRange, containing: ["at most 4096x4096"]) { () throws(FathomError) in _ = try LinearAlgebra.inverseSPD([1], n: n) }
        }
        expectError(.notFinite) { () throws(FathomError) in _ = try LinearAlgebra.symmetricEigen([1, .nan, .nan, 1], n: 2) }
    }

    @Test("inverseSPD: A * inverse = I against a Double check; non-SPD refused")
    func inverse() throws {
        var rng = SplitMix64(seed: 111)
        for n in 1...5 {
            for _ in 0..<20 {
                // A = B B^T + I.
                let b = (0..<(n * n)).map { _ in rng.double(-1...1) }
                var a = [Double](repeating: 0, count: n * n)
                for r in 0..<n { for c in 0..<n {
                    a[c * n + r] = (0..<n).map { b[$0 * n + r] * b[$0 * n + c] }.reduce(0, +) + (r == c ? 1 : 0)
                } }
                let inv = try LinearAlgebra.inverseSPD(a, n: n)
                for r in 0..<n { for c in 0..<n {
                    let p = (0..<n).map { a[$0 * n + r] * inv[c * n + $0] }.reduce(0, +)
                    #expect(abs(p - (r == c ? 1 : 0)) <= 1e-12, "n \(n) (\(r), \(c))")
                    #expect(inv[c * n + r] == inv[r * n + c], "the inverse is symmetric")
                } }
            }
        }
        expectError(.outOfRange) { () throws(FathomError) in _ = try LinearAlgebra.inverseSPD([1, 0, 0, -1], n: 2) }
        expectError(.outOfRange) { () throws(FathomError) in _ = try LinearAlgebra.inverseSPD([0, 0, 0, 0], n: 2) }
        expectError(.outOfRange) { () throws(FathomError) in _ = try LinearAlgebra.inverseSPD([1, 0, 0], n: 2) }
    }

    @Test("nearestRotation: a rotation stays, R * S (S symmetric positive definite) gives R, det is +1")
    func nearestRotation() throws {
        var rng = SplitMix64(seed: 112)
        for _ in 0..<100 {
            let r = DMatrix3.rotation(axis: rng.direction(), angle: rng.double(-3...3))  // orthonormal in Double
            let same = try LinearAlgebra.nearestRotation(r.m)
            #expect(zip(same, r.m).allSatisfy { abs($0 - $1) <= 1e-13 })
            var s = DMatrix3.identity
            for i in 0..<3 { for j in i..<3 { let e = rng.double(-0.2...0.2); s[i, j] += e; if i != j { s[j, i] += e } } }
            let polar = try LinearAlgebra.nearestRotation((r * s).m)
            #expect(zip(polar, r.m).allSatisfy { abs($0 - $1) <= 1e-12 })
            #expect(abs(LinearAlgebra.determinant3(polar) - 1) <= 1e-12)
        }
        // A reflection's nearest rotation still has determinant +1.
        let fixed = try LinearAlgebra.nearestRotation([1, 0, 0, 0, 1, 0, 0, 0, -1])
        #expect(abs(LinearAlgebra.determinant3(fixed) - 1) <= 1e-12)
        #expect(LinearAlgebra.determinant3([2, 0, 0, 0, 3, 0, 0, 0, 4]) == 24)
        #expect(LinearAlgebra.determinant3([0, 1, 0, 1, 0, 0, 0, 0, 1]) == -1)
        expectError(.outOfRange) { () throws(FathomError) in _ = try LinearAlgebra.nearestRotation([1, 0, 0]) }
    }
}
