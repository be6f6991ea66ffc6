// Helpers shared by the core tests: a seeded generator, tolerances stated in ULPs of a stated
// magnitude, error expectations, Double references and point buffers.
import FathomCore
import Glibc
import Testing

// MARK: - Deterministic randomness

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-mixed, reproducible generator. Every random test
/// seeds its own instance, so a failure reproduces exactly on any machine.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    mutating func double(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    mutating func float(_ range: ClosedRange<Float>) -> Float {
        Float(double(Double(range.lowerBound)...Double(range.upperBound)))
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    mutating func vector(_ range: ClosedRange<Float>) -> SIMD3<Float> {
        SIMD3(float(range), float(range), float(range))
    }

    /// A uniformly distributed unit vector (normalised Gaussian triple, Box-Muller).
    mutating func direction() -> SIMD3<Double> {
        while true {
            let v = SIMD3(gaussian(), gaussian(), gaussian())
            let n = (v * v).sum().squareRoot()
            if n > 1e-6 { return v / n }
        }
    }

    mutating func gaussian() -> Double {
        let u1 = Swift.max(unit(), 1e-300), u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    /// A uniformly distributed rotation (Shoemake's subgroup algorithm), w >= 0.
    mutating func rotation() -> Quaternion {
        let u1 = unit(), u2 = unit(), u3 = unit()
        let a = (1 - u1).squareRoot(), b = u1.squareRoot()
        var q = SIMD4<Double>(a * sin(2 * .pi * u2), a * cos(2 * .pi * u2),
                              b * sin(2 * .pi * u3), b * cos(2 * .pi * u3))
        if q.w < 0 { q = -q }
        q /= (q * q).sum().squareRoot()
        return Quaternion(vector: SIMD4<Float>(q))
    }
}

// MARK: - Tolerances

/// One unit in the last place of 1.0 for Float (2^-23 ~ 1.19e-7). Tolerances below are written as
/// `k * ulp * magnitude`: k ulps of the largest magnitude the computation involves.
let ulp = Float.ulpOfOne

/// |a - b| <= tolerance.
func close(_ a: Float, _ b: Float, _ tolerance: Float) -> Bool { abs(a - b) <= tolerance }

/// Largest component of |a - b| <= tolerance (and no NaN).
func close(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ tolerance: Float) -> Bool {
    let d = a - b
    return abs(d.x) <= tolerance && abs(d.y) <= tolerance && abs(d.z) <= tolerance
}

func close(_ a: SIMD3<Float>, _ b: SIMD3<Double>, _ tolerance: Double) -> Bool {
    let d = SIMD3<Double>(a) - b
    return abs(d.x) <= tolerance && abs(d.y) <= tolerance && abs(d.z) <= tolerance
}

/// Every entry within `tolerance`.
func close(_ a: Matrix3, _ b: Matrix3, _ tolerance: Float) -> Bool {
    close(a.c0, b.c0, tolerance) && close(a.c1, b.c1, tolerance) && close(a.c2, b.c2, tolerance)
}

/// Same rotation: q or -q within `tolerance` per component.
func sameRotation(_ a: Quaternion, _ b: Quaternion, _ tolerance: Float) -> Bool {
    let plus = a.vector - b.vector, minus = a.vector + b.vector
    let dp = max(max(abs(plus.x), abs(plus.y)), max(abs(plus.z), abs(plus.w)))
    let dm = max(max(abs(minus.x), abs(minus.y)), max(abs(minus.z), abs(minus.w)))
    return min(dp, dm) <= tolerance
}

/// Largest component of |v| (the max norm).
func maxAbs(_ v: SIMD3<Float>) -> Float { max(abs(v.x), max(abs(v.y), abs(v.z))) }

// MARK: - Errors

