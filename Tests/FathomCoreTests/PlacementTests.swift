// Tags and labels: tag world poses against hand-multiplied 4x4 matrices, vertical snapping, covariance
// rotation, fusion against hand (diagonal) and Cramer's-rule (full) computations and the circular mean of
// rotations about one axis, and label placement for every anchor, target and AUTO state.
import FathomCore
import Glibc
import Testing

@Suite("Tag poses")
struct TagPoseTests {
    static let f: [Double] = [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]  // diag(1, -1, -1, 1)

    @Test("optical-to-camera is diag(1, -1, -1): optical forward (+z) is camera -z, optical down is camera -y")
    func opticalAxes() {
        let f = TagPose.opticalToCamera
        #expect(f.apply(point: SIMD3(0, 0, 1)) == SIMD3(0, 0, -1))
        #expect(f.apply(point: SIMD3(0, 1, 0)) == SIMD3(0, -1, 0))
        #expect(f.apply(point: SIMD3(1, 0, 0)) == SIMD3(1, 0, 0))
        #expect(f.columnMajor == Self.f.map(Float.init))
    }

    @Test("a tag 2 m in front of an identity camera is at world (0, 0, -2), facing the camera")
    func handCase() throws {
        let tag = Pose(rotation: Matrix3.identity, translation: SIMD3(0, 0, 2))
        let world = TagPose.world(camera: .identity, tagInOptical: tag)
        #expect(world.translation == SIMD3(0, 0, -2))
        // The tag's z (optical forward, away from the camera) is world -z.
        #expect(world.rotation.c2 == SIMD3(0, 0, -1))
        // The camera moved to (1, 2, 3) and turned 90 degrees left: "in front" is now world -x.
        let camera = Pose(rotation: Matrix3.rotationY(.pi / 2), translation: SIMD3(1, 2, 3))
        let moved = TagPose.world(camera: camera, tagInOptical: tag)
        #expect(close(moved.translation, SIMD3(-1, 2, 3), 4 * ulp * 3))
    }

    @Test("world pose = camera * F * tag, against hand-multiplied 4x4 matrices in Double")
    func worldPose() {
        var rng = SplitMix64(seed: 90)
        for _ in 0..<300 {
            let camera = randomPose(&rng), tag = randomPose(&rng, range: 3)
            let world = TagPose.world(camera: camera, tagInOptical: tag)
            let reference = multiply4(multiply4(camera.columnMajor.map(Double.init), Self.f), tag.columnMajor.map(Double.init))
            for (got, expected) in zip(world.columnMajor, reference) {
                #expect(abs(Double(got) - expected) <= Double(8 * ulp * 10), "\(got) vs \(expected)")
            }
        }
    }

    @Test("snapping to vertical keeps x, makes z horizontal, turns only about x, keeps the translation")
    func snapVertical() throws {
        var rng = SplitMix64(seed: 91)
        var checked = 0
        for _ in 0..<500 {
            let tag = randomPose(&rng)
            let x = tag.rotation.c0
            if (x.x * x.x + x.z * x.z).squareRoot() < 0.05 { continue }  // x nearly vertical: conditioning
            let snapped = try TagPose.snappedVertical(tag)
            let r = snapped.rotation
            #expect(r.c0 == x)
            #expect(abs(r.c2.y) <= 4 * ulp, "z = \(r.c2)")
            #expect(dot(r.c2, tag.rotation.c2) >= 0, "the z nearest the original")
            #expect(r.rotationDeviation <= 8 * ulp && r.determinant > 0)
            #expect(snapped.translation == tag.translation)
            // R_tag^T R_snapped is a rotation about x: it fixes (1, 0, 0).
            let relative = tag.rotation.transposed * r
            #expect(close(relative.c0, SIMD3(1, 0, 0), 8 * ulp))
            // Idempotent.
            #expect(close(try TagPose.snappedVertical(snapped).rotation, r, 8 * ulp))
            checked += 1
        }
        #expect(checked > 400)
        // A tag already vertical (its normal horizontal) is unchanged.
        let upright = Pose(rotation: Matrix3.rotationY(0.8), translation: SIMD3(1, 2, 3))
        #expect(close(try TagPose.snappedVertical(upright).rotation, upright.rotation, 4 * ulp))
        // A tag lying flat, facing up (z = +y), snaps to facing world -z or +z by turning about x.
        let flat = Pose(rotation: Matrix3(SIMD3(1, 0, 0), SIMD3(0, 0, -1), SIMD3(0, 1, 0)), translation: .zero)
        let standing = try TagPose.snappedVertical(flat)
        #expect(standing.rotation.c0 == SIMD3(1, 0, 0))
        #expect(abs(standing.rotation.c2.y) <= 4 * ulp && abs(abs(standing.rotation.c2.z) - 1) <= 4 * ulp)
    }

