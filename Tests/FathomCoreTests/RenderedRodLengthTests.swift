// Mask lengths of a rod rendered here: a closed cylinder (flat caps) whose z-depth at every depth sample is the nearest
// crossing of that sample's ray, worked out in Double from the cylinder's equations, its mask the samples the ray meets.
// The rod's visible extreme points are its caps' rims, exactly its length apart along its axis; each end is sampled
// within one footprint (d / fx' m at depth d), so the measured length is within two footprints of the true one.
// (The binding's tests measure bars on flat walls; fish shapes with damaged masks are test_fish_validation's.)
import FathomCore
import Glibc
import Testing

/// An ARKit-like camera: a 1920 x 1440 RGB image with fx = fy = 1450 over a 256 x 192 depth grid (fx' = 193.33).
private let (gridW, gridH) = (256, 192)
private let scaleX = 256.0 / 1920, scaleY = 192.0 / 1440
private let (fxd, fyd, cxd, cyd) = (1450 * scaleX, 1450 * scaleY, 962.5 * scaleX, 718.25 * scaleY)

/// The z-depth of the near surface of the closed cylinder around `centre` along the unit `axis` (length and radius in
/// meters) along each sample's ray (x, y, 1) z of the optical frame, 0 where the ray misses it.
private func renderRod(centre c: SIMD3<Double>, axis e: SIMD3<Double>, length: Double, radius: Double) -> [Float] {
    var depth = [Float](repeating: 0, count: gridW * gridH)
    for j in 0..<gridH {
        for i in 0..<gridW {
            let r = SIMD3((Double(i) + 0.5 - cxd) / fxd, (Double(j) + 0.5 - cyd) / fyd, 1)
            var best = Double.infinity
            // The side: the distance of z r from the axis is the radius, |(z r - c) - ((z r - c) . e) e| = radius, a
            // quadratic in z; a root counts where it lies between the caps.
            let rp = r - dot(r, e) * e, cp = c - dot(c, e) * e
            let qa = dot(rp, rp), qb = -2 * dot(rp, cp), qc = dot(cp, cp) - radius * radius
            let disc = qb * qb - 4 * qa * qc
            if disc >= 0 {
                for z in [(-qb - disc.squareRoot()) / (2 * qa), (-qb + disc.squareRoot()) / (2 * qa)]
                where z > 0 && abs(z * dot(r, e) - dot(c, e)) <= length / 2 {
                    best = min(best, z)
                }
            }
            // The caps: (z r - c) . e = +-length / 2, within the radius of the cap's centre.
            for side in [-0.5, 0.5] {
                let capCentre = c + side * length * e, z = dot(capCentre, e) / dot(r, e)
                let off = z * r - capCentre
                if z > 0 && dot(off, off) <= radius * radius { best = min(best, z) }
            }
            if best.isFinite { depth[j * gridW + i] = Float(best) }
        }
    }
    return depth
}

@Suite("Mask length of a rendered rod")
struct RenderedRodLengthTests {
    @Test("a rod 40 cm long and 2 cm thick at 0.6 m, turned in the image and in depth: within two footprints",
          arguments: [(0.35, 0.25), (-0.2, -0.3), (0.1, 0.1)])
    func rod(yaw: Double, pitch: Double) throws {
        // The axis: (1, 0, 0) turned by pitch about y, then by yaw about z (in the image plane).
        let e = SIMD3(cos(yaw) * cos(pitch), sin(yaw) * cos(pitch), -sin(pitch)), c = SIMD3(0.0, 0.0, 0.6)
        let depth = renderRod(centre: c, axis: e, length: 0.4, radius: 0.02)
        let mask = depth.map { $0 > 0 ? UInt8(1) : 0 }
        let rgb = try Intrinsics(fx: 1450, fy: 1450, cx: 962.5, cy: 718.25, width: 1920, height: 1440)
        var options = LengthOptions()
        options.frame = .optical
        let result = try depth.withUnsafeBytes { raw in
            try mask.withUnsafeBufferPointer { m in
                let frame = try DepthFrame(base: raw.baseAddress!, format: .float32, width: gridW, height: gridH, rgb: rgb)
                return try frame.measure(mask: try Mask(base: m.baseAddress!, width: gridW, height: gridH), options: options)
            }
        }
        let ends = [c - 0.2 * e, c + 0.2 * e], far = max(ends[0].z, ends[1].z)
        #expect(abs(result.length - 0.4) < 2 * far / fxd, "\(result)")
        // The ends lie near the rod's ends (within its radius and a footprint), the head at the smaller projection on
        // the line, whose largest component (x here) is positive.
        #expect(length(result.head - ends[0]) < 0.03 && length(result.tail - ends[1]) < 0.03, "\(result)")
        #expect(result.samples > 0 && result.samples <= mask.filter { $0 == 1 }.count && result.rms < 0.02)
    }
}
