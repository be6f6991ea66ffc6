/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast generator whose sequence is fixed by its seed.
public struct SplitMix64: Sendable {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform index in 0..<n (Lemire's multiply-shift; n >= 1).
    mutating func index(below n: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// `k` distinct indices below n (k <= n).
    mutating func distinct(_ k: Int, below n: Int) -> [Int] {
        var picked: [Int] = []
        while picked.count < k {
            let i = index(below: n)
            if !picked.contains(i) { picked.append(i) }
        }
        return picked
    }
}
