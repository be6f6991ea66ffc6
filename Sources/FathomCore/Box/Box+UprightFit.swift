import Glibc

/// Fitting the capture app's yaw-only box to the points of an object standing upright.
extension Box {
    /// The yaw-only box of least footprint: the minimum-area rectangle of the convex hull of the points'
    /// x-z projection (rotating calipers, O(n log n)), y from the lowest to the highest point.
    /// rot_y is in [0, pi/2); the result has no floor. Throws `.notFinite` for a non-finite point and
    /// `.degenerate` when the points span no area in x-z or no height in y.
    public static func fitUpright(_ points: PointBuffer) throws(FathomError) -> Box {
        try points.requireFinite()
        var xz = [SIMD2<Double>]()
        xz.reserveCapacity(points.count)
        var yLow = Float.infinity, yHigh = -Float.infinity
        for i in 0..<points.count {
            let p = points[i]
            xz.append(SIMD2(Double(p.x), Double(p.z)))
            yLow = Swift.min(yLow, p.y)
            yHigh = Swift.max(yHigh, p.y)
        }
        guard yHigh > yLow else { throw FathomError(.degenerate, "the points span no height in y") }
        let hull = convexHull(xz)
        guard hull.count >= 3 else { throw FathomError(.degenerate, "the points span no area in the x-z plane") }
        let rect = minimumAreaRectangle(hull)
        guard rect.size.x > 0, rect.size.y > 0 else {
            throw FathomError(.degenerate, "the points span no area in the x-z plane")
        }
        // The rectangle's first edge direction u = (ux, uz) is the box's local x: R_y(a) * (1, 0, 0) =
        // (cos a, 0, -sin a), so a = atan2(-uz, ux). A quarter turn swaps the x and z extents.
        var angle = atan2(-rect.axis.y, rect.axis.x)
        var size = rect.size
        while angle < 0 { angle += .pi / 2; size = SIMD2(size.y, size.x) }
        while angle >= .pi / 2 { angle -= .pi / 2; size = SIMD2(size.y, size.x) }
        let center = SIMD3(Float(rect.center.x), (yLow + yHigh) / 2, Float(rect.center.y))
        let scale = SIMD3(Float(size.x), yHigh - yLow, Float(size.y))
        let pad = 4 * Float.ulpOfOne * Swift.max(1, componentAbs(center).max())
        // Below pi / 2 in Double can round up to Float.pi / 2 (which is above pi / 2): the float below it; + 0 turns
        // -0 into 0.
        let rotY = Swift.min(Float(angle), (Float.pi / 2).nextDown) + 0
        var box = try Box(center: center, scale: scale * (1 + 4 * .ulpOfOne) + pad, rotY: rotY)
        // The float rotation is a few ulps off the exact one, and that error times the long extent can exceed the
        // short extent's pad: x and z are widened to what the containment test itself computes (y is not rotated).
        let test = OrientedBox.InsideTest(try box.orientedBox())
        var reach = SIMD2<Float>.zero
        for i in 0..<points.count {
            let p = points[i], l = test.local(p.x, p.y, p.z)
            reach = pointwiseMax(reach, SIMD2(abs(l.x), abs(l.z)))
        }
        let widened = SIMD3(Swift.max(box.scale.x, 2 * reach.x), box.scale.y, Swift.max(box.scale.z, 2 * reach.y))
        if widened != box.scale { box = try Box(center: center, scale: widened, rotY: rotY) }
        return box
    }

    /// Convex hull, counter-clockwise, without collinear points (Andrew's monotone chain).
    static func convexHull(_ input: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let points = input.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        guard points.count >= 3 else { return points }
        func turn(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var hull = [SIMD2<Double>]()
        hull.reserveCapacity(2 * points.count)
        for p in points {
            while hull.count >= 2 && turn(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 { hull.removeLast() }
            hull.append(p)
        }
        let lowerCount = hull.count + 1
        for p in points.reversed().dropFirst() {
            while hull.count >= lowerCount && turn(hull[hull.count - 2], hull[hull.count - 1], p) <= 0 { hull.removeLast() }
            hull.append(p)
        }
        hull.removeLast()
        return hull
    }

    /// The minimum-area enclosing rectangle of a convex CCW polygon: one of its sides lies on a hull
    /// edge. For edge i the farthest point along the inward normal (`far`) lies in the arc i+1...i-1,
    /// the extreme point forward along the edge (`right`) in the arc i+1...far, and the extreme point
    /// backward (`left`) in the arc far...i; each caliper only moves forward as i does (O(h) in all).
    static func minimumAreaRectangle(_ hull: [SIMD2<Double>]) -> (center: SIMD2<Double>, axis: SIMD2<Double>, size: SIMD2<Double>) {
        let h = hull.count
        func next(_ k: Int) -> Int { (k + 1) % h }
        func inArc(_ k: Int, from a: Int, to b: Int) -> Bool { (k - a + h) % h <= (b - a + h) % h }
        func along(_ p: SIMD2<Double>, _ u: SIMD2<Double>) -> Double { (p * u).sum() }
        var best = (area: Double.infinity, center: SIMD2<Double>.zero, axis: SIMD2<Double>(1, 0), size: SIMD2<Double>.zero)
        var far = 1, right = 1, left = 1
        for i in 0..<h {
            let d = hull[next(i)] - hull[i]
            let u = d / (d * d).sum().squareRoot()
            let n = SIMD2(-u.y, u.x)  // inward normal of a CCW polygon
            let o = hull[i]
            if !inArc(far, from: next(i), to: (i + h - 1) % h) { far = next(i) }
            while next(far) != i && along(hull[next(far)] - o, n) >= along(hull[far] - o, n) { far = next(far) }
            if !inArc(right, from: next(i), to: far) { right = next(i) }
            while right != far && along(hull[next(right)], u) >= along(hull[right], u) { right = next(right) }
            if !inArc(left, from: far, to: i) { left = far }
            while left != i && along(hull[next(left)], u) <= along(hull[left], u) { left = next(left) }
            let lo = along(hull[left], u), hi = along(hull[right], u)
            let width = along(hull[far] - o, n)
            let area = (hi - lo) * width
            if area < best.area {
                let mid = u * (lo + hi) / 2 + n * (along(o, n) + width / 2)
                best = (area, mid, u, SIMD2(hi - lo, width))
            }
        }
        return (best.center, best.axis, best.size)
    }
}
