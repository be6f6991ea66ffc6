import Glibc

/// The counted views, hashed by position on a grid of cells `distance` wide, to find one within a distance
/// and an angle of a new view in constant time (the 27 cells around it).
struct ViewMemory {
    let distance: Float
    let cosAngle: Float
    private var cells: [SIMD3<Int32>: [(position: SIMD3<Float>, direction: SIMD3<Float>)]] = [:]

    /// Off (never similar) when either threshold is 0.
    init(distance: Float, angle: Float) {
        self.distance = angle > 0 ? distance : 0
        cosAngle = cos(angle)
    }

    private func cell(_ p: SIMD3<Float>) -> SIMD3<Int32> {
        let scaled = (p / distance).rounded(.down)
        let limit = Float(Int32.max / 2)
        return SIMD3<Int32>(scaled.clamped(lowerBound: SIMD3(repeating: -limit), upperBound: SIMD3(repeating: limit)))
    }

    /// Whether a remembered view is within the distance and the angle of this one.
    func hasNeighbour(position: SIMD3<Float>, direction: SIMD3<Float>) -> Bool {
        guard distance > 0 else { return false }
        let centre = cell(position)
        for dz in Int32(-1)...1 {
            for dy in Int32(-1)...1 {
                for dx in Int32(-1)...1 {
                    guard let views = cells[centre &+ SIMD3(dx, dy, dz)] else { continue }
                    for view in views where length(view.position - position) < distance && dot(view.direction, direction) > cosAngle {
                        return true
                    }
                }
            }
        }
        return false
    }

    mutating func insert(position: SIMD3<Float>, direction: SIMD3<Float>) {
        guard distance > 0 else { return }
        cells[cell(position), default: []].append((position, direction))
    }

    mutating func removeAll() { cells.removeAll() }
}
