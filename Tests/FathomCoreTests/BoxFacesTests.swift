// Faces of the capture app's box: hand-derived normals, centres and frames of the axis-aligned box,
// rotated boxes, floor-clamped faces, and signed face distances against a Double reference.
import FathomCore
import Glibc
import Testing

@Suite("Box faces")
struct BoxFacesTests {
    // Outward normals (local) and the frames' x axes from the corner triples of box.md:
    // front (BRF, BLF, TRF): x = BLF - BRF = -x;  left (BLF, BLB, TLB): x = +z;  right (BRB, BRF, TRF): x = -z;
    // bottom (BLF, BRF, BLB): x = +x;  top (TRF, TLF, TRB): x = -x;  back (BLB, BRB, TLB): x = +x.
    static let normals: [SIMD3<Float>] = [SIMD3(0, 0, -1), SIMD3(-1, 0, 0), SIMD3(1, 0, 0),
                                          SIMD3(0, -1, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
    static let xAxes: [SIMD3<Float>] = [SIMD3(-1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, 0, -1),
                                        SIMD3(1, 0, 0), SIMD3(-1, 0, 0), SIMD3(1, 0, 0)]

    @Test("face names follow the FATHOM_FACE_* order")
    func names() {
        #expect(Box.faceNames == ["front", "left", "right", "bottom", "top", "back"])
    }

    @Test("faces of an axis-aligned box: normals, centres and frames exactly as derived by hand")
    func axisAligned() throws {
        let center = SIMD3<Float>(1, 2, 3), scale = SIMD3<Float>(2, 4, 6)
        let faces = try Box(center: center, scale: scale).faces()
        #expect(faces.count == 6)
        for (i, face) in faces.enumerated() {
            #expect(face.normal == Self.normals[i], "\(Box.faceNames[i]) normal \(face.normal)")
            #expect(face.center == center + Self.normals[i] * scale / 2, "\(Box.faceNames[i]) centre \(face.center)")
            let m = face.orientation.matrix
            #expect(close(m.c0, Self.xAxes[i], 2 * ulp), "\(Box.faceNames[i]) x \(m.c0)")
            #expect(close(m.c2, Self.normals[i], 2 * ulp), "\(Box.faceNames[i]) z \(m.c2)")
            #expect(close(m.c1, cross(Self.normals[i], Self.xAxes[i]), 2 * ulp))
            #expect(abs(face.orientation.length - 1) <= 2 * ulp)
        }
    }

    @Test("faces of rotated boxes: everything turns by R_y, normals stay unit and outward")
    func rotated() throws {
        var rng = SplitMix64(seed: 50)
        for _ in 0..<300 {
            let center = rng.vector(-10...10), scale = rng.vector(0.05...5)
            let rotY = rng.float(-7...7)
            let box = try Box(center: center, scale: scale, rotY: rotY)
            let r = DMatrix3.rotationY(Double(rotY))
            let magnitude = Double(maxAbs(center) + maxAbs(scale))
            // Directions come from differences of corners: their error is the corners' (ulps of the
            // magnitude) relative to the shortest edge.
            let direction = Double(8 * ulp) * (1 + magnitude / Double(scale.min()))
            for (i, face) in try box.faces().enumerated() {
                let n = r * SIMD3<Double>(Self.normals[i])
                #expect(close(face.normal, n, direction), "\(Box.faceNames[i]): \(face.normal) vs \(n)")
                let c = SIMD3<Double>(center) + r * (SIMD3<Double>(Self.normals[i]) * SIMD3<Double>(scale) / 2)
                #expect(close(face.center, c, Double(16 * ulp) * magnitude))
                // The face's frame: local z is the normal, and it is a proper rotation.
                let m = face.orientation.matrix
                #expect(close(m.c2, face.normal, 8 * ulp))
                #expect(close(m.c0, r * SIMD3<Double>(Self.xAxes[i]), direction))
                // The centre lies on the face's plane: its distance to that face is 0, to the others < 0.
                let distances = try box.faceDistances(face.center)
                for (j, d) in distances.enumerated() {
                    if j == i {
                        #expect(abs(d) <= 16 * ulp * Float(magnitude))
                    } else {
                        #expect(d < 0)
                    }
                }
            }
        }
    }

    @Test("with a clamping floor the faces come from the clamped corners")
    func floorClamped() throws {
        // Unclamped bottom at 0, top at 4; the floor at 1 leaves a box from 1 to 4.
        let box = try Box(center: SIMD3(0, 2, 0), scale: SIMD3(2, 4, 2), floor: 1)
        let faces = try box.faces()
        #expect(faces[3].center == SIMD3(0, 1, 0))   // bottom at the floor
        #expect(faces[4].center == SIMD3(0, 4, 0))   // top unchanged
        for side in [0, 1, 2, 5] {
            #expect(faces[side].center.y == 2.5, "\(Box.faceNames[side]) centre \(faces[side].center)")
            #expect(faces[side].normal == Self.normals[side])
        }
        // Face distances use the clamped bottom: a point at y = 0.5 is outside the bottom by 0.5.
        let d = try box.faceDistances(SIMD3(0, 0.5, 0))
        #expect(d[3] == 0.5 && d[4] == -3.5)
        // A floor below the box changes nothing.
        let low = try Box(center: SIMD3(0, 2, 0), scale: SIMD3(2, 4, 2), floor: -1)
        #expect(try low.faces() == Box(center: SIMD3(0, 2, 0), scale: SIMD3(2, 4, 2)).faces())
    }

    @Test("a floor at or above the top leaves no faces: .degenerate")
    func flattened() throws {
        for floor: Float in [4, 5, 1e6] {
            let box = try Box(center: SIMD3(0, 2, 0), scale: SIMD3(2, 4, 2), floor: floor)
            expectError(.degenerate) { () throws(FathomError) in _ = try box.faces() }
        }
    }

    @Test("faceDistances: signed plane distances against a Double reference, positive outside")
    func distances() throws {
        var rng = SplitMix64(seed: 51)
        for trial in 0..<300 {
            let center = rng.vector(-5...5), scale = rng.vector(0.1...3)
            let rotY = rng.float(-4...4)
            let floor: Float? = trial % 2 == 0 ? nil : center.y + rng.float(-0.6...0.3) * scale.y
            let box = try Box(center: center, scale: scale, rotY: rotY, floor: floor)
            let (bottom, top) = box.clampedBottomTop
            let r = DMatrix3.rotationY(Double(rotY))
            for _ in 0..<10 {
                let p = center + rng.vector(-3...3)
                let local = r.transposed * (SIMD3<Double>(p) - SIMD3<Double>(center))
                let h = SIMD3<Double>(scale) / 2
                let expected = [-local.z - h.z, -local.x - h.x, local.x - h.x,
                                Double(bottom) - Double(p.y), Double(p.y) - Double(top), local.z - h.z]
                let got = try box.faceDistances(p)
                for i in 0..<6 {
                    #expect(abs(Double(got[i]) - expected[i]) <= Double(16 * ulp * 10), "face \(i)")
                }
            }
        }
        // By hand: the centre of an axis-aligned box is half an extent inside each face.
        let box = try Box(center: SIMD3(1, 2, 3), scale: SIMD3(2, 4, 6))
        #expect(try box.faceDistances(SIMD3(1, 2, 3)) == [-3, -1, -1, -2, -2, -3])
        #expect(try box.faceDistances(SIMD3(5, 2, 3)) == [-3, -5, 3, -2, -2, -3])
    }

    @Test("faceDistances refuses a non-finite point, naming the component")
    func distancesValidation() throws {
        let box = try Box(center: .zero, scale: SIMD3(1, 1, 1))
        for (axis, name) in ["x", "y", "z"].enumerated() {
            for bad: Float in [.nan, .infinity, -.infinity] {
                var p = SIMD3<Float>(0, 0, 0)
                p[axis] = bad
                expectError(.notFinite, containing: ["point.\(name)"]) { () throws(FathomError) in
                    _ = try box.faceDistances(p)
                }
            }
        }
    }
}
