import CLanes

extension CoverageTracker {
    /// Records `count` views in order, each exactly as `record(camera:intrinsics:)` would (the results and counts agree
    /// bit for bit), writing view i's result to out[i] (`out` may be nil). Poses are read in place: 16 floats each,
    /// column-major, one after the other.
    ///
    /// Stops at the first pose that is not rigid (`.notFinite` or `.notRigid`, named by `poseName(i)`), after writing
    /// the results before it: those views stay recorded.
    ///
    /// When no rule needs more than the view itself (the similarity check is off, and the in-frame rule is off or has
    /// no intrinsics), eight views at a time are cast at the box in lanes (`castBlock`, `finish`) and then counted
    /// in order (`countBlock`); otherwise, and for the last count % 8 views and a block with a refused pose, each view
    /// takes the single path.
    public func record(poses: UnsafePointer<Float>, count: Int, intrinsics: Intrinsics?, poseName: (Int) -> String,
                       into out: UnsafeMutablePointer<ViewRecord>?) throws(FathomError) {
        let lanes = memory.distance == 0 && (intrinsics == nil || options.minInView == 0) && count >= 8
        let tolerance = rigidTolerance
        // View i on the single path.
        func single(_ i: Int) throws(FathomError) -> ViewRecord {
            let pose = try Pose(columnMajor: poses + 16 &* i, tolerance: tolerance, name: poseName(i))
            return ViewRecord(record(camera: pose, intrinsics: intrinsics))
        }
        guard lanes else {
            for i in 0..<count {
                let result = try single(i)
                out?[i] = result
            }
            return
        }
        // Chunks of 64 views: the results when `out` is nil, the cast blocks, and the tally's lanes.
        let chunk = 64
        try withUnsafeTemporaryAllocation(of: ViewRecord.self, capacity: chunk) { (scratch) throws(FathomError) in
            try withUnsafeTemporaryAllocation(of: CastLanes.self, capacity: chunk / 8) { (casts) throws(FathomError) in
                try withUnsafeTemporaryAllocation(of: Int.self, capacity: 8 &* (cells.count &+ binCounts.count)) { (counters) throws(FathomError) in
                    var tally = CellTally(counters, cells: cells.count), faces = FaceTally(self)
                    defer {
                        tally.flush(into: self)
                        faces.sync(with: self)
                    }
                    var first = 0
                    while first < count {
                        let end = Swift.min(first &+ chunk, count), blocks = (end &- first) / 8
                        let results = out.map { $0 + first } ?? scratch.baseAddress!
                        // First every block's geometry, in two passes of independent work the processor overlaps (the
                        // azimuths' long chains of dependent operations side by side), then the counting in order. The
                        // cast does not wait for the rigidity test (nothing branches between them): a refused block's
                        // lanes are dropped.
                        for b in 0..<blocks {
                            // The poses of the block eight ahead (4 KB), line by line: the loads of a block's poses
                            // were where the lanes waited.
                            for line in 0..<8 { fathom_lanes_prefetch(poses, 64 &* (first &+ 8 &* b &+ 64) &+ 64 &* line) }
                            let pose = PoseLanes(poses + 16 &* (first &+ 8 &* b))
                            let cast = castBlock(pose)
                            casts[b] = pose.rigidMask(tolerance: tolerance) == 0xff ? cast : CastLanes()
                        }
                        for b in 0..<blocks where casts[b].rigid { finish(&casts[b], binOffset: tally.binOffset) }
                        for b in 0..<blocks {
                            if casts[b].rigid {
                                countBlock(casts.baseAddress! + b, results + 8 &* b, &tally, &faces)
                            } else {
                                // The single path counts in the tracker's own counters: the tallies' go there first,
                                // and the face limits are set again after.
                                tally.flush(into: self)
                                faces.sync(with: self)
                                for i in (first &+ 8 &* b)..<(first &+ 8 &* b &+ 8) { results[i &- first] = try single(i) }
                                faces.sync(with: self)
                            }
                        }
                        faces.sync(with: self)
                        if first &+ 8 &* blocks < end { tally.flush(into: self) }
                        for i in (first &+ 8 &* blocks)..<end { results[i &- first] = try single(i) }
                        first = end
                    }
                }
            }
        }
    }

