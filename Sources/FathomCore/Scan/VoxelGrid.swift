/// Points accumulated into cubic voxels (open addressing on packed integer keys): each occupied voxel keeps
/// the sum (about the voxel's corner, so sums stay precise far from the origin) and count of its points, in the
/// order voxels were first met, so results do not depend on hashing, and how many of them were seen from above
/// (the camera higher than the point): a horizontal surface seen from above is a floor or a table top, one seen
/// from below a ceiling.
/// Voxel coordinates are limited to +-2^20 voxels from the origin (10 km at 1 cm); points beyond, and
/// non-finite points, are dropped and counted in `dropped`.
struct VoxelGrid {
    let size: Float
    private let inverse: Float
    private var table: [Int32]          // slot -> voxel index, -1 empty
    private var keys: [Int64] = []      // voxel index -> key
    private(set) var sums: [SIMD4<Float>] = []   // x, y, z sums and the count in w
    private(set) var seenFromAbove: [Int32] = []
    private(set) var dropped = 0

    static let limit: Float = 1_048_576  // 2^20

    init(size: Float) {
        self.size = size
        inverse = 1 / size
        table = [Int32](repeating: -1, count: 1 << 16)
    }

    var count: Int { keys.count }

    /// The packed key of the voxel holding `p`, or nil outside the supported range.
    @inline(__always)
    func key(_ p: SIMD3<Float>) -> Int64? {
        let q = (p * inverse).rounded(.down)
        guard abs(q.x) < VoxelGrid.limit, abs(q.y) < VoxelGrid.limit, abs(q.z) < VoxelGrid.limit else { return nil }
        return VoxelGrid.pack(Int64(q.x), Int64(q.y), Int64(q.z))
    }

    @inline(__always)
    static func pack(_ x: Int64, _ y: Int64, _ z: Int64) -> Int64 {
        (x &+ (1 << 20)) << 42 | (y &+ (1 << 20)) << 21 | (z &+ (1 << 20))
    }

    /// The integer coordinates of a key.
    static func unpack(_ key: Int64) -> SIMD3<Int64> {
        let mask: Int64 = (1 << 21) - 1
        return SIMD3(key >> 42 & mask, key >> 21 & mask, key & mask) &- (1 << 20)
    }

    @inline(__always)
    private func slot(_ key: Int64) -> Int {
        // Fibonacci hashing: the product's high bits mix every bit of the key.
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (table.count - 1)
    }

    /// The index of the voxel with `key`, if occupied.
    func index(_ key: Int64) -> Int? { probe(key) }

    /// Adds `count` points stored as packed xyz floats, seen from a camera at world height `viewerHeight` (nil:
    /// unknown, counted as seen from below). Neighbouring samples of a depth row often share a voxel: the last
    /// voxel is checked before the table.
    mutating func insert(_ xyz: UnsafePointer<Float>, count: Int, viewerHeight: Float? = nil) {
        let viewer = viewerHeight ?? -.infinity
        var lastKey = Int64.min, lastIndex = 0
        for k in 0..<count {
            let p = SIMD3(xyz[3 &* k], xyz[3 &* k &+ 1], xyz[3 &* k &+ 2])
            let q = (p * inverse).rounded(.down)
            guard abs(q.x) < VoxelGrid.limit, abs(q.y) < VoxelGrid.limit, abs(q.z) < VoxelGrid.limit else { dropped += 1; continue }
            let key = VoxelGrid.pack(Int64(q.x), Int64(q.y), Int64(q.z))
            let local = SIMD4(p - q * size, 1)
            if key != lastKey {
                if let v = probe(key) { lastIndex = v } else { lastIndex = add(key) }
                lastKey = key
            }
            sums.withUnsafeMutableBufferPointer { $0[lastIndex] += local }
            if viewer > p.y { seenFromAbove.withUnsafeMutableBufferPointer { $0[lastIndex] &+= 1 } }
        }
    }

    /// The voxel index of `key`, or nil (the probe stops at an empty slot).
    @inline(__always)
    private func probe(_ key: Int64) -> Int? {
        table.withUnsafeBufferPointer { t in
            keys.withUnsafeBufferPointer { k in
                var s = slot(key)
                while true {
                    let v = t[s]
                    if v < 0 { return nil }
                    if k[Int(v)] == key { return Int(v) }
                    s = (s &+ 1) & (t.count &- 1)
                }
            }
        }
    }

    /// A new, empty voxel for `key`; returns its index.
    private mutating func add(_ key: Int64) -> Int {
        var s = slot(key)
        while table[s] >= 0 { s = (s + 1) & (table.count - 1) }
        let index = keys.count
        table[s] = Int32(index)
        keys.append(key)
        sums.append(.zero)
        seenFromAbove.append(0)
        if keys.count * 2 > table.count { grow() }
        return index
    }

    private mutating func grow() {
        table = [Int32](repeating: -1, count: table.count * 2)
        for (i, key) in keys.enumerated() {
            var s = slot(key)
            while table[s] >= 0 { s = (s + 1) & (table.count - 1) }
            table[s] = Int32(i)
        }
    }

    func key(at index: Int) -> Int64 { keys[index] }

    /// The mean of voxel `index`'s points.
    func centroid(_ index: Int) -> SIMD3<Float> {
        let s = sums[index], c = VoxelGrid.unpack(keys[index])
        return SIMD3(Float(c.x), Float(c.y), Float(c.z)) * size + SIMD3(s.x, s.y, s.z) / s.w
    }

    /// How many points fell in voxel `index`.
    func points(_ index: Int) -> Int { Int(sums[index].w) }

    /// How many of voxel `index`'s points were seen from above.
    func pointsSeenFromAbove(_ index: Int) -> Int { Int(seenFromAbove[index]) }

    /// One point per voxel, the mean of its points, in the order voxels were first met.
    func cloud() -> PointCloud {
        var points = [Float]()
        points.reserveCapacity(3 * count)
        for i in 0..<count {
            let p = centroid(i)
            points += [p.x, p.y, p.z]
        }
        return PointCloud(unchecked: points)
    }
}

extension DepthFrame {
    /// Back-projects every valid sample to world points in `scratch` (resized to hold the whole grid) and calls
    /// `body` with them and their count.
    func worldPoints(into scratch: inout [Float], _ body: (UnsafePointer<Float>, Int) -> Void) {
        let capacity = width * height
        if scratch.count < 3 * capacity { scratch = [Float](repeating: 0, count: 3 * capacity) }
        scratch.withUnsafeMutableBufferPointer { buffer in
            let n = backproject(.all(self), to: .world, points: buffer.baseAddress, pixels: nil, normals: nil, capacity: capacity)
            body(buffer.baseAddress!, Swift.min(n, capacity))
        }
    }
}
