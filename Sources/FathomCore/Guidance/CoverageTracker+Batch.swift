extension CoverageTracker {
    /// Records `count` views in order, each exactly as `record(camera:intrinsics:)` would (the results and counts agree
    /// bit for bit), handing the results to `body` in order, a chunk at a time: `body(first, results)` gets the results
    /// of views first..<first + results.count. Poses are read in place: 16 floats each, column-major, one after the
    /// other.
    ///
    /// Stops at the first pose that is not rigid (`.notFinite` or `.notRigid`, named by `poseName(i)`), after handing
    /// over the results before it: those views stay recorded.
    ///
    /// When no rule needs more than the view itself (the similarity check is off, and the in-frame rule is off or has
    /// no intrinsics), eight views at a time are cast at the box in lanes (`castBlock`, `addSectors`) and then counted
    /// in order; otherwise, and for the last count % 8 views and a block with a refused pose, each view takes the
    /// single path.
    public func record(poses: UnsafePointer<Float>, count: Int, intrinsics: Intrinsics?, poseName: (Int) -> String,
                       _ body: (Int, UnsafeBufferPointer<ViewResult>) -> Void) throws(FathomError) {
        let lanes = memory.distance == 0 && (intrinsics == nil || options.minInView == 0)
        let tolerance = rigidTolerance
        let chunk = 64
        try withUnsafeTemporaryAllocation(of: ViewResult.self, capacity: chunk) { (results) throws(FathomError) in
            try withUnsafeTemporaryAllocation(of: CastLanes.self, capacity: chunk / 8) { (casts) throws(FathomError) in
                let out = results.baseAddress!
                var first = 0
                while first < count {
                    let end = Swift.min(first &+ chunk, count), blocks = lanes ? (end &- first) / 8 : 0
                    // First every block's geometry, in two passes of independent work the processor overlaps (the
                    // azimuths' long chains of dependent operations side by side), then the counting in order.
                    for b in 0..<blocks {
                        let pose = PoseLanes(poses + 16 &* (first &+ 8 &* b))
                        casts[b] = pose.rigidMask(tolerance: tolerance) == 0xff ? castBlock(pose) : CastLanes()
                    }
                    for b in 0..<blocks where casts[b].rigid { addSectors(&casts[b]) }
                    var i = first
                    while i < end {
                        let b = (i &- first) / 8
                        if b < blocks, casts[b].rigid {
                            countBlock(casts[b], out + (i &- first))
                            i &+= 8
                            continue
                        }
                        let m = poses + 16 &* i
                        let pose: Pose
                        if let rigid = Pose(ifRigid: m, tolerance: tolerance) { pose = rigid } else {
                            do throws(FathomError) {
                                // Throws: the initializer runs the same test (were it to pass, the pose would be recorded).
                                pose = try Pose(columnMajor: m, tolerance: tolerance, name: poseName(i))
                            } catch {
                                body(first, UnsafeBufferPointer(start: out, count: i &- first))
                                throw error
                            }
                        }
                        (out + (i &- first)).initialize(to: record(camera: pose, intrinsics: intrinsics))
                        i &+= 1
                    }
                    body(first, UnsafeBufferPointer(start: out, count: end &- first))
                    first = end
                }
            }
        }
    }

    /// Records eight cast views in order into out[0..<8], as `record` does after its geometry. Only for the rules
    /// `record(poses:...)` allows in lanes.
    private func countBlock(_ cast: CastLanes, _ out: UnsafeMutablePointer<ViewResult>) {
        let n = options.cells
        faceCounts.withUnsafeMutableBufferPointer { faces in
            cells.withUnsafeMutableBufferPointer { cellCounts in
                binCounts.withUnsafeMutableBufferPointer { bins in
                    for j in 0..<8 {
                        views &+= 1
                        let bin = Int(cast.bin[j])
                        guard cast.hit & (1 << j) != 0 else {
                            out[j] = ViewResult(status: .missed, face: nil, cell: 0, bin: bin, distance: 0, completedFace: nil)
                            continue
                        }
                        let face = Int(cast.face[j]), t = cast.t[j]
                        var result = ViewResult(status: .counted, face: face, cell: Int(cast.cell[j]), bin: bin, distance: t, completedFace: nil)
                        if t < options.minDistance {
                            result.status = .tooClose
                        } else if t > options.maxDistance {
                            result.status = .tooFar
                        } else {
                            counted &+= 1
                            faces[face] &+= 1
                            cellCounts[face &* n &* n &+ result.cell] &+= 1
                            bins[bin] &+= 1
                            lastDistance = cast.distance[j]
                            if faces[face] >= options.goal, !reported[face] {
                                reported[face] = true
                                result.completedFace = face
                            }
                        }
                        out[j] = result
                    }
                }
            }
        }
    }

    /// `record`'s geometry for eight cameras in lanes, with its operations in its order (so every lane is bit-identical
    /// to the single path): the optical axis cast at the box (`PrimitiveCast.orientedBox`'s slab test in the box
    /// frame, its entry or exit face, and the camera-inside rule), the cell of the hit (`cell(of:on:)`) and the ring
    /// of the view-direction bin (`ViewBins.bin(of:)`; `addSectors` adds the sector), for eight rigid poses.
    private func castBlock(_ p: PoseLanes) -> CastLanes {
        typealias F = SIMD8<Float>
        typealias I = SIMD8<Int32>
        @inline(__always) func splat(_ v: SIMD3<Float>) -> Lanes3 { Lanes3(F(repeating: v.x), F(repeating: v.y), F(repeating: v.z)) }
        let zero = F.zero, inf = F(repeating: .infinity)
        // The optical axis -c2 / |c2|, and the camera and axis in the box frame.
        let norm = dot(p.c2, p.c2).squareRoot()
        let axis = Lanes3(-p.c2.x / norm, -p.c2.y / norm, -p.c2.z / norm)
        let centre = splat(shape.center)
        let relative = p.t - centre
        let frame = (splat(axes.c0), splat(axes.c1), splat(axes.c2))
        let half = shape.scale / 2
        // Slab test, axis by axis: faces at -h and +h along x (1, 2), y (3, 4), z (0, 5).
        var slabs = Slabs()
        slabs.cross(o: dot(frame.0, relative), d: dot(frame.0, axis), half: half.x, faces: (1, 2))
        slabs.cross(o: dot(frame.1, relative), d: dot(frame.1, axis), half: half.y, faces: (3, 4))
        slabs.cross(o: dot(frame.2, relative), d: dot(frame.2, axis), half: half.z, faces: (0, 5))
        let (inside, parallelMiss, tEnter, tExit, faceEnter, faceExit) =
            (slabs.inside, slabs.parallelMiss, slabs.tEnter, slabs.tExit, slabs.faceEnter, slabs.faceExit)
        let none = I(repeating: -1)
        let crossed = .!parallelMiss .& (tEnter .<= tExit) .& (none .< faceEnter) .& (none .< faceExit)
        let entering = (zero .<= tEnter) .& (tEnter .<= inf), exiting = (zero .<= tExit) .& (tExit .<= inf)
        let hit = crossed .& (entering .| exiting) .& .!inside
        let t = tExit.replacing(with: tEnter, where: entering)
        let face = faceExit.replacing(with: faceEnter, where: entering)
        // The cell: the hit point in box coordinates / extent, along (z, y) on left/right, (x, z) on bottom/top, else (x, y).
        let point = Lanes3(p.t.x + t * axis.x, p.t.y + t * axis.y, p.t.z + t * axis.z) - centre
        let scale = shape.scale
        let local = Lanes3(dot(point, frame.0) / F(repeating: scale.x), dot(point, frame.1) / F(repeating: scale.y),
                           dot(point, frame.2) / F(repeating: scale.z))
        let sides = (face .== I(repeating: 1)) .| (face .== I(repeating: 2))
        let ends = (face .== I(repeating: 3)) .| (face .== I(repeating: 4))
        let across = local.x.replacing(with: local.z, where: sides)
        let along = local.y.replacing(with: local.z, where: ends)
        let n = F(repeating: Float(options.cells))
        @inline(__always) func index(_ c: F, _ count: F) -> I {
            // floor, clamped to 0...count-1 (exact small integers, so clamping the float is clamping the Int).
            let f = ((c + F(repeating: 0.5)) * count).rounded(.down)
            return integer(lanesClamp(f, count - 1))
        }
        let cell = index(along, n) &* I(repeating: Int32(options.cells)) &+ index(across, n)
        // The bin of the direction from the box centre to the camera.
        let length = dot(relative, relative).squareRoot()
        let least = F(repeating: .leastNormalMagnitude)
        let divisor = length.replacing(with: least, where: length .< least)
        let u = Lanes3(relative.x / divisor, relative.y / divisor, relative.z / divisor)
        let one = F(repeating: 1)
        let height = lanesClamp(bins.hemisphere ? u.y : (u.y + one) / F(repeating: 2), one)
        let rings = F(repeating: Float(bins.rings))
        let ring = integer(lanesClamp((height * rings).rounded(.towardZero), rings - 1))
        return CastLanes(rigid: true, hit: bits(hit), face: face, cell: cell, bin: ring &* I(repeating: Int32(bins.sectors)),
                         t: t, distance: length, towardCamera: (u.x, u.z))
    }

    /// Adds each lane's sector (`ViewBins.bin(of:)`'s azimuth from the direction `castBlock` left) to its bin.
    private func addSectors(_ cast: inout CastLanes) {
        typealias F = SIMD8<Float>
        let zero = F.zero, one = F(repeating: 1), sectors = F(repeating: Float(bins.sectors))
        let turn = fastAtan2(cast.towardCamera.z, cast.towardCamera.x) / F(repeating: 2 * .pi)
        let azimuth = turn.replacing(with: turn + one, where: turn .< zero)
        cast.bin &+= integer(lanesClamp((azimuth * sectors).rounded(.towardZero), sectors - 1))
    }
}

