import Glibc

/// Equal-area bins of directions on the sphere (or the upper hemisphere) about world +y: rings of equal height
/// (by Archimedes' theorem, equal height is equal area) split into sectors of equal azimuth.
public struct ViewBins: Equatable, Sendable {
    public let rings: Int, sectors: Int
    public let hemisphere: Bool

    public init(rings: Int, sectors: Int, hemisphere: Bool) {
        self.rings = rings
        self.sectors = sectors
        self.hemisphere = hemisphere
    }

    public var count: Int { rings * sectors }

    /// The bin of a unit direction: ring from its height y (below 0 in the lowest ring on a hemisphere), sector
    /// from its azimuth atan2(z, x) measured from +x toward +z.
    @inlinable @inline(__always)
    public func bin(of d: SIMD3<Float>) -> Int {
        // A direction that could not be normalized (a camera a hair from the centre, or one so far that the
        // difference overflows) has |y| > 1 or NaN: gridCell clamps it.
        let height = hemisphere ? d.y : (d.y + 1) / 2
        let ring = gridCell(height * Float(rings), count: rings)
        // In turns, by the reciprocal of 2 pi (a product where a quotient costs several times more in the batch's lanes).
        var azimuth = fastAtan2(d.z, d.x) * (1 / (2 * .pi))
        if azimuth < 0 { azimuth += 1 }
        let sector = gridCell(azimuth * Float(sectors), count: sectors)
        return ring * sectors + sector
    }

    /// The unit direction at the middle of a bin's ring height and sector azimuth.
    public func centre(of bin: Int) -> SIMD3<Float> {
        let ring = bin / sectors, sector = bin % sectors
        let middle = (Float(ring) + 0.5) / Float(rings)
        let y = hemisphere ? middle : 2 * middle - 1
        let azimuth = (Float(sector) + 0.5) / Float(sectors) * 2 * .pi
        let r = Swift.max(1 - y * y, 0).squareRoot()
        return SIMD3(r * cos(azimuth), y, r * sin(azimuth))
    }
}
