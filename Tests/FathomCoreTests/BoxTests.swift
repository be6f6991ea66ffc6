// The capture app's yaw-only box: validation, corners (hand tables and a Double reference), floor
// clamping, and its general oriented box.
import FathomCore
import Glibc
import Testing

@Suite("Box")
struct BoxTests {
    @Test("corner names and local signs follow box.md's table")
    func cornerTable() {
        #expect(Box.cornerNames == ["top_left_front", "top_right_front", "bot_right_front", "bot_left_front",
                                    "top_left_back", "top_right_back", "bot_right_back", "bot_left_back"])
        for (name, sign) in zip(Box.cornerNames, Box.cornerSigns) {
            // front = local -z, left = local -x, top = local +y.
            #expect((sign.x < 0) == name.contains("left"), "\(name)")
            #expect((sign.y > 0) == name.hasPrefix("top"), "\(name)")
            #expect((sign.z < 0) == name.hasSuffix("front"), "\(name)")
            #expect(componentAbs(sign) == SIMD3(repeating: 1))
        }
    }

    @Test("corners of an axis-aligned box, exactly")
    func axisAlignedCorners() throws {
        let box = try Box(center: SIMD3(1, 2, 3), scale: SIMD3(2, 4, 6))
        let expected: [SIMD3<Float>] = [
            SIMD3(0, 4, 0), SIMD3(2, 4, 0), SIMD3(2, 0, 0), SIMD3(0, 0, 0),
            SIMD3(0, 4, 6), SIMD3(2, 4, 6), SIMD3(2, 0, 6), SIMD3(0, 0, 6),
        ]
        #expect(box.corners == expected)
        #expect(box.rotY == 0 && box.floor == nil)
    }

    @Test("corners of a box turned 90 degrees: local x -> world -z, local z -> world +x")
    func quarterTurnCorners() throws {
        let center = SIMD3<Float>(1, 2, 3), scale = SIMD3<Float>(2, 4, 6)
        let box = try Box(center: center, scale: scale, rotY: .pi / 2)
        for (sign, corner) in zip(Box.cornerSigns, box.corners) {
            let expected = center + SIMD3(sign.z * scale.z / 2, sign.y * scale.y / 2, -sign.x * scale.x / 2)
            #expect(close(corner, expected, 4 * ulp * 6), "\(sign): \(corner) vs \(expected)")
        }
        // A half turn swaps left/right and front/back.
        let half = try Box(center: center, scale: scale, rotY: .pi)
        for (sign, corner) in zip(Box.cornerSigns, half.corners) {
            let expected = center + SIMD3(-sign.x * scale.x / 2, sign.y * scale.y / 2, -sign.z * scale.z / 2)
            #expect(close(corner, expected, 4 * ulp * 6))
        }
    }

    @Test("corners = center + R_y(rot_y) * (+-s/2), against a Double reference for random boxes")
    func randomCorners() throws {
        var rng = SplitMix64(seed: 30)
        for _ in 0..<500 {
            let center = rng.vector(-50...50), scale = rng.vector(0.01...10)
            let rotY = rng.float(-20...20)  // not wrapped: any finite angle
            let box = try Box(center: center, scale: scale, rotY: rotY)
            let r = DMatrix3.rotationY(Double(rotY))
            let magnitude = Double(maxAbs(center) + maxAbs(scale))
            for (sign, corner) in zip(Box.cornerSigns, box.corners) {
                let expected = SIMD3<Double>(center) + r * (SIMD3<Double>(sign) * SIMD3<Double>(scale) / 2)
                #expect(close(corner, expected, Double(8 * ulp) * magnitude), "\(corner) vs \(expected)")
            }
            // The corners are 8 distinct points at the box's half-diagonal from the centre.
            let halfDiagonal = length(SIMD3<Double>(scale)) / 2
            for corner in box.corners {
                #expect(abs(length(SIMD3<Double>(corner) - SIMD3<Double>(center)) - halfDiagonal)
                        <= Double(16 * ulp) * magnitude)
            }
        }
    }

    @Test("a floor raises the bottom corners to it and nothing else")
    func floorClamping() throws {
        // Bottom at y = 0, top at y = 2.
        let base = try Box(center: SIMD3(0, 1, 0), scale: SIMD3(2, 2, 2), rotY: 0.3)
        for floor: Float in [-5, -0.5, 0, 0.25, 1, 1.999, 2, 3] {
            let box = try Box(center: base.center, scale: base.scale, rotY: base.rotY, floor: floor)
            for (i, (clamped, free)) in zip(box.corners, base.corners).enumerated() {
                #expect(clamped.x == free.x && clamped.z == free.z)
                if Box.cornerSigns[i].y < 0 {
                    #expect(clamped.y == max(free.y, floor), "floor \(floor), corner \(i)")
                } else {
                    #expect(clamped.y == free.y)
                }
            }
            let (bottom, top) = box.clampedBottomTop
            #expect(bottom == max(0, floor) && top == 2)
        }
    }

    @Test("init validates every field and names it")
    func initValidation() throws {
        for (index, axis) in ["x", "y", "z"].enumerated() {
            for bad: Float in [.nan, .infinity, -.infinity] {
                var center = SIMD3<Float>(0, 1, 0)
                center[index] = bad
                expectError(.notFinite, containing: ["center.\(axis)"]) { () throws(FathomError) in
                    _ = try Box(center: center, scale: SIMD3(1, 1, 1))
                }
                var scale = SIMD3<Float>(1, 1, 1)
                scale[index] = bad
                expectError(.notFinite, containing: ["scale.\(axis)"]) { () throws(FathomError) in
                    _ = try Box(center: .zero, scale: scale)
                }
            }
            for bad: Float in [0, -0.0, -0.2, -.greatestFiniteMagnitude] {
                var scale = SIMD3<Float>(1, 1, 1)
                scale[index] = bad
                expectError(.outOfRange, containing: ["scale.\(axis) must be > 0"]) { () throws(FathomError) in
                    _ = try Box(center: .zero, scale: scale)
                }
            }
        }
        for bad: Float in [.nan, .infinity, -.infinity] {
            expectError(.notFinite, containing: ["rot_y"]) { () throws(FathomError) in
                _ = try Box(center: .zero, scale: SIMD3(1, 1, 1), rotY: bad)
            }
            expectError(.notFinite, containing: ["floor"]) { () throws(FathomError) in
                _ = try Box(center: .zero, scale: SIMD3(1, 1, 1), floor: bad)
            }
        }
        // Fields that are finite but put corners, volume or the floor-seated box beyond the float range.
        let huge = Float.greatestFiniteMagnitude
        expectError(.notFinite) { () throws(FathomError) in _ = try Box(center: SIMD3(huge, 0, 0), scale: SIMD3(huge, 1, 1)) }
        expectError(.notFinite) { () throws(FathomError) in _ = try Box(center: .zero, scale: SIMD3(huge, 1, 1)) }
        expectError(.notFinite) { () throws(FathomError) in _ = try Box(center: .zero, scale: SIMD3(1e20, 1e20, 1e20)) }
        expectError(.notFinite) { () throws(FathomError) in
            _ = try Box(center: .zero, scale: SIMD3(1, 1e38, 1), floor: 3e38)
        }
        _ = try Box(center: SIMD3(huge, 0, 0), scale: SIMD3(1, 1, 1))
        // The smallest positive scale is valid.
        _ = try Box(center: .zero, scale: SIMD3(repeating: .leastNonzeroMagnitude))
    }

    @Test("orientedBox has the same corners as the box, with and without a clamping floor")
    func orientedBoxCorners() throws {
        var rng = SplitMix64(seed: 31)
        for trial in 0..<300 {
            let center = rng.vector(-10...10), scale = rng.vector(0.05...4)
            let rotY = rng.float(-7...7)
            // Floors below the bottom, inside the box, or none.
            let floor: Float? = trial % 3 == 0 ? nil : center.y + rng.float(-1...0.45) * scale.y
            let box = try Box(center: center, scale: scale, rotY: rotY, floor: floor)
            let obb = try box.orientedBox()
            let magnitude = maxAbs(center) + maxAbs(scale)
            for (a, b) in zip(box.corners, obb.corners) {
                #expect(close(a, b, 16 * ulp * magnitude), "\(a) vs \(b)")
            }
            #expect(close(obb.scale.x, scale.x, 0) && close(obb.scale.z, scale.z, 0))
            let (bottom, top) = box.clampedBottomTop
            #expect(close(obb.scale.y, top - bottom, 0))
            // A rotation about y only.
            #expect(obb.rotation.vector.x == 0 && obb.rotation.vector.z == 0)
        }
    }

    @Test("orientedBox refuses a box whose floor is at or above its top")
    func orientedBoxFlattened() throws {
        for floor: Float in [2, 2.5, 100] {
            let box = try Box(center: SIMD3(0, 1, 0), scale: SIMD3(1, 2, 1), floor: floor)
            expectError(.degenerate) { () throws(FathomError) in _ = try box.orientedBox() }
        }
        // Just below the top still has a (thin) box.
        let thin = try Box(center: SIMD3(0, 1, 0), scale: SIMD3(1, 2, 1), floor: 1.99)
        #expect(close(try thin.orientedBox().scale.y, 0.01, 4 * ulp * 2))
    }

    @Test("orientedBox far from the origin: a height that rounds past scale.y and the float range is scale.y")
    func orientedBoxHeightRounding() throws {
        // At y = 1e7 floats are 1 apart: top 1e7 + 1.6 rounds to 10000002 and bottom 1e7 - 1.6 to 9999998, 4 apart.
        // 1e7 * 3.2 * 1.0489508e31 = 3.36e38 is a float; 1e7 * 4 * 1.0489508e31 = 4.2e38 is not (found by fuzz_box).
        let box = try Box(center: SIMD3(1e7, 1e7, 1e7), scale: SIMD3(1e7, 3.2, 1.0489508e31))
        let obb = try box.orientedBox()
        #expect(obb.scale == SIMD3(1e7, 3.2, 1.0489508e31) && obb.volume.isFinite)
    }
}