    /// Records eight cast and finished views (`castBlock`, `finish`) in order into out[0..<8], as `record` does after
    /// its geometry. Only for the rules `record(poses:...)` allows in lanes. Cell and bin counts go to `tally`, face
    /// counts to `faces`, which finds the blocks where a face reaches the goal (then `reportCompletions`). The lanes
    /// are read from memory, one at a time where a scalar is needed.
    private func countBlock(_ cast: UnsafePointer<CastLanes>, _ out: UnsafeMutablePointer<ViewRecord>,
                            _ tally: inout CellTally, _ faces: inout FaceTally) {
        tally.add(cast)
        ViewRecord.store(status: cast.pointee.status, face: cast.pointee.face, cell: cast.pointee.cell, bin: cast.pointee.bin,
                         distance: cast.pointee.distance, completedFace: SIMD8(repeating: -1), to: out)
        views &+= 8
        let countedBits = cast.pointee.counted
        guard countedBits != 0 else { return }
        counted &+= countedBits.nonzeroBitCount
        lastDistance = cast.pointee.fromCentre[7 &- countedBits.leadingZeroBitCount]
        let before = faces.counts
        if faces.add(cast.pointee.perFace) { reportCompletions(cast, out, before, &faces) }
    }

    /// Reports each face that the block `cast` brings to the goal (as `record` does: once, on the view that reached
    /// it) in out[0..<8], with `before` the face tally's counts before the block.
    private func reportCompletions(_ cast: UnsafePointer<CastLanes>, _ out: UnsafeMutablePointer<ViewRecord>, _ before: UInt64,
                                   _ faces: inout FaceTally) {
        let goal = options.goal, countedBits = cast.pointee.counted
        for f in 0..<6 where !reported[f] {
            let counted = faceCounts[f] &+ FaceTally.byte(before, f)
            guard faceCounts[f] &+ FaceTally.byte(faces.counts, f) >= goal else { continue }
            reported[f] = true
            faces.retire(f)
            // The view that brought the count to the goal: the (goal - counted)th of this face's counted lanes.
            var m = UInt8(truncatingIfNeeded: laneBits(cast.pointee.face .== SIMD8(repeating: Int32(f)))) & countedBits
            for _ in 1..<Swift.max(goal &- counted, 1) { m &= m &- 1 }
            out[m.trailingZeroBitCount & 7].completedFace = UInt32(truncatingIfNeeded: f)
        }
    }

    /// `record`'s geometry for eight cameras in lanes, with its operations in its order (so every lane is bit-identical
    /// to the single path): the optical axis cast at the box (`PrimitiveCast.orientedBox`'s slab test in the box
    /// frame, its entry or exit face, and the camera-inside rule), the cell of the hit (`cell(of:on:)`) and the ring
    /// of the view-direction bin (`ViewBins.bin(of:)`; `finish` adds the sector), for eight rigid poses. Inlined: as
    /// a call, the pose lanes were passed through memory, stored as 16-byte halves and loaded as 32-byte vectors, a
    /// load the processor cannot forward from the stores (a stall on every view).
    @inline(__always)
    private func castBlock(_ p: PoseLanes) -> CastLanes {
        typealias F = SIMD8<Float>
        typealias I = SIMD8<Int32>
        @inline(__always) func splat(_ v: SIMD3<Float>) -> Lanes3 { Lanes3(F(repeating: v.x), F(repeating: v.y), F(repeating: v.z)) }
        let zero = F.zero, inf = F(repeating: .infinity)
        // The optical axis -c2 / |c2|, and the camera and axis in the box frame.
        let inverseNorm = F(repeating: 1) / dot(p.c2, p.c2).squareRoot()
        let axis = Lanes3(-p.c2.x * inverseNorm, -p.c2.y * inverseNorm, -p.c2.z * inverseNorm)
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
        let t = tExit.lanesReplacing(with: tEnter, where: entering)
        let face = faceExit.lanesReplacing(with: faceEnter, where: entering)
        // The cell: the hit point in box coordinates / extent, along (z, y) on left/right, (x, z) on bottom/top, else (x, y).
        let point = Lanes3(p.t.x + t * axis.x, p.t.y + t * axis.y, p.t.z + t * axis.z) - centre
        let local = Lanes3(dot(point, frame.0) * F(repeating: inverseScale.x), dot(point, frame.1) * F(repeating: inverseScale.y),
                           dot(point, frame.2) * F(repeating: inverseScale.z))
        let sides = (face .== I(repeating: 1)) .| (face .== I(repeating: 2))
        let ends = (face .== I(repeating: 3)) .| (face .== I(repeating: 4))
        let across = local.x.lanesReplacing(with: local.z, where: sides)
        let along = local.y.lanesReplacing(with: local.z, where: ends)
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
        let divisor = length.lanesReplacing(with: least, where: length .< least)
        let inverse = F(repeating: 1) / divisor
        let u = Lanes3(relative.x * inverse, relative.y * inverse, relative.z * inverse)
        let one = F(repeating: 1)
        let height = lanesClamp(bins.hemisphere ? u.y : (u.y + one) / F(repeating: 2), one)
        let rings = F(repeating: Float(bins.rings))
        let ring = integer(lanesClamp((height * rings).rounded(.towardZero), rings - 1))
        return CastLanes(rigid: true, hit: hit, face: face, cell: cell, bin: ring &* I(repeating: Int32(bins.sectors)),
                         t: t, fromCentre: length, towardCamera: (u.x, u.z))
    }