/// Eight views cast at the box (`castBlock`, `addSectors`): each lane's entry face, cell, bin, distance along the axis
/// and from the box centre.
private struct CastLanes {
    /// Whether the eight poses passed the rigidity test (else nothing else is set).
    var rigid = false
    /// Bit j: the axis of view j meets the box from outside.
    var hit: UInt8 = 0
    var face = SIMD8<Int32>(), cell = SIMD8<Int32>(), bin = SIMD8<Int32>()
    var t = SIMD8<Float>(), distance = SIMD8<Float>()
    /// The unit direction's x and z, whose azimuth `addSectors` adds to `bin` (which holds ring * sectors until then).
    var towardCamera = (x: SIMD8<Float>(), z: SIMD8<Float>())
}

/// The slab test of eight rays against a box in its own frame, one axis at a time, as `PrimitiveCast.orientedBox`.
private struct Slabs {
    typealias F = SIMD8<Float>
    typealias I = SIMD8<Int32>
    /// The origin within every slab; the ray parallel to a slab it is outside of.
    var inside = F.zero .== F.zero, parallelMiss = F.zero .!= F.zero
    /// The last entry and the first exit so far, and their faces (-1: none).
    var tEnter = F(repeating: -.infinity), tExit = F(repeating: .infinity), faceEnter = I(repeating: -1), faceExit = I(repeating: -1)