    @Test("snapping a tag whose x axis is vertical is .degenerate")
    func snapDegenerate() {
        let up = Pose(rotation: Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1)), translation: .zero)
        let down = Pose(rotation: Matrix3(SIMD3(0, -1, 0), SIMD3(1, 0, 0), SIMD3(0, 0, 1)), translation: .zero)
        for tag in [up, down] {
            expectError(.degenerate, containing: ["vertical"]) { () throws(FathomError) in _ = try TagPose.snappedVertical(tag) }
        }
    }

    @Test("rotating a covariance: R S R^T, by hand and against Double")
    func rotateCovariance() {
        // R_z(90 deg) swaps the x and y variances.
        let rz = Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1))
        let s = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 2, 0), SIMD3(0, 0, 3))
        #expect(TagPose.rotate(covariance: s, by: rz) == Matrix3(SIMD3(2, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 3)))
        var rng = SplitMix64(seed: 92)
        for _ in 0..<200 {
            let r = rng.rotation().matrix
            let a = Matrix3(rng.vector(-1...1), rng.vector(-1...1), rng.vector(-1...1))
            let spd = a * a.transposed  // symmetric positive semi-definite
            let got = TagPose.rotate(covariance: spd, by: r)
            let reference = DMatrix3(r) * DMatrix3(spd) * DMatrix3(r).transposed
            #expect(reference.distance(to: got) <= Double(16 * ulp * 3))
            // The trace (total variance) is kept.
            let trace = got.c0.x + got.c1.y + got.c2.z, before = spd.c0.x + spd.c1.y + spd.c2.z
            #expect(abs(trace - before) <= 16 * ulp * 3)
        }
    }
}

@Suite("Tag fusion")
struct TagFusionTests {
    static func diagonal(_ d: SIMD3<Float>) -> Matrix3 {
        Matrix3(SIMD3(d.x, 0, 0), SIMD3(0, d.y, 0), SIMD3(0, 0, d.z))
    }

    @Test("without covariances: the mean position, and the sample covariance divided by the count")
    func equalWeights() throws {
        let poses = [SIMD3<Float>(0, 0, 0), SIMD3(2, 0, 0), SIMD3(1, 3, 0), SIMD3(1, 1, 4)].map {
            Pose(rotation: Matrix3.identity, translation: $0)
        }
        let result = try TagFusion.fuse(poses, covariances: nil)
        #expect(close(result.pose.translation, SIMD3(1, 1, 1), 4 * ulp))
        #expect(close(result.pose.rotation, .identity, 4 * ulp))
        // Deviations from (1, 1, 1): (-1,-1,-1), (1,-1,-1), (0,2,-1), (0,0,3). Their sum of d d^T is
        // xx = 2, yy = 6, zz = 12, xy = 1 - 1 = 0, xz = 1 - 1 = 0, yz = 1 + 1 - 2 = 0; divided by (n - 1) n = 12.
        let expected = Matrix3(SIMD3(2, 0, 0), SIMD3(0, 6, 0), SIMD3(0, 0, 12))
        let scaled = Matrix3(expected.c0 / 12, expected.c1 / 12, expected.c2 / 12)
        #expect(close(result.covariance, scaled, 8 * ulp), "\(result.covariance)")
        // One observation: itself, with a zero covariance.
        let single = try TagFusion.fuse([poses[2]], covariances: nil)
        #expect(single.pose == poses[2])
        #expect(single.covariance == Matrix3(.zero, .zero, .zero))
    }

