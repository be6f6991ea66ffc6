import Glibc

/// Numbers in the units people read (the page and the CLI): lengths in cm (mm for small errors), angles in
/// degrees, times in seconds, speeds in m/s; and the colours of the figures.
public enum ReportText {
    /// Meters as "12.3 cm".
    public static func centimetres(_ meters: Float) -> String { SVGPlot.fixed(Double(meters) * 100, 1) + " cm" }

    /// Meters as "4.2 mm".
    public static func millimetres(_ meters: Float) -> String { SVGPlot.fixed(Double(meters) * 1000, 1) + " mm" }

    /// Radians as "124°".
    public static func degrees(_ radians: Float) -> String { SVGPlot.fixed(Double(radians) * 180 / .pi, 0) + "°" }

    public static func seconds(_ s: Double) -> String { SVGPlot.fixed(s, 1) + " s" }

    public static func speed(_ v: Float) -> String { SVGPlot.fixed(Double(v), 2) + " m/s" }

    public static func area(_ squareMeters: Float) -> String { SVGPlot.fixed(Double(squareMeters), 2) + " m²" }

    /// A fraction as a whole percentage, "73%" ("?" when it is not finite: a report read from JSON may hold null).
    public static func percent(_ fraction: Float) -> String {
        let p = (fraction * 100).rounded()
        return p.isFinite && abs(p) < 1e9 ? "\(Int(p))%" : "?%"
    }

    /// A box's size in meters as "40.0 x 30.0 x 20.0 cm".
    public static func size(_ s: SIMD3<Float>) -> String {
        [s.x, s.y, s.z].map { SVGPlot.fixed(Double($0) * 100, 1) }.joined(separator: " x ") + " cm"
    }

    /// A point in meters as "(x, y, z) cm".
    public static func point(_ p: SIMD3<Float>) -> String {
        "(" + [p.x, p.y, p.z].map { SVGPlot.fixed(Double($0) * 100, 1) }.joined(separator: ", ") + ") cm"
    }

    /// An RGB colour in [0, 1] as "#rrggbb".
    public static func rgb(_ c: SIMD3<Float>) -> String {
        func hex(_ v: Float) -> String {
            let byte = Int((min(max(v.isFinite ? v : 0, 0), 1) * 255).rounded())
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
        return "#" + hex(c.x) + hex(c.y) + hex(c.z)
    }

    /// A light-to-dark blue for t in [0, 1].
    public static func blues(_ t: Double) -> String {
        let s = Float(min(max(t, 0), 1))
        return rgb((1 - s) * SIMD3(0.78, 0.86, 0.94) + s * SIMD3(0.03, 0.19, 0.42))
    }
}