    /// The slab between faces at -half (`faces.0`) and +half (`faces.1`) along an axis, with the origin `o` and the
    /// direction `d` along it.
    @inline(__always)
    mutating func cross(o: F, d: F, half: Float, faces: (Int32, Int32)) {
        let h = F(repeating: half), ao = lanesAbs(o)
        inside .&= ao .<= h
        let parallel = d .== F.zero
        parallelMiss .|= parallel .& (h .< ao)
        let near = (-h - o) / d, far = (h - o) / d
        let swapped = far .< near
        let low = I(repeating: faces.0).replacing(with: I(repeating: faces.1), where: swapped)
        let high = I(repeating: faces.1).replacing(with: I(repeating: faces.0), where: swapped)
        // A parallel axis is skipped: bounds that never win.
        let t0 = near.replacing(with: far, where: swapped).replacing(with: -.infinity, where: parallel)
        let t1 = far.replacing(with: near, where: swapped).replacing(with: .infinity, where: parallel)
        let enters = tEnter .< t0, exits = t1 .< tExit
        tEnter = tEnter.replacing(with: t0, where: enters)
        faceEnter = faceEnter.replacing(with: low, where: enters)
        tExit = tExit.replacing(with: t1, where: exits)
        faceExit = faceExit.replacing(with: high, where: exits)
    }
}

/// max(min(x, top), 0) per lane, as Swift.min then Swift.max.
@inline(__always)
private func lanesClamp(_ x: SIMD8<Float>, _ top: SIMD8<Float>) -> SIMD8<Float> {
    let zero = SIMD8<Float>.zero, low = x.replacing(with: top, where: top .< x)
    return low.replacing(with: zero, where: low .< zero)
}

/// A whole number in [0, 2^22) as an Int32 per lane: adding 2^23 + 2^22 puts it in the low mantissa bits.
@inline(__always)
private func integer(_ x: SIMD8<Float>) -> SIMD8<Int32> {
    let magic = SIMD8<Float>(repeating: 12_582_912)
    return unsafeBitCast(x + magic, to: SIMD8<Int32>.self) &- unsafeBitCast(magic, to: SIMD8<Int32>.self)
}