    @Test("with diagonal covariances: per-axis inverse-variance weighting, by hand")
    func diagonalCovariances() throws {
        var rng = SplitMix64(seed: 93)
        for _ in 0..<200 {
            let n = rng.int(1...6)
            let positions = (0..<n).map { _ in rng.vector(-5...5) }
            let variances = (0..<n).map { _ in rng.vector(0.001...0.5) }
            let poses = positions.map { Pose(rotation: Matrix3.identity, translation: $0) }
            let result = try TagFusion.fuse(poses, covariances: variances.map(Self.diagonal))
            for axis in 0..<3 {
                let information = variances.map { 1 / Double($0[axis]) }.reduce(0, +)
                let weighted = zip(positions, variances).map { Double($0[axis]) / Double($1[axis]) }.reduce(0, +)
                #expect(abs(Double(result.pose.translation[axis]) - weighted / information) <= 1e-5,
                        "axis \(axis): \(result.pose.translation[axis]) vs \(weighted / information)")
                #expect(abs(Double(result.covariance.columnMajor[axis * 4]) - 1 / information) <= 1e-6 / information)
            }
            // Off-diagonal covariance entries stay zero.
            for i in [1, 2, 3, 5, 6, 7] { #expect(abs(result.covariance.columnMajor[i]) <= 1e-7) }
        }
        // By hand: variances 1 and 3 along x -> weights 3/4 and 1/4; fused variance 3/4.
        let a = Pose(rotation: Matrix3.identity, translation: SIMD3(0, 0, 0))
        let b = Pose(rotation: Matrix3.identity, translation: SIMD3(4, 0, 0))
        let r = try TagFusion.fuse([a, b], covariances: [Self.diagonal(SIMD3(1, 1, 1)), Self.diagonal(SIMD3(3, 1, 1))])
        #expect(close(r.pose.translation, SIMD3(1, 0, 0), 8 * ulp))
        #expect(close(r.covariance.c0.x, 0.75, 4 * ulp) && close(r.covariance.c1.y, 0.5, 4 * ulp))
    }

    @Test("with full covariances: (sum S^-1)^-1 sum S^-1 p, against Cramer's-rule inverses in Double")
    func fullCovariances() throws {
        var rng = SplitMix64(seed: 94)
        for _ in 0..<200 {
            let n = rng.int(1...5)
            var poses = [Pose](), covariances = [Matrix3]()
            for _ in 0..<n {
                poses.append(Pose(rotation: rng.rotation().matrix, translation: rng.vector(-3...3)))
                // S = A A^T + 0.05 I: symmetric positive definite, well conditioned.
                let a = DMatrix3(columnMajor: (0..<9).map { _ in rng.double(-0.4...0.4) })
                covariances.append((a * a.transposed + DMatrix3(columnMajor: [0.05, 0, 0, 0, 0.05, 0, 0, 0, 0.05])).float)
            }
            let result = try TagFusion.fuse(poses, covariances: covariances)
            var information = DMatrix3(columnMajor: [Double](repeating: 0, count: 9))
            var weighted = SIMD3<Double>.zero
            for (pose, s) in zip(poses, covariances) {
                let inverse = DMatrix3(s).inverse
                information = information + inverse
                weighted += inverse * SIMD3<Double>(pose.translation)
            }
            let fusedCovariance = information.inverse
            let position = fusedCovariance * weighted
            #expect(close(result.pose.translation, position, 1e-4), "\(result.pose.translation) vs \(position)")
            #expect(fusedCovariance.distance(to: result.covariance) <= 1e-5)
        }
    }

