import FathomCore
import Glibc

/// The report's pictures (`fathom report --out`): PNG files without text, described in the README.
enum ReportPlots {
    static let gray = SIMD3<UInt8>(200, 200, 200), black = SIMD3<UInt8>(0, 0, 0), blue = SIMD3<UInt8>(40, 90, 220)
    static let green = SIMD3<UInt8>(0, 160, 60), red = SIMD3<UInt8>(220, 30, 30), orange = SIMD3<UInt8>(255, 140, 0)

    /// Writes trajectory.png, coverage.png (when there is a box) and speed.png into `directory`; returns their paths.
    static func save(_ report: ScanReport, options: CaptureOptions, to directory: String) throws -> [String] {
        var written = ["\(directory)/trajectory.png"]
        try topView(report).save(written[0])
        if let coverage = report.coverage {
            written.append("\(directory)/coverage.png")
            try faces(coverage, goal: options.coverage.goal).save(written[written.count - 1])
        }
        written.append("\(directory)/speed.png")
        try speed(report, options: options.motion).save(written[written.count - 1])
        return written
    }

    /// Seen from above (x to the right, z down): the fused cloud in gray, the object's points in blue, the box in
    /// green, the camera path in black with the captured views in red, the cameras' focus in orange.
    static func topView(_ report: ScanReport, size: Int = 800) -> PNGImage {
        var image = PNGImage(width: size, height: size)
        let cameras = report.cameraPositions
        var xs = cameras.map(\.x), zs = cameras.map(\.z)
        if let box = report.box { xs += box.corners.map(\.x); zs += box.corners.map(\.z) }
        guard let minX = xs.min(), let maxX = xs.max(), let minZ = zs.min(), let maxZ = zs.max() else { return image }
        let span = max(maxX - minX, maxZ - minZ, 0.1) * 1.15
        let center = SIMD2((minX + maxX) / 2, (minZ + maxZ) / 2)
        func pixel(_ p: SIMD3<Float>) -> SIMD2<Float> {
            (SIMD2(p.x, p.z) - center) / span * Float(size) + Float(size) / 2
        }
        for i in stride(from: 0, to: report.cloud.count, by: max(1, report.cloud.count / 200_000)) {
            image.dot(pixel(report.cloud[i]), gray, radius: 0)
        }
        for i in 0..<report.object.count { image.dot(pixel(report.object[i]), blue, radius: 0) }
        if let box = report.box {
            let c = box.corners
            for (a, b) in [(0, 1), (1, 5), (5, 4), (4, 0)] { image.line(pixel(c[a]), pixel(c[b]), green, thickness: 3) }
        }
        for i in 1..<max(1, cameras.count) { image.line(pixel(cameras[i - 1]), pixel(cameras[i]), black, thickness: 2) }
        for i in report.captures { image.dot(pixel(cameras[i]), red, radius: 5) }
        if let focus = report.focus {
            let p = pixel(focus)
            image.line(p - 8, p + 8, orange, thickness: 3)
            image.line(p + SIMD2(-8, 8), p + SIMD2(8, -8), orange, thickness: 3)
        }
        return image
    }

    /// The box's faces unfolded as a cross (top in the middle, front below it, back above, left and right beside
    /// it, bottom below the front), each filled with the app's colour for its progress (yellow to cyan) and a
    /// black bar showing the count against the goal; a face that is not needed is gray.
    static func faces(_ coverage: CoverageReport, goal: Int, cell: Int = 160) -> PNGImage {
        var image = PNGImage(width: 3 * cell + 40, height: 4 * cell + 40)
        // (column, row) of front, left, right, bottom, top, back in the cross.
        let places = [(1, 2), (0, 1), (2, 1), (1, 3), (1, 1), (1, 0)]
        for (i, face) in coverage.faces.enumerated() {
            let (col, row) = places[i]
            let x0 = 20 + col * cell, y0 = 20 + row * cell
            let fill = face.needed ? SIMD3<UInt8>(UInt8(255 * min(max(face.color.x, 0), 1)), UInt8(255 * min(max(face.color.y, 0), 1)),
                                                 UInt8(255 * min(max(face.color.z, 0), 1))) : gray
            image.fill(x0: x0 + 2, y0: y0 + 2, x1: x0 + cell - 2, y1: y0 + cell - 2, fill)
            let bar = Int(Float(cell - 20) * min(Float(face.count) / Float(max(goal, 1)), 1))
            image.fill(x0: x0 + 10, y0: y0 + cell - 24, x1: x0 + 10 + bar, y1: y0 + cell - 12, black)
        }
        return image
    }

    /// Speed (black) over time, with the slow (blue) and fast (red) thresholds; the background is tinted red
    /// where the guidance says too fast and blue where too slow.
    static func speed(_ report: ScanReport, options: MotionOptions, width: Int = 1000, height: Int = 400) -> PNGImage {
        var image = PNGImage(width: width, height: height)
        let times = report.timestamps.map { (Double($0) - Double(report.timestamps[0])) * 1e-9 }
        let top = max(report.motion.map(\.speed).filter(\.isFinite).max() ?? 0, options.fastSpeed) * 1.2
        let duration = max(times.last ?? 1, 1e-3)
        func pixel(_ t: Double, _ v: Float) -> SIMD2<Float> {
            SIMD2(Float(t / duration) * Float(width - 40) + 20, Float(height - 20) - v / top * Float(height - 40))
        }
        for (i, state) in report.motion.enumerated() where i + 1 < times.count {
            let tint: SIMD3<UInt8>? = state.guidance == .tooFast ? SIMD3(255, 225, 225) : state.guidance == .tooSlow ? SIMD3(225, 230, 255) : nil
            if let tint {
                let x0 = Int(pixel(times[i], 0).x), x1 = Int(pixel(times[i + 1], 0).x.rounded(.up))
                image.fill(x0: x0, y0: 20, x1: x1 + 1, y1: height - 20, tint)
            }
        }
        for (v, color) in [(options.slowSpeed, blue), (options.fastSpeed, red)] {
            image.line(pixel(0, v), pixel(duration, v), color, thickness: 1)
        }
        image.line(pixel(0, 0), pixel(duration, 0), black)
        for i in 2..<max(2, report.motion.count) {
            image.line(pixel(times[i - 1], report.motion[i - 1].speed), pixel(times[i], report.motion[i].speed), black, thickness: 2)
        }
        return image
    }
}
