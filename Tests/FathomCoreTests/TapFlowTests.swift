// The capture app's tap flows: the floor height under a tap (mesh first, else a plane), placing a box on
// its floor at the tapped point (mesh, else the box's floor plane; unchanged on a miss; a floor required),
// and which face of the box is under a tap. Expected points come from the conventions.md ray in Double.
import FathomCore
import Glibc
import Testing

/// A camera at `eye` looking at `target` (its -z axis), +y up (or -z up when looking straight up or down).
func lookAt(eye: SIMD3<Float>, target: SIMD3<Float>) -> Pose {
    let e = SIMD3<Double>(eye), t = SIMD3<Double>(target)
    let z = (e - t) / length(e - t)
    var up = SIMD3<Double>(0, 1, 0)
    if length(cross(up, z)) < 1e-6 { up = SIMD3(0, 0, -1) }
    let x = cross(up, z) / length(cross(up, z))
    let y = cross(z, x)
    return Pose(rotation: Matrix3(SIMD3<Float>(x), SIMD3<Float>(y), SIMD3<Float>(z)), translation: eye)
}

@Suite("Tap flows")
struct TapFlowTests {
    static let k = try! Intrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)

    /// The pixel where `point` appears (Double projection, rounded to Float).
    static func pixel(_ point: SIMD3<Float>, _ camera: Pose) -> (u: Float, v: Float) {
        let p = referenceProjection(k, camera, point)
        return (Float(p.u), Float(p.v))
    }

    /// Where the tap's ray (Double) meets the plane y = h, and the distance along it.
    static func floorPoint(_ camera: Pose, _ u: Float, _ v: Float, _ h: Float) -> (point: SIMD3<Double>, t: Double) {
        let d = referenceRayDirection(k, camera, u: Double(u), v: Double(v))
        let o = SIMD3<Double>(camera.translation)
        let t = (Double(h) - o.y) / d.y
        return (o + t * d, t)
    }

    /// A floor quad at y = floorY (10 m) and a table top at y = 0.75: x in [0.2, 1.0], z in [-1.4, -0.6],
    /// classified as table (4).
    static func room(floorY: Float = -1.2) throws -> Mesh {
        var soup = Soup(try MeshData.floorQuad(height: floorY, size: 10))
        let y: Float = 0.75
        let first = UInt32(soup.vertices.count)
        soup.vertices += [SIMD3(0.2, y, -1.4), SIMD3(1.0, y, -1.4), SIMD3(1.0, y, -0.6), SIMD3(0.2, y, -0.6)]
        soup.indices += [first, first + 2, first + 1, first, first + 3, first + 2]
        soup.classes! += [4, 4]
        return try soup.mesh()
    }

    // MARK: Floor height

    @Test("floor height from the mesh: the y of the first hit (floor or table), the plane ignored when the mesh is hit")
    func floorHeightFromMesh() throws {
        let mesh = try Self.room()
        let camera = lookAt(eye: SIMD3(0, 1.5, 2), target: SIMD3(0, -1.2, -1))
        // On the floor, away from the table.
        for target in [SIMD3<Float>(-1, -1.2, -1), SIMD3(0.5, -1.2, 0.5), SIMD3(-2, -1.2, -3)] {
            let (u, v) = Self.pixel(target, camera)
            let h = try #require(try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: mesh, plane: nil))
            #expect(close(h, -1.2, 4 * ulp), "\(target): \(h)")
            // A plane above the floor (so hit first along the ray) does not matter: the mesh comes first.
            let withPlane = try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: mesh,
                                                     plane: (SIMD3(0, -0.5, 0), SIMD3(0, 1, 0)))
            #expect(withPlane == h)
        }
        // On the table top.
        let (u, v) = Self.pixel(SIMD3(0.6, 0.75, -1), camera)
        let table = try #require(try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: mesh, plane: nil))
        #expect(close(table, 0.75, 4 * ulp))
        let hit = try #require(try TapFlows.firstHit(try Self.k.ray(camera: camera, u: u, v: v), mesh: mesh, plane: nil))
        #expect(hit.classification == 4 && hit.point.y == table)
    }

    @Test("floor height from a plane: without a mesh, or where the mesh is missed; nil when nothing is hit")
    func floorHeightFromPlane() throws {
        let camera = lookAt(eye: SIMD3(0, 1.5, 2), target: SIMD3(0, -1.5, -1))
        let (u, v) = Self.pixel(SIMD3(0.3, -1.5, -0.5), camera)
        let h = try #require(try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: nil, plane: (SIMD3(7, -1.5, 3), SIMD3(0, 2, 0))))
        #expect(close(h, -1.5, 4 * ulp))
        // A tilted plane: the y of the ray's crossing, against Double.
        let point = SIMD3<Float>(0, -1, 0), normal = SIMD3<Float>(0.2, 1, -0.1)
        let tilted = try #require(try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: nil, plane: (point, normal)))
        let d = referenceRayDirection(Self.k, camera, u: Double(u), v: Double(v)), o = SIMD3<Double>(camera.translation)
        let n = SIMD3<Double>(normal)
        let t = dot(n, SIMD3<Double>(point) - o) / dot(n, d)
        #expect(abs(Double(tilted) - (o + t * d).y) <= 1e-5, "\(tilted) vs \((o + t * d).y)")
        // A small mesh that the tap misses: the plane answers.
        let small = try Mesh.make(from: MeshData.floorQuad(height: -1, size: 0.2))
        let aside = try #require(try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: small, plane: (SIMD3(0, -1.5, 0), SIMD3(0, 1, 0))))
        #expect(close(aside, -1.5, 4 * ulp))
        // Missed mesh and no plane, or a plane behind the ray: nil.
        #expect(try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: small, plane: nil) == nil)
        #expect(try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: nil, plane: nil) == nil)
        #expect(try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: nil, plane: (SIMD3(0, 3, 0), SIMD3(0, 1, 0))) == nil)
        // A tap at the sky: the ray goes up and misses a floor below.
        let up = lookAt(eye: SIMD3(0, 1.5, 0), target: SIMD3(0, 3, -2))
        #expect(try TapFlows.floorHeight(intrinsics: Self.k, camera: up, u: 320, v: 240, mesh: try Self.room(), plane: (SIMD3(0, -1.5, 0), SIMD3(0, 1, 0))) == nil)
        // Validation.
        expectError(.notFinite, containing: ["u"]) { () throws(FathomError) in _ = try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: .nan, v: 0, mesh: nil, plane: nil) }
        expectError(.degenerate, containing: ["normal"]) { () throws(FathomError) in
            _ = try TapFlows.floorHeight(intrinsics: Self.k, camera: camera, u: u, v: v, mesh: nil, plane: (.zero, .zero))
        }
    }

    // MARK: Placing a box

    @Test("placing a box stands it on its floor at the tapped point of the mesh (floor or table), other fields unchanged")
    func placeBoxOnMesh() throws {
        let mesh = try Self.room()
        let camera = lookAt(eye: SIMD3(0.2, 1.6, 2.5), target: SIMD3(0, -1.2, -1))
        let original = try Box(center: SIMD3(3, 0.5, 3), scale: SIMD3(0.4, 0.6, 0.8), rotY: 0.3, floor: -1.2)
        for target in [SIMD3<Float>(-0.7, -1.2, -0.4), SIMD3(0.4, -1.2, 0.9), SIMD3(-1.5, -1.2, -2.5)] {
            var box = original
            let (u, v) = Self.pixel(target, camera)
            #expect(try TapFlows.placeBox(&box, intrinsics: Self.k, camera: camera, u: u, v: v, mesh: mesh))
            let (p, t) = Self.floorPoint(camera, u, v, -1.2)
            let tol = 64 * Double(ulp) * (t + 4)
            #expect(abs(Double(box.center.x) - p.x) <= tol && abs(Double(box.center.z) - p.z) <= tol, "\(box.center) vs \(p)")
            #expect(box.center.y == -1.2 + Float(0.6) / 2)
            #expect(box.scale == original.scale && box.rotY == original.rotY && box.floor == original.floor)
        }
        // On the table: x, z of the table hit (not where the ray would meet the floor); still on its floor.
        var box = original
        let (u, v) = Self.pixel(SIMD3(0.5, 0.75, -0.9), camera)
        #expect(try TapFlows.placeBox(&box, intrinsics: Self.k, camera: camera, u: u, v: v, mesh: mesh))
        let (p, t) = Self.floorPoint(camera, u, v, 0.75)
        #expect(abs(Double(box.center.x) - p.x) <= 64 * Double(ulp) * (t + 4) && abs(Double(box.center.z) - p.z) <= 64 * Double(ulp) * (t + 4),
                "\(box.center) vs table point \(p)")
        #expect(box.center.y == -1.2 + Float(0.6) / 2)
    }

    @Test("placing a box without a mesh, or past it, uses the box's own floor plane")
    func placeBoxOnFloorPlane() throws {
        let camera = lookAt(eye: SIMD3(0, 1.4, 1.8), target: SIMD3(0, 0, -1))
        let original = try Box(center: SIMD3(0, 2, 0), scale: SIMD3(0.5, 0.4, 0.3), rotY: -1.1, floor: -0.8)
        let small = try Mesh.make(from: MeshData.floorQuad(height: -0.8, size: 0.1))
        var rng = SplitMix64(seed: 7000)
        for _ in 0..<200 {
            let target = SIMD3(rng.float(-2...2), -0.8, rng.float(-4 ... -0.2))
            let (u, v) = Self.pixel(target, camera)
            let (p, t) = Self.floorPoint(camera, u, v, -0.8)
            for mesh in [nil, small] {
                var box = original
                #expect(try TapFlows.placeBox(&box, intrinsics: Self.k, camera: camera, u: u, v: v, mesh: mesh))
                let tol = 64 * Double(ulp) * (t + 4)
                #expect(abs(Double(box.center.x) - p.x) <= tol && abs(Double(box.center.z) - p.z) <= tol, "\(box.center) vs \(p)")
                #expect(box.center.y == -0.8 + Float(0.4) / 2 && box.scale == original.scale && box.rotY == original.rotY)
            }
        }
    }

    @Test("placing a box: a miss returns false and leaves the box unchanged; no floor throws .invalidState, box unchanged")
    func placeBoxMissAndNoFloor() throws {
        let sky = lookAt(eye: SIMD3(0, 1.5, 0), target: SIMD3(0, 4, -1))
        let original = try Box(center: SIMD3(1, 0, -2), scale: SIMD3(0.5, 0.5, 0.5), rotY: 0.7, floor: -0.25)
        var box = original
        #expect(try !TapFlows.placeBox(&box, intrinsics: Self.k, camera: sky, u: 320, v: 240, mesh: nil))
        #expect(box == original)
        #expect(try !TapFlows.placeBox(&box, intrinsics: Self.k, camera: sky, u: 100, v: 50, mesh: try Self.room()))
        #expect(box == original)
        // A floor above the camera, tapped looking down: the plane is behind the ray.
        var high = try Box(center: SIMD3(0, 3, 0), scale: SIMD3(1, 1, 1), floor: 2.5)
        let before = high
        let down = lookAt(eye: SIMD3(0, 1.5, 0), target: SIMD3(0, 0, -1))
        #expect(try !TapFlows.placeBox(&high, intrinsics: Self.k, camera: down, u: 320, v: 240, mesh: nil))
        #expect(high == before)

        var floorless = try Box(center: SIMD3(1, 0, -2), scale: SIMD3(0.5, 0.5, 0.5), rotY: 0.7)
        let camera = lookAt(eye: SIMD3(0, 1.5, 2), target: SIMD3(0, -1.2, -1))
        let room = try Self.room()
        expectUnchanged(&floorless, .invalidState, containing: ["floor"]) { (b: inout Box) throws(FathomError) in
            _ = try TapFlows.placeBox(&b, intrinsics: Self.k, camera: camera, u: 320, v: 240, mesh: room)
        }
        expectUnchanged(&floorless, .invalidState, containing: ["floor"]) { (b: inout Box) throws(FathomError) in
            _ = try TapFlows.placeBox(&b, intrinsics: Self.k, camera: sky, u: 320, v: 240, mesh: nil)
        }
        var withFloor = original
        expectUnchanged(&withFloor, .notFinite, containing: ["v"]) { (b: inout Box) throws(FathomError) in
            _ = try TapFlows.placeBox(&b, intrinsics: Self.k, camera: camera, u: 320, v: .infinity, mesh: nil)
        }
    }

    // MARK: Box faces

    @Test("the face under a tap, by hand: each of the six from its side, exit faces from inside, misses")
    func boxFaceByHand() throws {
        let box = try Box(center: SIMD3(0, 0.5, 0), scale: SIMD3(1, 1, 1))
        let c = box.center
        let cases: [(SIMD3<Float>, Int)] = [
            (SIMD3(0, 0.5, -3), 0),   // front is local -z
            (SIMD3(-3, 0.5, 0), 1),   // left, -x
            (SIMD3(3, 0.5, 0), 2),    // right, +x
            (SIMD3(0, -3, 0), 3),     // bottom, -y
            (SIMD3(0, 4, 0), 4),      // top, +y
            (SIMD3(0, 0.5, 3), 5),    // back, +z
        ]
        for (eye, face) in cases {
            #expect(try TapFlows.boxFace(box, intrinsics: Self.k, camera: lookAt(eye: eye, target: c), u: 320, v: 240) == face, "from \(eye)")
            // Looking away: nothing.
            #expect(try TapFlows.boxFace(box, intrinsics: Self.k, camera: lookAt(eye: eye, target: 2 * eye - c), u: 320, v: 240) == nil)
        }
        // Off to the side of the image: the ray passes the box.
        #expect(try TapFlows.boxFace(box, intrinsics: Self.k, camera: lookAt(eye: SIMD3(0, 0.5, -3), target: c), u: 10, v: 240) == nil)
        // From inside: the face the ray leaves through.
        for (target, face) in [(SIMD3<Float>(5, 0.5, 0), 2), (SIMD3(0, 0.5, 5), 5), (SIMD3(0, 0.5, -5), 0), (SIMD3(0, 5, 0.001), 4)] {
            #expect(try TapFlows.boxFace(box, intrinsics: Self.k, camera: lookAt(eye: c, target: target), u: 320, v: 240) == face, "inside, towards \(target)")
        }
    }

    @Test("box faces follow the box's rotation and its floor")
    func boxFaceRotatedAndFloored() throws {
        // Turned 90 degrees: the front (local -z) faces world -x.
        let turned = try Box(center: SIMD3(0, 0.5, 0), scale: SIMD3(1, 1, 2), rotY: .pi / 2)
        #expect(try TapFlows.boxFace(turned, intrinsics: Self.k, camera: lookAt(eye: SIMD3(-3, 0.5, 0), target: turned.center), u: 320, v: 240) == 0)
        #expect(try TapFlows.boxFace(turned, intrinsics: Self.k, camera: lookAt(eye: SIMD3(0, 0.5, 3), target: turned.center), u: 320, v: 240) == 1)
        // Reaching below its floor: the part below y = 0 is cut off.
        let floored = try Box(center: SIMD3(0, 0, 0), scale: SIMD3(1, 2, 1), floor: 0)
        let low = lookAt(eye: SIMD3(0, -0.5, -3), target: SIMD3(0, -0.5, 0))
        #expect(try TapFlows.boxFace(floored, intrinsics: Self.k, camera: low, u: 320, v: 240) == nil)
        let level = lookAt(eye: SIMD3(0, 0.5, -3), target: SIMD3(0, 0.5, 0))
        #expect(try TapFlows.boxFace(floored, intrinsics: Self.k, camera: level, u: 320, v: 240) == 0)
        // From below, the bottom face is the floor at y = 0.
        let below = lookAt(eye: SIMD3(0.1, -2, 0.1), target: SIMD3(0.1, 0, 0.1))
        #expect(try TapFlows.boxFace(floored, intrinsics: Self.k, camera: below, u: 320, v: 240) == 3)
    }

    @Test("random boxes and cameras: a tap on a point of a visible face names that face")
    func boxFaceRandom() throws {
        var rng = SplitMix64(seed: 7100)
        // Local outward normals by face index, and the two local axes spanning each face.
        let normals: [SIMD3<Double>] = [SIMD3(0, 0, -1), SIMD3(-1, 0, 0), SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        var checked = 0
        for _ in 0..<3000 {
            let box = try Box(center: rng.vector(-3...3), scale: rng.vector(0.2...2), rotY: rng.float(-4...4))
            let face = rng.int(0...5)
            let n = normals[face]
            // A point of the face away from its edges (local coordinates within 80% of the half extents).
            var local = SIMD3(rng.double(-0.4...0.4), rng.double(-0.4...0.4), rng.double(-0.4...0.4)) * SIMD3<Double>(box.scale)
            for axis in 0..<3 where n[axis] != 0 { local[axis] = n[axis] * Double(box.scale[axis]) / 2 }
            let r = DMatrix3(box.rotation)
            let point = SIMD3<Double>(box.center) + r * local
            let worldNormal = r * n
            // A camera 1.5...6 m away on the face's side, looking roughly at the point.
            let eyeDirection = (worldNormal + 0.6 * rng.direction())
            guard dot(eyeDirection, worldNormal) > 0.3 else { continue }
            let eye = SIMD3<Float>(point + rng.double(1.5...6) * eyeDirection / length(eyeDirection))
            let camera = lookAt(eye: eye, target: box.center + rng.vector(-0.3...0.3))
            let projected = referenceProjection(Self.k, camera, SIMD3<Float>(point))
            guard -projected.camera.z > 0.1 else { continue }
            // The ray through the point must not clip another face first: the eye is outside, on the face's
            // side of its plane, and the point is on that face, so the face is the entry face.
            let got = try TapFlows.boxFace(box, intrinsics: Self.k, camera: camera, u: Float(projected.u), v: Float(projected.v))
            #expect(got == face, "box \(box), face \(face) at \(point), eye \(eye): got \(String(describing: got))")
            checked += 1
        }
        #expect(checked > 1500)
    }
}