    @Test("rotations about one axis fuse to their (weighted) circular mean angle")
    func rotationAverage() throws {
        var rng = SplitMix64(seed: 95)
        for trial in 0..<200 {
            let n = rng.int(2...7)
            let axis = rng.direction()
            let center = rng.double(-3...3)
            let angles = (0..<n).map { _ in center + rng.double(-0.8...0.8) }
            let poses = try angles.map { a in
                try Pose(rotation: Quaternion(axis: SIMD3<Float>(axis), angle: Float(a)), translation: rng.vector(-1...1))
            }
            let weighted = trial % 2 == 1
            let traces = (0..<n).map { _ in rng.double(0.01...1) }
            let covariances = weighted ? traces.map { Self.diagonal(SIMD3(repeating: Float($0 / 3))) } : nil
            let weights = weighted ? traces.map { 1 / (3 * Double(Float($0 / 3))) } : [Double](repeating: 1, count: n)
            let s = zip(angles, weights).map { sin($0) * $1 }.reduce(0, +)
            let c = zip(angles, weights).map { cos($0) * $1 }.reduce(0, +)
            let mean = atan2(s, c)
            let expected = try Quaternion(axis: SIMD3<Float>(axis), angle: Float(mean))
            let result = try TagFusion.fuse(poses, covariances: covariances)
            #expect(result.pose.quaternion.angle(to: expected) <= 1e-4, "trial \(trial): angles \(angles)")
            #expect(result.pose.rotation.rotationDeviation <= 8 * ulp)
        }
        // Equal weights, 0 and 90 degrees about y: 45 degrees.
        let a = Pose(rotation: Matrix3.identity, translation: .zero)
        let b = Pose(rotation: Matrix3.rotationY(.pi / 2), translation: .zero)
        let fused = try TagFusion.fuse([a, b], covariances: nil)
        #expect(abs(fused.pose.yaw - .pi / 4) <= 1e-5)
        // q and -q are the same rotation: the average does not care about the sign.
        let q = try Quaternion(axis: SIMD3(1, 0, 0), angle: 0.3)
        let p1 = try Pose(rotation: q, translation: .zero), p2 = try Pose(rotation: Quaternion(vector: -q.vector), translation: .zero)
        #expect(close(try TagFusion.fuse([p1, p2], covariances: nil).pose.rotation, q.matrix, 8 * ulp))
    }

