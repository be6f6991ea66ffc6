import Glibc

/// How the views of a capture gather around one point: the point nearest every optical axis (the focus), the
/// views that look at it, and the angle they span around it. An object capture circles its object; a
/// walk-through's views look past each other and span little around any point.
public struct Orbit: Equatable, Sendable {
    /// The point nearest every optical axis (least squares), world meters.
    public var focus: SIMD3<Float>
    /// Views that look at the focus: it lies in front of the camera, within `maxOffAxis` of the optical axis and
    /// within the capture's depth range.
    public var views: Int
    /// The angle those views span around the vertical through the focus, radians in [0, 2 pi]: 2 pi less the
    /// widest gap between their directions on the floor plan.
    public var span: Float
    /// Median floor-plan distance of those views from the focus, meters.
    public var radius: Float
    /// RMS distance of the optical axes from the focus, meters.
    public var rms: Float

    /// A view looks at the focus when the focus is within this angle of its optical axis (radians): 20 degrees,
    /// inside the LiDAR's narrower half field of view (about 24 degrees).
    public static let maxOffAxis: Float = 20 * .pi / 180

    /// The orbit of `poses` (camera-to-world), nil when fewer than two views or nearly parallel optical axes
    /// leave the focus undetermined.
    init?(poses: [Pose], maxDepth: Float) {
        guard let focus = Orbit.focus(poses) else { return nil }
        var azimuths = [Float](), distances = [Float](), squares: Double = 0
        for pose in poses {
            let axis = -pose.rotation.c2, v = focus - pose.translation
            let along = dot(v, axis), d = length(v)
            let off = v - along * axis
            squares += Double(dot(off, off))
            guard along > 0.05, d <= maxDepth, along >= d * cos(Orbit.maxOffAxis) else { continue }
            let flat = SIMD2(pose.translation.x - focus.x, pose.translation.z - focus.z)
            let r = (flat * flat).sum().squareRoot()
            guard r > 0.05 else { continue }  // straight above the focus: no direction on the floor plan
            azimuths.append(atan2(flat.y, flat.x))
            distances.append(r)
        }
        self.focus = focus
        views = azimuths.count
        rms = Float((squares / Double(poses.count)).squareRoot())
        radius = distances.isEmpty ? 0 : distances.sorted()[distances.count / 2]
        guard !azimuths.isEmpty else { span = 0; return }
        azimuths.sort()
        var widest = azimuths[0] + 2 * .pi - azimuths[azimuths.count - 1]
        for k in 1..<azimuths.count { widest = Swift.max(widest, azimuths[k] - azimuths[k - 1]) }
        span = Swift.max(0, 2 * .pi - widest)
    }

    /// Least-squares point nearest the optical axes (each camera's -z from its position).
    static func focus(_ poses: [Pose]) -> SIMD3<Float>? {
        var a = [Double](repeating: 0, count: 9), b = SIMD3<Double>.zero
        for pose in poses {
            let d = SIMD3<Double>(-pose.rotation.c2)
            let o = SIMD3<Double>(pose.translation)
            // (I - d d^T) accumulated, and (I - d d^T) o.
            for r in 0..<3 { for c in 0..<3 { a[c * 3 + r] += (r == c ? 1 : 0) - d[r] * d[c] } }
            b += o - d * (d * o).sum()
        }
        // Solved through the eigen-decomposition of the symmetric A: parallel axes make it singular.
        guard poses.count >= 2, let (values, v) = try? LinearAlgebra.symmetricEigen(a, n: 3),
              values[0] > 1e-3 * values[2] else { return nil }
        var x = SIMD3<Double>.zero
        for k in 0..<3 {
            let e = SIMD3(v[3 * k], v[3 * k + 1], v[3 * k + 2])
            x += e * (dot(e, b) / values[k])
        }
        let f = SIMD3<Float>(x)
        return f.isFinite ? f : nil
    }
}
