/// Back-projection of depth samples to points: optical X = (i + 0.5 - cx') / fx' * d, Y = (j + 0.5 - cy') / fy' * d,
/// Z = d with the intrinsics scaled to the depth grid, then converted to the requested frame.
extension DepthFrame {
    /// Point = d * (x[i] * a + b(j)) + c: the optical back-projection and the frame conversion in one affine map.
    struct Projector {
        let xs: [Float]
        let ys: [Float]
        let a: SIMD3<Float>, c: SIMD3<Float>
        let rowY: SIMD3<Float>, rowZ: SIMD3<Float>

        init(_ frame: DepthFrame, _ target: PointFrame) {
            let k = frame.grid
            xs = (0..<frame.width).map { (Float($0) + 0.5 - k.cx) / k.fx }
            ys = (0..<frame.height).map { (Float($0) + 0.5 - k.cy) / k.fy }
            switch target {
            case .optical: (a, rowY, rowZ, c) = (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), .zero)
            case .camera: (a, rowY, rowZ, c) = (SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1), .zero)
            case .world:
                let pose = frame.pose!
                (a, rowY, rowZ, c) = (pose.rotation.c0, -pose.rotation.c1, -pose.rotation.c2, pose.translation)
            }
        }

        /// The row's constant term b(j).
        @inline(__always) func rowTerm(_ j: Int) -> SIMD3<Float> { ys[j] * rowY + rowZ }

        /// The optical-frame point of sample (i, j) at depth d.
        @inline(__always) func optical(_ i: Int, _ j: Int, _ d: Float) -> SIMD3<Float> { SIMD3(xs[i] * d, ys[j] * d, d) }
    }

    /// The number of valid samples in `selection`.
    public func validCount(_ selection: DepthSelection) -> Int {
        var count = 0
        forEachSelectedRow(selection) { _, depths, columns in
            for i in columns where depths[i] > 0 { count += 1 }
        }
        return count
    }

    /// Back-projects the valid samples of `selection`, row by row, into `points` (3 floats each), `pixels`
    /// (column, row) and `normals` (3 floats, facing the camera; zero where no neighbour along an axis is valid),
    /// each optional, up to `capacity` samples. Returns the number of valid samples (which may exceed capacity).
    public func backproject(_ selection: DepthSelection, to target: PointFrame, points: UnsafeMutablePointer<Float>?,
                            pixels: UnsafeMutablePointer<UInt32>?, normals: UnsafeMutablePointer<Float>?, capacity: Int) -> Int {
        let projector = Projector(self, target)
        if selection.isWhole(self), pixels == nil, normals == nil, let points {
            return backprojectWhole(projector, into: points, capacity: capacity)
        }
        var k = 0
        forEachSelectedRow(selection) { j, depths, columns in
            let b = projector.rowTerm(j)
            for i in columns {
                let d = depths[i]
                guard d > 0 else { continue }
                if k < capacity {
                    if let points {
                        let p = d * (projector.xs[i] * projector.a + b) + projector.c
                        points[3 &* k] = p.x; points[3 &* k &+ 1] = p.y; points[3 &* k &+ 2] = p.z
                    }
                    if let pixels { pixels[2 &* k] = UInt32(truncatingIfNeeded: i); pixels[2 &* k &+ 1] = UInt32(truncatingIfNeeded: j) }
                    if let normals {
                        let n = convertDirection(opticalNormal(i, j, d, projector), to: target)
                        normals[3 &* k] = n.x; normals[3 &* k &+ 1] = n.y; normals[3 &* k &+ 2] = n.z
                    }
                }
                k &+= 1
            }
        }
        return k
    }

    /// The hot path: every sample, points only. Four samples at a time: their x, y and z in lanes, transposed into
    /// three 16-byte stores when all four are valid; a group with an invalid sample stores its valid points one by
    /// one. Float32 depth without a confidence threshold is read in place, other formats through `readRow`. Rows run
    /// this way while they fit in the remaining capacity; the rest take the checked path.
    private func backprojectWhole(_ projector: Projector, into points: UnsafeMutablePointer<Float>, capacity: Int) -> Int {
        var k = 0
        var row = [Float](repeating: 0, count: width)
        let inPlace = format == .float32 && (confidence == nil || minConfidence == 0)
        let lo = SIMD4(repeating: Swift.max(minDepth, .leastNonzeroMagnitude)), hi = SIMD4(repeating: Swift.min(maxDepth, .greatestFiniteMagnitude))
        row.withUnsafeMutableBufferPointer { depths in
            projector.xs.withUnsafeBufferPointer { xs in
                let a = projector.a, c = projector.c
                let groups = width / 4
                let columnBytes = UnsafeRawPointer(xs.baseAddress!)
                for j in 0..<height {
                    let b = projector.rowTerm(j)
                    guard capacity &- k >= width else {
                        readRow(j, into: depths.baseAddress!)
                        for i in 0..<width where depths[i] > 0 {
                            if k < capacity {
                                let p = depths[i] * (xs[i] * a + b) + c
                                points[3 &* k] = p.x; points[3 &* k &+ 1] = p.y; points[3 &* k &+ 2] = p.z
                            }
                            k &+= 1
                        }
                        continue
                    }
                    let source: UnsafeRawPointer
                    if inPlace { source = base + j &* rowStride } else {
                        readRow(j, into: depths.baseAddress!)
                        source = UnsafeRawPointer(depths.baseAddress!)
                    }
                    var out = UnsafeMutableRawPointer(points + 3 &* k)
                    for g in 0..<groups {
                        var d = source.loadUnaligned(fromByteOffset: g &* 16, as: SIMD4<Float>.self)
                        if inPlace {
                            d *= scale
                            d.replace(with: 0, where: .!((d .>= lo) .& (d .<= hi)))
                        }
                        let x = columnBytes.loadUnaligned(fromByteOffset: g &* 16, as: SIMD4<Float>.self)
                        let px = d * (x * a.x + b.x) + c.x, py = d * (x * a.y + b.y) + c.y, pz = d * (x * a.z + b.z) + c.z
                        if all(d .> 0) {
                            out.storeBytes(of: SIMD4(px[0], py[0], pz[0], px[1]), as: SIMD4<Float>.self)
                            out.storeBytes(of: SIMD4(py[1], pz[1], px[2], py[2]), toByteOffset: 16, as: SIMD4<Float>.self)
                            out.storeBytes(of: SIMD4(pz[2], px[3], py[3], pz[3]), toByteOffset: 32, as: SIMD4<Float>.self)
                            out += 48
                        } else {
                            for lane in 0..<4 where d[lane] > 0 {
                                out.storeBytes(of: SIMD2(px[lane], py[lane]), as: SIMD2<Float>.self)
                                out.storeBytes(of: pz[lane], toByteOffset: 8, as: Float.self)
                                out += 12
                            }
                        }
                    }
                    k = (out - UnsafeMutableRawPointer(points)) / 12
                    for i in (groups &* 4)..<width {
                        guard let d = inPlace ? depth(i, j) : (depths[i] > 0 ? depths[i] : nil) else { continue }
                        let p = d * (xs[i] * a + b) + c
                        points[3 &* k] = p.x; points[3 &* k &+ 1] = p.y; points[3 &* k &+ 2] = p.z
                        k &+= 1
                    }
                }
            }
        }
        return k
    }

    /// Calls `body(j, depths, columns)` for each selected row: `depths` holds the row in meters with invalid
    /// (or unmasked) samples as 0, `columns` the selected columns.
    func forEachSelectedRow(_ selection: DepthSelection,
                            _ body: (Int, UnsafeMutablePointer<Float>, StrideTo<Int>) -> Void) {
        var row = [Float](repeating: 0, count: width)
        let maskColumns = selection.mask.map { mask in (0..<width).map { Mask.cell($0, grid: width, mask: mask.width) } }
        let columns = stride(from: selection.x0, to: selection.x1, by: selection.step)
        row.withUnsafeMutableBufferPointer { depths in
            let depths = depths.baseAddress!
            for j in stride(from: selection.y0, to: selection.y1, by: selection.step) {
                readRow(j, into: depths)
                if let mask = selection.mask, let maskColumns {
                    let y = Mask.cell(j, grid: height, mask: mask.height)
                    for i in columns where !mask.isInside(maskColumns[i], y) { depths[i] = 0 }
                }
                body(j, depths, columns)
            }
        }
    }

    /// The unit normal at valid sample (i, j), optical frame, facing the camera: the cross product of the
    /// differences of the neighbouring points along the row and the column (central where both neighbours are
    /// valid, else one-sided), or zero when an axis has no valid neighbour.
    func opticalNormal(_ i: Int, _ j: Int, _ d: Float, _ projector: Projector) -> SIMD3<Float> {
        let here = projector.optical(i, j, d)
        func difference(_ before: (Int, Int)?, _ after: (Int, Int)?) -> SIMD3<Float>? {
            let p0 = before.flatMap { b in depth(b.0, b.1).map { projector.optical(b.0, b.1, $0) } }
            let p1 = after.flatMap { a in depth(a.0, a.1).map { projector.optical(a.0, a.1, $0) } }
            switch (p0, p1) {
            case let (p0?, p1?): return p1 - p0
            case let (p0?, nil): return here - p0
            case let (nil, p1?): return p1 - here
            case (nil, nil): return nil
            }
        }
        guard let du = difference(i > 0 ? (i - 1, j) : nil, i + 1 < width ? (i + 1, j) : nil),
              let dv = difference(j > 0 ? (i, j - 1) : nil, j + 1 < height ? (i, j + 1) : nil) else { return .zero }
        // In Double: the float cross product's squared length overflows for points far apart (a focal length
        // near 0 spreads them).
        let n = unit(cross(SIMD3<Double>(du), SIMD3<Double>(dv)))
        return (n * here).sum() > 0 ? -n : n
    }
}