/// Runs `body`, which must throw a FathomError of `kind` whose message contains every string in
/// `containing`. Returns the error (nil if none was thrown).
@discardableResult
func expectError(_ kind: FathomError.Kind, containing fragments: [String] = [],
                 sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: () throws(FathomError) -> Void) -> FathomError? {
    do {
        try body()
        Issue.record("expected FathomError(.\(kind)), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.kind == kind, "expected .\(kind), got .\(error.kind): \(error.message)",
                sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(error.message.contains(fragment), "message \"\(error.message)\" should contain \"\(fragment)\"",
                    sourceLocation: sourceLocation)
        }
        return error
    }
}

/// A mutation that must fail with `kind` and leave `value` exactly as it was.
func expectUnchanged<T: Equatable>(_ value: inout T, _ kind: FathomError.Kind, containing fragments: [String] = [],
                                   sourceLocation: SourceLocation = #_sourceLocation,
                                   _ edit: (inout T) throws(FathomError) -> Void) {
    let before = value
    expectError(kind, containing: fragments, sourceLocation: sourceLocation) { () throws(FathomError) in
        try edit(&value)
    }
    #expect(value == before, "a failed edit changed the value: \(before) -> \(value)", sourceLocation: sourceLocation)
}

// MARK: - Double references

/// A 3x3 Double matrix, column-major storage m[c * 3 + r], used for independent reference results.
struct DMatrix3: Equatable {
    var m: [Double]

    init(columnMajor m: [Double]) { self.m = m }
    init(_ f: Matrix3) { m = f.columnMajor.map(Double.init) }

    static let identity = DMatrix3(columnMajor: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    subscript(r: Int, c: Int) -> Double {
        get { m[c * 3 + r] }
        set { m[c * 3 + r] = newValue }
    }

    static func * (a: DMatrix3, b: DMatrix3) -> DMatrix3 {
        var out = DMatrix3(columnMajor: [Double](repeating: 0, count: 9))
        for r in 0..<3 { for c in 0..<3 { for k in 0..<3 { out[r, c] += a[r, k] * b[k, c] } } }
        return out
    }

    static func * (a: DMatrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a[0, 0] * v.x + a[0, 1] * v.y + a[0, 2] * v.z,
              a[1, 0] * v.x + a[1, 1] * v.y + a[1, 2] * v.z,
              a[2, 0] * v.x + a[2, 1] * v.y + a[2, 2] * v.z)
    }

    var transposed: DMatrix3 {
        var out = self
        for r in 0..<3 { for c in 0..<3 { out[r, c] = self[c, r] } }
        return out
    }

    var determinant: Double {
        self[0, 0] * (self[1, 1] * self[2, 2] - self[1, 2] * self[2, 1])
            - self[0, 1] * (self[1, 0] * self[2, 2] - self[1, 2] * self[2, 0])
            + self[0, 2] * (self[1, 0] * self[2, 1] - self[1, 1] * self[2, 0])
    }

    /// The inverse by the adjugate (Cramer's rule): independent of LAPACK.
    var inverse: DMatrix3 {
        let d = determinant
        var out = DMatrix3(columnMajor: [Double](repeating: 0, count: 9))
        for r in 0..<3 {
            for c in 0..<3 {
                // cofactor of (c, r) -> entry (r, c) of the inverse
                let rows = (0..<3).filter { $0 != c }, cols = (0..<3).filter { $0 != r }
                let minor = self[rows[0], cols[0]] * self[rows[1], cols[1]] - self[rows[0], cols[1]] * self[rows[1], cols[0]]
                out[r, c] = ((r + c) % 2 == 0 ? 1 : -1) * minor / d
            }
        }
        return out
    }

    static func + (a: DMatrix3, b: DMatrix3) -> DMatrix3 { DMatrix3(columnMajor: zip(a.m, b.m).map { $0 + $1 }) }

    /// R_y(a) as box.md writes it.
    static func rotationY(_ a: Double) -> DMatrix3 {
        DMatrix3(columnMajor: [cos(a), 0, -sin(a), 0, 1, 0, sin(a), 0, cos(a)])
    }

