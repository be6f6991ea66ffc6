extension HorizontalSurfaces {
    /// For each voxel of `grid`, whether it has occupied voxels 3 to 6 cm above or 3 to 6 cm below it, in its column
    /// or in the 8 columns around it (a far wall is sampled every few centimetres): a point of a wall or of the side
    /// of a thing, not of a horizontal surface (whose noise stays within a couple of cm, and whose underside or top is
    /// not seen at the same place).
    ///
    /// All voxels at once rather than by hash probes (72 per voxel, nearly all into empty slots: most of a report's
    /// time on a room): the voxels sorted by column then height, each of the 18 ranges a voxel asks about (9
    /// columns, above and below) is found by a cursor of its own that only moves forward, since in that order the
    /// ranges come in order too.
    static func wallVoxels(_ grid: VoxelGrid) -> [Bool] {
        let near = Int64(Swift.max(1, Int((0.03 / Double(grid.size)).rounded().clampedToSteps)))
        let far = Swift.min(near + 3, Swift.max(near, Int64((0.06 / Double(grid.size)).rounded().clampedToSteps)))
        let n = grid.count
        var sweep = [ColumnKey]()
        sweep.reserveCapacity(n)
        for v in 0..<n {
            let c = VoxelGrid.unpack(grid.key(at: v))
            sweep.append(ColumnKey(key: ColumnKey.pack(c.x, c.z, c.y), voxel: Int32(truncatingIfNeeded: v)))
        }
        sweep.sort { $0.key < $1.key }
        var wall = [Bool](repeating: false, count: n)
        var cursors = [Int](repeating: 0, count: 18)
        let bound = Int64(VoxelGrid.limit) - 1  // voxel coordinates lie within +-bound
        let ranges = [(near, far), (-far, -near)]
        sweep.withUnsafeBufferPointer { keys in
            cursors.withUnsafeMutableBufferPointer { cursors in
                for item in keys {
                    let x = item.key >> 42 - ColumnKey.offset, z = item.key >> 21 & ColumnKey.mask - ColumnKey.offset
                    let y = item.key & ColumnKey.mask - ColumnKey.offset
                    var q = 0
                    search: for dx: Int64 in -1...1 {
                        for dz: Int64 in -1...1 {
                            for (a, b) in ranges {
                                defer { q += 1 }
                                let lo = Swift.max(y + a, -bound), hi = Swift.min(y + b, bound)
                                guard abs(x + dx) <= bound, abs(z + dz) <= bound, lo <= hi else { continue }
                                let first = ColumnKey.pack(x + dx, z + dz, lo), last = ColumnKey.pack(x + dx, z + dz, hi)
                                var k = cursors[q]
                                while k < keys.count, keys[k].key < first { k += 1 }
                                cursors[q] = k
                                if k < keys.count, keys[k].key <= last {
                                    wall[Int(truncatingIfNeeded: item.voxel)] = true
                                    break search
                                }
                            }
                        }
                    }
                }
            }
        }
        return wall
    }
}

/// A voxel's coordinates packed column first (x, z, then y, 21 bits each), and its index in the grid.
private struct ColumnKey {
    var key: Int64
    var voxel: Int32

    static let offset: Int64 = 1 << 20
    static let mask: Int64 = (1 << 21) - 1

    /// Coordinates within +-(2^20 - 1), as the grid's are.
    static func pack(_ x: Int64, _ z: Int64, _ y: Int64) -> Int64 { (x + offset) << 42 | (z + offset) << 21 | (y + offset) }
}

private extension Double {
    /// Voxel steps of a few centimetres, kept in 0...64 whatever the voxel size (Int() of it cannot trap).
    var clampedToSteps: Double { Swift.min(64, Swift.max(0, self)) }
}