    /// Finishes `castBlock`'s lanes: adds each lane's sector (`ViewBins.bin(of:)`'s azimuth from the direction
    /// `castBlock` left) to its bin, then sets the words of the lanes' results, the tally's slots and the counted
    /// lanes by face, with `record`'s distance rules.
    private func finish(_ cast: inout CastLanes, binOffset: Int) {
        typealias F = SIMD8<Float>
        typealias I = SIMD8<Int32>
        let zero = F.zero, one = F(repeating: 1), sectors = F(repeating: Float(bins.sectors))
        let turn = fastAtan2(cast.towardCamera.z, cast.towardCamera.x) * F(repeating: 1 / (2 * .pi))
        let azimuth = turn.lanesReplacing(with: turn + one, where: turn .< zero)
        cast.bin &+= integer(lanesClamp((azimuth * sectors).rounded(.towardZero), sectors - 1))
        // Masks as lanes of all ones or zero, combined with bitwise operations (a blend with a constant can compile
        // to a branch per lane).
        @inline(__always) func ones(_ m: SIMDMask<I>) -> I { unsafeBitCast(m, to: I.self) }
        let closeMask = cast.t .< F(repeating: options.minDistance), farMask = cast.t .> F(repeating: options.maxDistance)
        let countedMask = cast.hit .& .!closeMask .& .!farMask
        let hit = ones(cast.hit), close = ones(closeMask), far = ones(farMask), countedLanes = ones(countedMask)
        cast.status = (~hit & I(repeating: Int32(ViewStatus.missed.rawValue)))
            | (hit & close & I(repeating: Int32(ViewStatus.tooClose.rawValue)))
            | (hit & ~close & far & I(repeating: Int32(ViewStatus.tooFar.rawValue)))
        let face = cast.face & hit, cell = cast.cell & hit
        let lane = I(0, 1, 2, 3, 4, 5, 6, 7), countedOne = countedLanes & I(repeating: 1)
        cast.cellSlot = (face &* I(repeating: Int32(options.cells &* options.cells)) &+ cell) &* I(repeating: 8) &+ lane
        cast.binSlot = (cast.bin &+ I(repeating: Int32(binOffset))) &* I(repeating: 8) &+ lane
        cast.counts = countedOne
        cast.counted = UInt8(truncatingIfNeeded: laneBits(countedMask))
        // Each counted lane's 1 in its face's byte (faces 0-3 in `low`, 4-5 in `high`): the sums are the counts by face.
        let byte = countedOne &<< ((face &* I(repeating: 8)) & I(repeating: 31)), four = I(repeating: 4)
        let low = byte & ones(face .< four), high = byte & ones(face .>= four)
        cast.perFace = UInt64(UInt32(bitPattern: low.wrappedSum())) | UInt64(UInt32(bitPattern: high.wrappedSum())) << 32
        cast.face = face | ~hit
        cast.cell = cell
        cast.distance = unsafeBitCast(cast.t, to: I.self) & hit
    }
}

