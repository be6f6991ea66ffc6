// The capture app's edits: each against its formula in box.md, extend/shrink against which corners move,
// floor re-seating, and every failing edit leaving the box exactly as it was.
import FathomCore
import Glibc
import Testing

@Suite("Box edits")
struct BoxEditsTests {
    static func sample(floor: Float? = nil) throws -> Box {
        try Box(center: SIMD3(1, 2, 3), scale: SIMD3(0.5, 1, 2), rotY: 0.7, floor: floor)
    }

    @Test("setCenter and updateCenter")
    func center() throws {
        var box = try Self.sample()
        try box.setCenter(SIMD3(-1, 0.5, 4))
        #expect(box.center == SIMD3(-1, 0.5, 4))
        try box.updateCenter(SIMD3(0.25, 0.5, -1))
        #expect(box.center == SIMD3(-0.75, 1, 3))
        #expect(box.scale == SIMD3(0.5, 1, 2) && box.rotY == 0.7)
    }

    @Test("updateCenter in a camera's frame: offset_world = R_camera * offset")
    func centerInCameraFrame() throws {
        // A camera turned 90 degrees left (about +y) looks along world -x: "forward" (0, 0, -1) is (-1, 0, 0),
        // "right" (1, 0, 0) is (0, 0, -1). The camera's translation plays no part.
        let camera = Pose(rotation: Matrix3.rotationY(.pi / 2), translation: SIMD3(10, 20, 30))
        var box = try Self.sample()
        try box.updateCenter(SIMD3(0, 0, -1), inFrameOf: camera)
        #expect(close(box.center, SIMD3(0, 2, 3), 4 * ulp * 3))
        try box.updateCenter(SIMD3(1, 0, 0), inFrameOf: camera)
        #expect(close(box.center, SIMD3(0, 2, 2), 4 * ulp * 3))
        // Random cameras against R * offset in Double.
        var rng = SplitMix64(seed: 40)
        for _ in 0..<200 {
            let cam = randomPose(&rng)
            let offset = rng.vector(-1...1)
            var moved = try Self.sample()
            try moved.updateCenter(offset, inFrameOf: cam)
            let expected = SIMD3<Double>(SIMD3<Float>(1, 2, 3)) + DMatrix3(cam.rotation) * SIMD3<Double>(offset)
            #expect(close(moved.center, expected, Double(8 * ulp * 4)))
        }
    }

    @Test("setCenterOnFloor puts the box on the floor at (x, z); without a floor it is refused")
    func centerOnFloor() throws {
        var box = try Self.sample(floor: -0.5)
        try box.setCenterOnFloor(x: 4, z: -2)
        #expect(box.center == SIMD3(4, 0, -2))  // -0.5 + 1/2
        #expect(box.clampedBottomTop.bottom == -0.5)
        var noFloor = try Self.sample()
        expectUnchanged(&noFloor, .invalidState, containing: ["floor"]) { (b: inout Box) throws(FathomError) in
            try b.setCenterOnFloor(x: 0, z: 0)
        }
    }

    @Test("setScale and updateScale; with a floor the box is re-seated (center.y = floor + sy/2)")
    func scale() throws {
        var box = try Self.sample()
        try box.setScale(SIMD3(1, 3, 5))
        #expect(box.scale == SIMD3(1, 3, 5) && box.center == SIMD3(1, 2, 3))
        try box.updateScale(SIMD3(2, 0.5, 0.25))
        #expect(box.scale == SIMD3(2, 1.5, 1.25) && box.center == SIMD3(1, 2, 3))

        var seated = try Self.sample(floor: 0.25)
        try seated.setScale(SIMD3(1, 3, 5))
        #expect(seated.center == SIMD3(1, 1.75, 3))  // 0.25 + 3/2
        try seated.updateScale(SIMD3(1, 0.5, 1))
        #expect(seated.scale == SIMD3(1, 1.5, 5) && seated.center == SIMD3(1, 1, 3))
        #expect(seated.clampedBottomTop.bottom == 0.25)
    }

    @Test("setAngle, updateAngle (not wrapped), setFloor (box does not move), clearFloor")
    func angleAndFloor() throws {
        var box = try Self.sample()
        try box.setAngle(-1.5)
        #expect(box.rotY == -1.5)
        try box.updateAngle(10)
        #expect(box.rotY == 8.5)
        try box.setFloor(1.75)
        #expect(box.floor == 1.75 && box.center == SIMD3(1, 2, 3))
        #expect(box.corners[3].y == 1.75)
        box.clearFloor()
        #expect(box.floor == nil)
        #expect(box.corners[3].y == 1.5)
    }

