import Glibc

/// A mask's body laid on the body plane: each body pixel's centre where its RGB ray meets the plane, with the
/// body's principal axis on the plane. Mask pixel (x, y) is centred at RGB ((x + 0.5) W / w, (y + 0.5) H / h).
struct PlanarBody {
    let plane: BodyPlane
    let body: MaskBody
    /// The area-weighted centroid of the pixels on the plane, optical frame.
    let centre: SIMD3<Double>
    /// Unit in-plane directions: the principal axis of the pixels' area on the plane, and normal x axis.
    let axis: SIMD3<Double>, lateral: SIMD3<Double>
    /// The outline's candidates for the ends: the first and last pixel of every run.
    let outline: [OutlinePoint]
    /// How far from an end the depth samples that set its height reach: a tenth of the outline's extent
    /// along the axis.
    let endReach: Double
    private let rgb: Intrinsics
    private let rgbPerMask: SIMD2<Double>

    struct OutlinePoint {
        /// Mask pixel coordinates of the pixel's centre.
        var pixel: SIMD2<Double>
        /// The point on the plane, optical frame.
        var point: SIMD3<Double>
    }

    init(_ frame: DepthFrame, body: MaskBody, plane: BodyPlane) throws(FathomError) {
        self.plane = plane
        self.body = body
        let rgb = frame.rgb
        let rgbPerMask = SIMD2(Double(rgb.width) / Double(body.width), Double(rgb.height) / Double(body.height))
        self.rgb = rgb
        self.rgbPerMask = rgbPerMask
        let n = plane.fit.normal
        let helper: SIMD3<Double> = abs(n.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
        let b1 = normalize(cross(n, helper)), b2 = cross(n, b1)
        // Area-weighted moments in the plane basis (b1, b2).
        var weight = 0.0, mean = SIMD2<Double>.zero, second = SIMD3<Double>.zero
        var outline: [OutlinePoint] = []
        var failure: SIMD2<Int>?
        let origin = plane.fit.point
        for run in body.runs {
            for x in run.x0..<run.x1 {
                guard let (p, w) = Self.pixelOnPlane(x, run.y, plane, rgb, rgbPerMask) else { failure = SIMD2(x, run.y); break }
                let q = SIMD2(dot(p - origin, b1), dot(p - origin, b2))
                weight += w
                let delta = q - mean
                mean += delta * (w / weight)
                second += w * SIMD3(delta.x * (q.x - mean.x), delta.x * (q.y - mean.y), delta.y * (q.y - mean.y))
                if x == run.x0 || x == run.x1 - 1 { outline.append(OutlinePoint(pixel: SIMD2(Double(x) + 0.5, Double(run.y) + 0.5), point: p)) }
            }
            if failure != nil { break }
        }
        if let failure {
            throw FathomError(.degenerate, "mask pixel (\(failure.x), \(failure.y)) does not see the body's plane in front of the camera (the plane is seen edge-on)")
        }
        // The principal direction of the 2x2 covariance [a b; b c].
        let a = second.x, b = second.y, c = second.z
        let angle = 0.5 * atan2(2 * b, a - c)
        var e = cos(angle) * b1 + sin(angle) * b2
        if e.x < 0 || (e.x == 0 && e.y < 0) { e = -e }  // head: the end toward the image's left (or top)
        let centre = origin + mean.x * b1 + mean.y * b2
        self.centre = centre
        axis = e
        lateral = cross(n, e)
        self.outline = outline
        let positions = outline.map { dot($0.point - centre, e) }
        endReach = 0.1 * ((positions.max() ?? 0) - (positions.min() ?? 0))
    }

    /// The optical ray (z = 1) through the RGB point under mask coordinates `pixel`.
    func ray(_ pixel: SIMD2<Double>) -> SIMD3<Double> { Self.ray(pixel, rgb, rgbPerMask) }

    private static func ray(_ pixel: SIMD2<Double>, _ rgb: Intrinsics, _ rgbPerMask: SIMD2<Double>) -> SIMD3<Double> {
        let u = pixel.x * rgbPerMask.x, v = pixel.y * rgbPerMask.y
        return SIMD3((u - Double(rgb.cx)) / Double(rgb.fx), (v - Double(rgb.cy)) / Double(rgb.fy), 1)
    }

    /// The mask coordinates an optical-frame point projects to.
    func maskPixel(_ p: SIMD3<Double>) -> SIMD2<Double> {
        SIMD2(Double(rgb.fx) * p.x / p.z + Double(rgb.cx), Double(rgb.fy) * p.y / p.z + Double(rgb.cy)) / rgbPerMask
    }

    /// The position of a point along the axis, from the centre.
    func along(_ p: SIMD3<Double>) -> Double { dot(p - centre, axis) }

    /// Meters along `direction` (in the plane) that one mask pixel of image motion covers at `pixel`: the length
    /// of the gradient of direction . X over the mask's pixel grid.
    func footprint(_ pixel: SIMD2<Double>, along direction: SIMD3<Double>) -> Double {
        func point(_ dx: Double, _ dy: Double) -> SIMD3<Double> {
            plane.intersection(ray(pixel + SIMD2(dx, dy))) ?? .zero
        }
        let du = dot(direction, point(0.5, 0) - point(-0.5, 0)), dv = dot(direction, point(0, 0.5) - point(0, -0.5))
        return (du * du + dv * dv).squareRoot()
    }

    /// Whether the body holds the mask pixel under an optical-frame point.
    func contains(_ p: SIMD3<Double>) -> Bool {
        let pixel = maskPixel(p)
        guard pixel.x >= 0, pixel.y >= 0, pixel.x < Double(body.width), pixel.y < Double(body.height) else { return false }
        return body.contains(Int(pixel.x), Int(pixel.y))
    }

    /// Calls `visit` with every body pixel's point on the plane and its area weight (relative).
    func forEachPixel(_ visit: (SIMD3<Double>, Double) -> Void) {
        for run in body.runs {
            for x in run.x0..<run.x1 {
                if let (p, w) = Self.pixelOnPlane(x, run.y, plane, rgb, rgbPerMask) { visit(p, w) }
            }
        }
    }

    /// Where mask pixel (x, y)'s centre meets the plane, and the relative area it covers there: a pixel covers
    /// D^2 / (fx fy |n . r|^3) of the plane. Nil when its ray does not meet the plane in front of the camera.
    private static func pixelOnPlane(_ x: Int, _ y: Int, _ plane: BodyPlane, _ rgb: Intrinsics,
                                     _ rgbPerMask: SIMD2<Double>) -> (SIMD3<Double>, Double)? {
        let ray = Self.ray(SIMD2(Double(x) + 0.5, Double(y) + 0.5), rgb, rgbPerMask)
        guard let p = plane.intersection(ray) else { return nil }
        let facing = dot(plane.fit.normal, ray)
        return (p, 1 / abs(facing * facing * facing))
    }
}