/// Eight views cast at the box (`castBlock`), then finished (`finish`) into the words of their results (`face` gets
/// -1 on a miss, `cell` and `distance` 0), with what counting them needs.
private struct CastLanes {
    /// Whether the eight poses passed the rigidity test (else nothing else is set).
    var rigid = false
    /// Lane j: the axis of view j meets the box from outside.
    var hit = SIMDMask<SIMD8<Int32>>()
    var face = SIMD8<Int32>(), cell = SIMD8<Int32>(), bin = SIMD8<Int32>()
    /// Along the axis to the face, and from the box centre.
    var t = SIMD8<Float>(), fromCentre = SIMD8<Float>()
    /// The unit direction's x and z, whose azimuth `finish` adds to `bin` (which holds ring * sectors until then).
    var towardCamera = (x: SIMD8<Float>(), z: SIMD8<Float>())
    /// Set by `finish`: the status, the distance's bits, the slots of the cell and bin counters (`CellTally`), 1 in
    /// the counted lanes (also as bits), and by face f (byte f) the number of counted lanes.
    var status = SIMD8<Int32>(), distance = SIMD8<Int32>(), cellSlot = SIMD8<Int32>(), binSlot = SIMD8<Int32>()
    var counts = SIMD8<Int32>(), counted: UInt8 = 0, perFace: UInt64 = 0
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
    /// direction `d` along it. Transparent: inlined even into the batch loop, which is past the optimizer's size limit
    /// for @inline(__always) (there it stayed a call, its state passed through memory).
    @_transparent
    mutating func cross(o: F, d: F, half: Float, faces: (Int32, Int32)) {
        let h = F(repeating: half), ao = lanesAbs(o), inf = F(repeating: .infinity)
        inside .&= ao .<= h
        let parallel = d .== F.zero
        parallelMiss .|= parallel .& (h .< ao)
        let inverse = F(repeating: 1) / d
        let near = (-h - o) * inverse, far = (h - o) * inverse
        // Ordered by the direction's sign, not by comparing the two: on a slab too thin for their difference
        // to round apart, the face entered is still the one the ray meets from outside (as `PrimitiveCast`).
        let swapped = d .< F.zero
        let low = I(repeating: faces.0).lanesReplacing(with: I(repeating: faces.1), where: swapped)
        let high = I(repeating: faces.1).lanesReplacing(with: I(repeating: faces.0), where: swapped)
        // A parallel axis is skipped: bounds that never win.
        let t0 = near.lanesReplacing(with: far, where: swapped).lanesReplacing(with: F(repeating: -.infinity), where: parallel)
        let t1 = far.lanesReplacing(with: near, where: swapped).lanesReplacing(with: inf, where: parallel)
        let enters = tEnter .< t0, exits = t1 .< tExit
        tEnter = tEnter.lanesReplacing(with: t0, where: enters)
        faceEnter = faceEnter.lanesReplacing(with: low, where: enters)
        tExit = tExit.lanesReplacing(with: t1, where: exits)
        faceExit = faceExit.lanesReplacing(with: high, where: exits)
    }
}

/// x clamped to 0...top per lane, NaN to 0 (as `gridCell`): a lane's value becomes a memory index, so a NaN
/// from far or degenerate input must not pass.
@inline(__always)
private func lanesClamp(_ x: SIMD8<Float>, _ top: SIMD8<Float>) -> SIMD8<Float> {
    let zero = SIMD8<Float>.zero, low = x.lanesReplacing(with: top, where: top .< x)
    return low.lanesReplacing(with: zero, where: .!(low .>= zero))
}

/// A whole number in [0, 2^22) as an Int32 per lane: adding 2^23 + 2^22 puts it in the low mantissa bits.
@inline(__always)
private func integer(_ x: SIMD8<Float>) -> SIMD8<Int32> {
    let magic = SIMD8<Float>(repeating: 12_582_912)
    return unsafeBitCast(x + magic, to: SIMD8<Int32>.self) &- unsafeBitCast(magic, to: SIMD8<Int32>.self)
}