    /// Where each corner of `box` goes when the faces move: `move(sign, axis)` is the local distance the
    /// corner with that local sign moves along that axis.
    static func expectCorners(of after: Box, from before: Box, move: (Float, Int) -> Float,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let r = DMatrix3.rotationY(Double(before.rotY))
        for (i, sign) in Box.cornerSigns.enumerated() {
            let local = SIMD3<Double>(Double(move(sign.x, 0)), Double(move(sign.y, 1)), Double(move(sign.z, 2)))
            let expected = SIMD3<Double>(before.corners[i]) + r * local
            #expect(close(after.corners[i], expected, Double(16 * ulp * 8)),
                    "corner \(Box.cornerNames[i]): \(after.corners[i]) vs \(expected)", sourceLocation: sourceLocation)
        }
    }

    @Test("extendSide: the face on the offset's side moves out by |offset|, the opposite face stays",
          arguments: [Float(0), 0.7, -2.5, Float.pi / 2])
    func extendSide(rotY: Float) throws {
        // Every non-zero offset with components in {-0.25, 0, 0.5} (26 directions, faces, edges and corners).
        let values: [Float] = [-0.25, 0, 0.5]
        for ox in values { for oy in values { for oz in values where !(ox == 0 && oy == 0 && oz == 0) {
            let offset = SIMD3(ox, oy, oz)
            let before = try Box(center: SIMD3(1, 2, 3), scale: SIMD3(0.5, 1, 2), rotY: rotY)
            var box = before
            try box.extendSide(offset)
            #expect(box.scale == before.scale + componentAbs(offset))
            #expect(box.rotY == before.rotY)
            // A corner on the offset's side of axis k moves by offset_k along k; the others stay.
            Self.expectCorners(of: box, from: before) { sign, axis in
                let o = offset[axis]
                return o != 0 && (sign > 0) == (o > 0) ? o : 0
            }
        } } }
    }

    @Test("shrinkSide: the face opposite the offset's sign moves in by |offset|, the other stays",
          arguments: [Float(0), 0.7, -2.5, Float.pi / 2])
    func shrinkSide(rotY: Float) throws {
        let values: [Float] = [-0.125, 0, 0.25]
        for ox in values { for oy in values { for oz in values where !(ox == 0 && oy == 0 && oz == 0) {
            let offset = SIMD3(ox, oy, oz)
            let before = try Box(center: SIMD3(1, 2, 3), scale: SIMD3(0.5, 1, 2), rotY: rotY)
            var box = before
            try box.shrinkSide(offset)
            #expect(box.scale == before.scale - componentAbs(offset))
            // A corner on the side opposite offset_k's sign moves by offset_k (inward); the others stay.
            Self.expectCorners(of: box, from: before) { sign, axis in
                let o = offset[axis]
                return o != 0 && (sign > 0) != (o > 0) ? o : 0
            }
        } } }
    }

    @Test("extendSide then shrinkSide with the opposite offset restores the box")
    func extendThenShrink() throws {
        var rng = SplitMix64(seed: 41)
        for _ in 0..<200 {
            let before = try Box(center: rng.vector(-5...5), scale: rng.vector(0.1...3), rotY: rng.float(-4...4))
            var box = before
            let offset = rng.vector(-0.5...0.5)
            try box.extendSide(offset)
            try box.shrinkSide(-offset)
            #expect(close(box.scale, before.scale, 8 * ulp * 4))
            #expect(close(box.center, before.center, 8 * ulp * 8))
        }
    }

    @Test("shrinkSide refuses a scale <= 0 on any axis and leaves the box unchanged")
    func shrinkRefused() throws {
        for axis in 0..<3 {
            let scale = SIMD3<Float>(0.5, 1, 2)
            for amount in [scale[axis], scale[axis] * 1.5, scale[axis] + 1] {
                for sign: Float in [1, -1] {
                    var offset = SIMD3<Float>(0.01, 0.01, 0.01)
                    offset[axis] = sign * amount
                    var box = try Self.sample()
                    expectUnchanged(&box, .outOfRange, containing: ["scale.\(["x", "y", "z"][axis])", "> 0"]) { (b: inout Box) throws(FathomError) in
                        try b.shrinkSide(offset)
                    }
                }
            }
        }
    }

    @Test("every edit with a non-finite argument throws .notFinite and leaves the box unchanged")
    func nonFiniteArguments() throws {
        let bads: [Float] = [.nan, .infinity, -.infinity]
        for bad in bads {
            for axis in 0..<3 {
                var v = SIMD3<Float>(0.1, 0.1, 0.1)
                v[axis] = bad
                for floor: Float? in [nil, 0] {
                    var box = try Self.sample(floor: floor)
                    expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.setCenter(v) }
                    expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateCenter(v) }
                    expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in
                        try b.updateCenter(v, inFrameOf: .identity)
                    }
                    expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.setScale(v) }
                    expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateScale(v) }
                    expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.extendSide(v) }
                    expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.shrinkSide(v) }
                }
            }
            var box = try Self.sample(floor: 0)
            expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.setAngle(bad) }
            expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateAngle(bad) }
            expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.setFloor(bad) }
            expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.setCenterOnFloor(x: bad, z: 0) }
            expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.setCenterOnFloor(x: 0, z: bad) }
        }
    }

    @Test("scales <= 0 are refused by setScale and updateScale, naming the axis, box unchanged")
    func nonPositiveScales() throws {
        for (axis, name) in ["x", "y", "z"].enumerated() {
            for bad: Float in [0, -0.0, -1] {
                var v = SIMD3<Float>(1, 1, 1)
                v[axis] = bad
                var box = try Self.sample(floor: 0.5)
                expectUnchanged(&box, .outOfRange, containing: ["scale.\(name)"]) { (b: inout Box) throws(FathomError) in
                    try b.setScale(v)
                }
                expectUnchanged(&box, .outOfRange, containing: ["multiplier.\(name)"]) { (b: inout Box) throws(FathomError) in
                    try b.updateScale(v)
                }
            }
        }
    }

    @Test("edits whose result overflows Float are refused and leave the box unchanged")
    func overflowingResults() throws {
        let huge = Float.greatestFiniteMagnitude
        // center + offset overflows.
        var far = try Box(center: SIMD3(huge, 0, 0), scale: SIMD3(1, 1, 1))
        expectUnchanged(&far, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateCenter(SIMD3(huge, 0, 0)) }
        // scale * multiplier overflows, or underflows to 0.
        var box = try Self.sample()
        expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateScale(SIMD3(1, 1, huge)) }
        expectUnchanged(&box, .outOfRange) { (b: inout Box) throws(FathomError) in
            try b.updateScale(SIMD3(.leastNonzeroMagnitude, 1, 1))  // 0.5 * 2^-149 rounds to 0
        }
        // rot_y + radians overflows.
        var spun = try Box(center: .zero, scale: SIMD3(1, 1, 1), rotY: huge)
        expectUnchanged(&spun, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateAngle(huge) }
        // scale + |offset| overflows; or stays finite but puts the corners beyond the float range.
        var wide = try Box(center: .zero, scale: SIMD3(1e38, 1, 1))
        expectUnchanged(&wide, .notFinite) { (b: inout Box) throws(FathomError) in try b.extendSide(SIMD3(3e38, 0, 0)) }
        expectUnchanged(&wide, .notFinite) { (b: inout Box) throws(FathomError) in try b.extendSide(SIMD3(1.5e38, 0, 0)) }
        // setScale / updateScale to a scale whose corners or volume overflow.
        var box2 = try Self.sample()
        expectUnchanged(&box2, .notFinite) { (b: inout Box) throws(FathomError) in try b.setScale(SIMD3(1, huge, 1)) }
        expectUnchanged(&box2, .notFinite) { (b: inout Box) throws(FathomError) in try b.setScale(SIMD3(1e20, 1e20, 1e20)) }
        expectUnchanged(&box2, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateScale(SIMD3(1e38, 1, 10)) }
        // setCenter / updateCenter to a centre whose corners overflow.
        var tall = try Box(center: .zero, scale: SIMD3(1, 1e37, 1))
        expectUnchanged(&tall, .notFinite) { (b: inout Box) throws(FathomError) in try b.setCenter(SIMD3(0, huge, 0)) }
        expectUnchanged(&tall, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateCenter(SIMD3(0, huge, 0)) }
    }

    @Test("re-seating on a floor refuses a centre that would overflow (floor + sy/2 not finite)")
    func reseatOverflow() throws {
        // A valid box standing on a floor at 3e38 (sy = 1e37). Setting sy = 1e38 would re-seat it at
        // center.y = 3e38 + 5e37 = 3.5e38 > Float.greatestFiniteMagnitude: refused, box unchanged.
        var box = try Box(center: SIMD3(0, 3.05e38, 0), scale: SIMD3(1, 1e37, 1), floor: 3e38)
        expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.setScale(SIMD3(1, 1e38, 1)) }
        expectUnchanged(&box, .notFinite) { (b: inout Box) throws(FathomError) in try b.updateScale(SIMD3(1, 10, 1)) }
        // A floor that puts the box beyond the float range.
        var low = try Box(center: .zero, scale: SIMD3(1, 1e38, 1))
        expectUnchanged(&low, .notFinite) { (b: inout Box) throws(FathomError) in try b.setFloor(3e38) }
        #expect(box.center.isFinite)
    }
}