    /// R_x(a) (right-hand rule about +x).
    static func rotationX(_ a: Double) -> DMatrix3 {
        DMatrix3(columnMajor: [1, 0, 0, 0, cos(a), sin(a), 0, -sin(a), cos(a)])
    }

    /// Rodrigues' formula for the rotation by `angle` about the unit `axis`.
    static func rotation(axis k: SIMD3<Double>, angle: Double) -> DMatrix3 {
        let c = cos(angle), s = sin(angle), t = 1 - c
        var out = DMatrix3(columnMajor: [Double](repeating: 0, count: 9))
        let kk = [k.x, k.y, k.z]
        for r in 0..<3 {
            for col in 0..<3 {
                out[r, col] = t * kk[r] * kk[col] + (r == col ? c : 0)
            }
        }
        out[0, 1] -= s * k.z; out[1, 0] += s * k.z
        out[0, 2] += s * k.y; out[2, 0] -= s * k.y
        out[1, 2] -= s * k.x; out[2, 1] += s * k.x
        return out
    }

    /// The largest |entry| difference.
    func distance(to other: Matrix3) -> Double {
        zip(m, other.columnMajor).map { abs($0 - Double($1)) }.max() ?? 0
    }

    var float: Matrix3 { Matrix3(SIMD3(Float(m[0]), Float(m[1]), Float(m[2])), SIMD3(Float(m[3]), Float(m[4]), Float(m[5])),
                              SIMD3(Float(m[6]), Float(m[7]), Float(m[8]))) }
}

/// A 4x4 column-major Double matrix product (m[c * 4 + r]): the hand multiplication of poses.
func multiply4(_ a: [Double], _ b: [Double]) -> [Double] {
    var out = [Double](repeating: 0, count: 16)
    for r in 0..<4 { for c in 0..<4 { for k in 0..<4 { out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k] } } }
    return out
}

/// A random rigid pose: uniform rotation and translation in [-range, range]^3.
func randomPose(_ rng: inout SplitMix64, range: Float = 5) -> Pose {
    Pose(rotation: rng.rotation().matrix, translation: rng.vector(-range...range))
}

// MARK: - Point buffers

/// Lays `points` out with `strideFloats` floats per point (the extra floats are NaN, so a test fails if
/// the engine reads them) and calls `body` with a validated PointBuffer over that memory.
@discardableResult
func withPoints<R>(_ points: [SIMD3<Float>], strideFloats: Int = 3,
                   _ body: (PointBuffer) throws -> R) throws -> R {
    precondition(strideFloats >= 3)
    var flat = [Float](repeating: .nan, count: max(1, points.count * strideFloats))
    for (i, p) in points.enumerated() {
        flat[i * strideFloats] = p.x; flat[i * strideFloats + 1] = p.y; flat[i * strideFloats + 2] = p.z
    }
    return try flat.withUnsafeBytes { raw in
        let buffer = try PointBuffer(base: raw.baseAddress!, count: points.count, strideBytes: strideFloats * 4)
        return try body(buffer)
    }
}

/// The reference inside test, in Double, from the box's own Float rotation matrix: |R^T (p - c)|_i <= s_i/2.
/// Returns nil when the point is within `margin` of a face (where Float rounding may decide either way).
func referenceInside(_ box: OrientedBox, _ p: SIMD3<Float>, margin: Double) -> Bool? {
    guard p.isFinite else { return false }
    let r = DMatrix3(box.rotation.matrix)
    let local = r.transposed * (SIMD3<Double>(p) - SIMD3<Double>(box.center))
    let half = SIMD3<Double>(box.scale) / 2
    let excess = SIMD3(abs(local.x) - half.x, abs(local.y) - half.y, abs(local.z) - half.z)
    let worst = max(excess.x, max(excess.y, excess.z))
    if abs(worst) <= margin { return nil }
    return worst <= 0
}