/// The face counts of counted views in lane blocks, as bytes (face f in byte f) added a block at a time, and a test
/// of whether a face reached the goal with the block, in a few integer operations: the tracker's counts and the
/// per-face test of `record` took several times longer, with branches that mispredicted.
private struct FaceTally {
    /// Views counted on face f since the last `sync`: at most 64 (one chunk of blocks), so bytes do not overflow.
    private(set) var counts: UInt64 = 0
    /// How many more views face f needs for the goal (at least 1, at most 127), or 127 once it is reported (more than
    /// `counts` can reach).
    private var limits: UInt64 = 0

    init(_ tracker: CoverageTracker) { sync(with: tracker) }

    /// Byte f of a word.
    @inline(__always)
    static func byte(_ word: UInt64, _ f: Int) -> Int { Int(truncatingIfNeeded: word >> UInt64(8 &* f)) & 0xff }

    /// Adds a block's counts (`CastLanes.perFace`, each at most 8): whether some face's count reached its limit.
    /// Bytewise (c | 0x80) - limit keeps its top bit exactly when c >= limit (both below 128, so no borrow crosses).
    @inline(__always)
    mutating func add(_ perFace: UInt64) -> Bool {
        counts &+= perFace
        let top: UInt64 = 0x8080_8080_8080_8080
        return ((counts | top) &- limits) & top != 0
    }

    /// Face f reported: it reaches no limit again.
    mutating func retire(_ f: Int) { limits |= 0x7f &<< UInt64(8 &* f) }

    /// Adds the counts to the tracker's, clears them, and sets the limits from the tracker's counts and reports.
    mutating func sync(with tracker: CoverageTracker) {
        var limits: UInt64 = 0x7f7f_0000_0000_0000
        for f in 0..<6 {
            let count = tracker.faceCounts[f] &+ Self.byte(counts, f)
            if counts != 0 { tracker.faceCounts[f] = count }
            let left = tracker.reported[f] ? 0x7f : Swift.min(Swift.max(tracker.options.goal &- count, 1), 0x7f)
            limits |= UInt64(left) &<< UInt64(8 &* f)
        }
        counts = 0
        self.limits = limits
    }
}

/// Cell and bin counts of counted views, eight per counter (view j of a block adds to lane j's), so that no count waits
/// for the one before it; `flush` adds them to the tracker's.
private struct CellTally {
    /// Counter k's lanes at 8k..<8k+8: the cells' counters first, then the bins' (all zero when created).
    private let lanes: UnsafeMutableBufferPointer<Int>
    /// The number of cell counters: the first bin's counter.
    let binOffset: Int
    /// Whether some lane is not zero.
    private var dirty = false

    /// Over `lanes`, 8 * (cells + bins) values, which it zeroes.
    init(_ lanes: UnsafeMutableBufferPointer<Int>, cells: Int) {
        lanes.initialize(repeating: 0)
        self.lanes = lanes
        binOffset = cells
    }

    /// Adds a finished block's counts[j] (0 or 1) to the lanes at cellSlot[j] and binSlot[j].
    @inline(__always)
    mutating func add(_ cast: UnsafePointer<CastLanes>) {
        dirty = true
        let base = lanes.baseAddress!
        let raw = UnsafeRawPointer(cast)
        @inline(__always) func word(_ field: KeyPath<CastLanes, SIMD8<Int32>>, _ j: Int) -> Int {
            Int(raw.load(fromByteOffset: MemoryLayout<CastLanes>.offset(of: field)! &+ 4 &* j, as: Int32.self))
        }
        for j in 0..<8 {
            let n = word(\.counts, j)
            base[word(\.cellSlot, j)] &+= n
            base[word(\.binSlot, j)] &+= n
        }
    }

    /// Adds every lane to the tracker's counts and clears them.
    mutating func flush(into tracker: CoverageTracker) {
        guard dirty else { return }
        dirty = false
        for k in 0..<(lanes.count / 8) {
            var sum = 0
            for j in 0..<8 { sum &+= lanes[8 &* k &+ j]; lanes[8 &* k &+ j] = 0 }
            if k < binOffset { tracker.cells[k] &+= sum } else { tracker.binCounts[k &- binOffset] &+= sum }
        }
    }
}
