/// Meshes made from formulas: for the REPL, examples and tests.
extension MeshData {
    /// A closed icosphere: an icosahedron whose faces are split in four `subdivisions` times, vertices
    /// pushed onto the sphere. Shared vertices, outward (counter-clockwise) winding; 20 * 4^n triangles.
    public static func icosphere(subdivisions: Int, radius: Float = 1, center: SIMD3<Float> = .zero) throws(FathomError) -> MeshData {
        guard (0...9).contains(subdivisions) else { throw FathomError(.outOfRange, "subdivisions must be in 0...9, got \(subdivisions)") }
        try Check.positive(radius, "radius")
        try Check.finite(center, "center")
        let g = (1 + 5.0.squareRoot()) / 2
        var points: [SIMD3<Double>] = [
            SIMD3(-1, g, 0), SIMD3(1, g, 0), SIMD3(-1, -g, 0), SIMD3(1, -g, 0),
            SIMD3(0, -1, g), SIMD3(0, 1, g), SIMD3(0, -1, -g), SIMD3(0, 1, -g),
            SIMD3(g, 0, -1), SIMD3(g, 0, 1), SIMD3(-g, 0, -1), SIMD3(-g, 0, 1),
        ].map { $0 / length($0) }
        var faces: [SIMD3<UInt32>] = [
            SIMD3(0, 11, 5), SIMD3(0, 5, 1), SIMD3(0, 1, 7), SIMD3(0, 7, 10), SIMD3(0, 10, 11),
            SIMD3(1, 5, 9), SIMD3(5, 11, 4), SIMD3(11, 10, 2), SIMD3(10, 7, 6), SIMD3(7, 1, 8),
            SIMD3(3, 9, 4), SIMD3(3, 4, 2), SIMD3(3, 2, 6), SIMD3(3, 6, 8), SIMD3(3, 8, 9),
            SIMD3(4, 9, 5), SIMD3(2, 4, 11), SIMD3(6, 2, 10), SIMD3(8, 6, 7), SIMD3(9, 8, 1),
        ]
        for _ in 0..<subdivisions {
            var midpoints = [UInt64: UInt32]()
            func midpoint(_ a: UInt32, _ b: UInt32) -> UInt32 {
                let key = UInt64(Swift.min(a, b)) << 32 | UInt64(Swift.max(a, b))
                if let known = midpoints[key] { return known }
                let m = (points[Int(a)] + points[Int(b)]) / 2
                points.append(m / length(m))
                let index = UInt32(points.count - 1)
                midpoints[key] = index
                return index
            }
            faces = faces.flatMap { f -> [SIMD3<UInt32>] in
                let ab = midpoint(f.x, f.y), bc = midpoint(f.y, f.z), ca = midpoint(f.z, f.x)
                return [SIMD3(f.x, ab, ca), SIMD3(f.y, bc, ab), SIMD3(f.z, ca, bc), SIMD3(ab, bc, ca)]
            }
        }
        let vertices = points.flatMap { p -> [Float] in
            let v = SIMD3<Float>(p) * radius + center
            return [v.x, v.y, v.z]
        }
        return MeshData(vertices: vertices, indices: faces.flatMap { [$0.x, $0.y, $0.z] }, classes: nil)
    }

    /// A horizontal square of side `size` centred at (0, height, 0), two triangles facing up, classified
    /// as floor.
    public static func floorQuad(height: Float, size: Float) throws(FathomError) -> MeshData {
        try Check.finite(height, "height")
        try Check.positive(size, "size")
        let h = size / 2
        return MeshData(vertices: [-h, height, -h, h, height, -h, h, height, h, -h, height, h],
                        indices: [0, 2, 1, 0, 3, 2], classes: [2, 2])
    }
}