    @Test("fusion refuses empty input, mismatched counts, bad covariances and cancelling rotations")
    func fusionErrors() throws {
        let pose = Pose(rotation: Matrix3.identity, translation: .zero)
        expectError(.outOfRange, containing: ["count"]) { () throws(FathomError) in _ = try TagFusion.fuse([], covariances: nil) }
        expectError(.outOfRange) { () throws(FathomError) in _ = try TagFusion.fuse([], covariances: []) }
        expectError(.outOfRange, containing: ["covariance"]) { () throws(FathomError) in
            _ = try TagFusion.fuse([pose, pose], covariances: [.identity])
        }
        expectError(.outOfRange) { () throws(FathomError) in _ = try TagFusion.fuse([pose], covariances: [.identity, .identity]) }
        let asymmetric = Matrix3(SIMD3(1, 0.5, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        expectError(.outOfRange, containing: ["covariances[1]", "symmetric"]) { () throws(FathomError) in
            _ = try TagFusion.fuse([pose, pose], covariances: [.identity, asymmetric])
        }
        let indefinite = Self.diagonal(SIMD3(1, -1, 1))
        let singular = Self.diagonal(SIMD3(1, 0, 1))
        for bad in [indefinite, singular, Matrix3(.zero, .zero, .zero)] {
            expectError(.outOfRange, containing: ["covariances[0]", "positive definite"]) { () throws(FathomError) in
                _ = try TagFusion.fuse([pose, pose], covariances: [bad, .identity])
            }
        }
        let nan = Self.diagonal(SIMD3(1, .nan, 1))
        expectError(.notFinite, containing: ["covariances[0]"]) { () throws(FathomError) in
            _ = try TagFusion.fuse([pose], covariances: [nan])
        }
        // Identity and a half turn about x: q = (0,0,0,1) and (1,0,0,0) are orthogonal, no unique average.
        let half = try Pose(rotation: Quaternion(1, 0, 0, 0), translation: .zero)
        expectError(.degenerate) { () throws(FathomError) in _ = try TagFusion.fuse([pose, half], covariances: nil) }
    }
}

@Suite("Label placement")
struct LabelPlacementTests {
    typealias Anchor = LabelPlacement.Anchor

    @Test("anchor and target raw values match fathom.h")
    func rawValues() {
        #expect(Anchor.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5, 6])
        #expect(Anchor.allCases.map(\.name) == ["auto", "center", "leading", "trailing", "top", "bottom", "cover"])
        #expect(LabelPlacement.Target.image.rawValue == 0 && LabelPlacement.Target.panel.rawValue == 1)
        #expect(LabelPlacement.autoOrder == [.top, .bottom, .leading, .trailing])
    }

    /// placement.md's offsets (x, z) in the image's plane, W x H target and w x h panel.
    static func imageOffset(_ anchor: Anchor, _ t: SIMD2<Float>, _ p: SIMD2<Float>) -> SIMD3<Float> {
        switch anchor {
        case .center, .cover, .auto: return .zero
        case .top: return SIMD3(0, 0, -(t.y / 2 + p.y / 2))
        case .bottom: return SIMD3(0, 0, t.y / 2 + p.y / 2)
        case .leading: return SIMD3(-(t.x / 2 + p.x / 2), 0, 0)
        case .trailing: return SIMD3(t.x / 2 + p.x / 2, 0, 0)
        }
    }

    /// On a parent panel the same offsets lie in x-y with top = +y.
    static func panelOffset(_ anchor: Anchor, _ t: SIMD2<Float>, _ p: SIMD2<Float>) -> SIMD3<Float> {
        let o = imageOffset(anchor, t, p)
        return SIMD3(o.x, -o.z, 0)
    }

    @Test("every anchor on an image and on a panel: offsets, added positions and orientation",
          arguments: [Anchor.center, .leading, .trailing, .top, .bottom, .cover])
    func offsets(anchor: Anchor) throws {
        var rng = SplitMix64(seed: 96 &+ UInt64(anchor.rawValue))
        for _ in 0..<50 {
            let targetSize = SIMD2(rng.float(0.05...2), rng.float(0.05...2))
            let panelSize = SIMD2(rng.float(0.05...1), rng.float(0.05...1))
            let relative = rng.vector(-1...1), offset = rng.vector(-1...1)
            for target in [LabelPlacement.Target.image, .panel] {
                let request = LabelPlacement.Request(anchor: anchor, target: target, targetSize: targetSize,
                                                     panelSize: panelSize, relativePosition: relative, positionOffset: offset)
                let placement = try LabelPlacement.place(request)
                let anchorOffset = target == .image ? Self.imageOffset(anchor, targetSize, panelSize)
                                                    : Self.panelOffset(anchor, targetSize, panelSize)
                #expect(close(placement.position, relative + offset + anchorOffset, 8 * ulp * 4), "\(anchor) on \(target)")
                #expect(placement.anchor == anchor)
                if target == .image {
                    // -90 degrees about x: the panel's normal (+z) turns to the image's up (+y).
                    let expected = try Quaternion(axis: SIMD3(1, 0, 0), angle: -.pi / 2)
                    #expect(sameRotation(placement.orientation, expected, 2 * ulp))
                    #expect(close(placement.orientation.rotate(SIMD3(0, 0, 1)), SIMD3(0, 1, 0), 4 * ulp))
                } else {
                    #expect(placement.orientation == .identity)
                }
            }
        }
        // By hand: a 0.4 x 0.3 image, a 0.2 x 0.1 panel.
        let hand = try LabelPlacement.place(.init(anchor: anchor, target: .image, targetSize: SIMD2(0.4, 0.3),
                                                  panelSize: SIMD2(0.2, 0.1)))
        let expected: SIMD3<Float> = [.center: .zero, .cover: .zero, .top: SIMD3(0, 0, -0.2), .bottom: SIMD3(0, 0, 0.2),
                                      .leading: SIMD3(-0.3, 0, 0), .trailing: SIMD3(0.3, 0, 0)][anchor]!
        #expect(close(hand.position, expected, 2 * ulp))
    }

    @Test("AUTO takes the first of top, bottom, leading, trailing not yet used, else top (all 2^7 used sets)")
    func autoOrder() throws {
        let all = Anchor.allCases
        for bits in 0..<(1 << all.count) {
            let used = Set(all.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
            let expected = [Anchor.top, .bottom, .leading, .trailing].first { !used.contains($0) } ?? .top
            for target in [LabelPlacement.Target.image, .panel] {
                let request = LabelPlacement.Request(anchor: .auto, target: target, targetSize: SIMD2(1, 0.5),
                                                     panelSize: SIMD2(0.25, 0.125), used: used)
                let placement = try LabelPlacement.place(request)
                #expect(placement.anchor == expected, "used \(used.map(\.name).sorted())")
                let explicit = try LabelPlacement.place(.init(anchor: expected, target: target, targetSize: SIMD2(1, 0.5),
                                                              panelSize: SIMD2(0.25, 0.125)))
                #expect(placement.position == explicit.position)
            }
        }
        // The order as labels are added one after another: top, bottom, leading, trailing, then top again.
        var used = Set<Anchor>()
        var order = [Anchor]()
        for _ in 0..<6 {
            let p = try LabelPlacement.place(.init(anchor: .auto, target: .image, targetSize: SIMD2(1, 1),
                                                   panelSize: SIMD2(0.5, 0.5), used: used))
            order.append(p.anchor)
            used.insert(p.anchor)
        }
        #expect(order == [.top, .bottom, .leading, .trailing, .top, .top])
    }

    @Test("sizes <= 0 are .outOfRange, non-finite values .notFinite, each named")
    func validation() {
        func request(target: SIMD2<Float> = SIMD2(1, 1), panel: SIMD2<Float> = SIMD2(0.5, 0.5),
                     relative: SIMD3<Float> = .zero, offset: SIMD3<Float> = .zero) -> LabelPlacement.Request {
            .init(anchor: .top, target: .image, targetSize: target, panelSize: panel, relativePosition: relative, positionOffset: offset)
        }
        for bad: Float in [0, -0.0, -1] {
            expectError(.outOfRange, containing: ["target_width"]) { () throws(FathomError) in
                _ = try LabelPlacement.place(request(target: SIMD2(bad, 1)))
            }
            expectError(.outOfRange, containing: ["target_height"]) { () throws(FathomError) in
                _ = try LabelPlacement.place(request(target: SIMD2(1, bad)))
            }
            expectError(.outOfRange, containing: ["panel_width"]) { () throws(FathomError) in
                _ = try LabelPlacement.place(request(panel: SIMD2(bad, 1)))
            }
            expectError(.outOfRange, containing: ["panel_height"]) { () throws(FathomError) in
                _ = try LabelPlacement.place(request(panel: SIMD2(1, bad)))
            }
        }
        for bad: Float in [.nan, .infinity, -.infinity] {
            expectError(.notFinite, containing: ["target_width"]) { () throws(FathomError) in
                _ = try LabelPlacement.place(request(target: SIMD2(bad, 1)))
            }
            expectError(.notFinite, containing: ["panel_height"]) { () throws(FathomError) in
                _ = try LabelPlacement.place(request(panel: SIMD2(1, bad)))
            }
            expectError(.notFinite, containing: ["relative_position.y"]) { () throws(FathomError) in
                _ = try LabelPlacement.place(request(relative: SIMD3(0, bad, 0)))
            }
            expectError(.notFinite, containing: ["position_offset.z"]) { () throws(FathomError) in
                _ = try LabelPlacement.place(request(offset: SIMD3(0, 0, bad)))
            }
        }
        // Finite inputs whose sum overflows.
        let huge = Float.greatestFiniteMagnitude
        expectError(.notFinite) { () throws(FathomError) in
            _ = try LabelPlacement.place(request(relative: SIMD3(huge, 0, 0), offset: SIMD3(huge, 0, 0)))
        }
        expectError(.notFinite) { () throws(FathomError) in
            _ = try LabelPlacement.place(.init(anchor: .bottom, target: .image, targetSize: SIMD2(huge, huge),
                                               panelSize: SIMD2(1, huge), relativePosition: SIMD3(0, 0, huge)))
        }
    }
}
