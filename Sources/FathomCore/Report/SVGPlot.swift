import Glibc

/// One SVG figure: a plot area mapping data coordinates to pixels, with axes, ticks, a legend column on the
/// right and a scale bar. Coordinates in the SVG are pixels (y down); data y may point up or down.
struct SVGPlot {
    let width: Double, height: Double
    /// The plot area in pixels.
    let left: Double, top: Double, right: Double, bottom: Double
    /// Data ranges shown across and down/up the plot area.
    let xRange: ClosedRange<Double>, yRange: ClosedRange<Double>
    /// Data y grows downward on the page (a floor plan's z) instead of upward.
    let yDown: Bool
    /// Data marks (clipped to the plot area), then the frame, ticks, labels and scale bar drawn over them.
    private var marks: [String] = []
    private var overlay: [String] = []
    private var legendEntries: [String] = []

    /// A plot of `xRange` x `yRange`. With `equalAspect` one data unit is the same number of pixels on both
    /// axes: the ranges widen about their centres to fill the area.
    init(width: Double, height: Double, legendWidth: Double, xRange: ClosedRange<Double>, yRange: ClosedRange<Double>,
         yDown: Bool = false, equalAspect: Bool = false) {
        self.width = width
        self.height = height
        left = 64
        top = 16
        right = width - legendWidth - 16
        bottom = height - 48
        self.yDown = yDown
        var x = SVGPlot.nonEmpty(xRange), y = SVGPlot.nonEmpty(yRange)
        if equalAspect {
            let pixelsPerUnit = min((right - left) / (x.upperBound - x.lowerBound), (bottom - top) / (y.upperBound - y.lowerBound))
            x = SVGPlot.widened(x, to: (right - left) / pixelsPerUnit)
            y = SVGPlot.widened(y, to: (bottom - top) / pixelsPerUnit)
        }
        self.xRange = x
        self.yRange = y
    }

    /// low...high when both are finite, ordered and their span is finite; -1...1 otherwise (a report read from
    /// JSON may hold anything).
    static func range(_ low: Double, _ high: Double) -> ClosedRange<Double> {
        low.isFinite && high.isFinite && low <= high && (high - low).isFinite ? low...high : -1...1
    }

    private static func nonEmpty(_ r: ClosedRange<Double>) -> ClosedRange<Double> {
        let r = range(r.lowerBound, r.upperBound)
        return r.upperBound - r.lowerBound > 1e-9 ? r : (r.lowerBound - 0.5)...(r.upperBound + 0.5)
    }

    private static func widened(_ r: ClosedRange<Double>, to span: Double) -> ClosedRange<Double> {
        let middle = r.lowerBound / 2 + r.upperBound / 2
        return range(middle - span / 2, middle + span / 2)
    }

    /// Pixels per data unit across.
    var xScale: Double { (right - left) / (xRange.upperBound - xRange.lowerBound) }

    func px(_ x: Double) -> Double { left + (x - xRange.lowerBound) * xScale }

    func py(_ y: Double) -> Double {
        let t = (y - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound)
        return yDown ? top + t * (bottom - top) : bottom - t * (bottom - top)
    }

    func contains(_ x: Double, _ y: Double) -> Bool { xRange.contains(x) && yRange.contains(y) }

    /// Adds a data mark (SVG text in pixel coordinates), clipped to the plot area.
    mutating func add(_ element: String) { marks.append(element) }

    // MARK: marks

    /// A polyline through the points, broken where a point is nil or not finite.
    mutating func polyline(_ points: [(Double, Double)?], color: String, width: Double = 1.5, dash: String? = nil) {
        var runs: [[String]] = [[]]
        for p in points {
            if let p, p.0.isFinite, p.1.isFinite {
                runs[runs.count - 1].append(SVGPlot.number(px(p.0)) + "," + SVGPlot.number(py(p.1)))
            } else if !runs[runs.count - 1].isEmpty {
                runs.append([])
            }
        }
        let dashed = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        for run in runs where run.count >= 2 {
            add("<polyline points=\"\(run.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\"\(dashed) stroke-linejoin=\"round\"/>")
        }
    }

    mutating func circle(_ x: Double, _ y: Double, radius: Double, fill: String, stroke: String = "none") {
        add("<circle cx=\"\(SVGPlot.number(px(x)))\" cy=\"\(SVGPlot.number(py(y)))\" r=\"\(radius)\" fill=\"\(fill)\" stroke=\"\(stroke)\"/>")
    }

    /// An "x" mark.
    mutating func cross(_ x: Double, _ y: Double, size: Double, color: String) {
        let (cx, cy) = (px(x), py(y))
        let d = "M\(SVGPlot.number(cx - size)) \(SVGPlot.number(cy - size))L\(SVGPlot.number(cx + size)) \(SVGPlot.number(cy + size))"
            + "M\(SVGPlot.number(cx - size)) \(SVGPlot.number(cy + size))L\(SVGPlot.number(cx + size)) \(SVGPlot.number(cy - size))"
        add("<path d=\"\(d)\" stroke=\"\(color)\" stroke-width=\"3\"/>")
    }

    /// Points as filled pixel cells of `cell` pixels (one path: a dense cloud stays small on the page).
    /// Points outside the plot's ranges are left out. Returns how many cells were drawn.
    @discardableResult
    mutating func cells(_ points: [(Double, Double)], cell: Double, color: String) -> Int {
        var seen = Set<Int>()
        let columns = Int(((right - left) / cell).rounded(.up)) + 1
        var d = ""
        for (x, y) in points where x.isFinite && y.isFinite && contains(x, y) {
            let cx = ((px(x) - left) / cell).rounded(.down), cy = ((py(y) - top) / cell).rounded(.down)
            guard seen.insert(Int(cy) * columns + Int(cx)).inserted else { continue }
            d += "M\(SVGPlot.number(left + cx * cell)) \(SVGPlot.number(top + cy * cell))h\(cell)v\(cell)h-\(cell)z"
        }
        if !d.isEmpty { add("<path d=\"\(d)\" fill=\"\(color)\"/>") }
        return seen.count
    }

    // MARK: frame

    /// The plot area's frame, ticks with their numbers (`class="tick"`) and the axis labels (`class="axis-label"`).
    mutating func axes(x xLabel: String, y yLabel: String) {
        overlay.append("<rect x=\"\(SVGPlot.number(left))\" y=\"\(SVGPlot.number(top))\" width=\"\(SVGPlot.number(right - left))\" height=\"\(SVGPlot.number(bottom - top))\" fill=\"none\" stroke=\"#444\"/>")
        let (xStep, xDecimals) = SVGPlot.tickStep(xRange, pixels: right - left)
        for value in SVGPlot.ticks(xRange, step: xStep) {
            let x = SVGPlot.number(px(value))
            overlay.append("<line x1=\"\(x)\" y1=\"\(SVGPlot.number(bottom))\" x2=\"\(x)\" y2=\"\(SVGPlot.number(bottom + 5))\" stroke=\"#444\"/>")
            overlay.append("<text class=\"tick\" x=\"\(x)\" y=\"\(SVGPlot.number(bottom + 18))\" text-anchor=\"middle\">\(SVGPlot.fixed(value, xDecimals))</text>")
        }
        let (yStep, yDecimals) = SVGPlot.tickStep(yRange, pixels: bottom - top)
        for value in SVGPlot.ticks(yRange, step: yStep) {
            let y = SVGPlot.number(py(value))
            overlay.append("<line x1=\"\(SVGPlot.number(left - 5))\" y1=\"\(y)\" x2=\"\(SVGPlot.number(left))\" y2=\"\(y)\" stroke=\"#444\"/>")
            overlay.append("<text class=\"tick\" x=\"\(SVGPlot.number(left - 8))\" y=\"\(y)\" dy=\"4\" text-anchor=\"end\">\(SVGPlot.fixed(value, yDecimals))</text>")
        }
        let middleX = SVGPlot.number((left + right) / 2), middleY = SVGPlot.number((top + bottom) / 2)
        overlay.append("<text class=\"axis-label\" x=\"\(middleX)\" y=\"\(SVGPlot.number(height - 10))\" text-anchor=\"middle\">\(HTMLText.escape(xLabel))</text>")
        overlay.append("<text class=\"axis-label\" x=\"16\" y=\"\(middleY)\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(middleY))\">\(HTMLText.escape(yLabel))</text>")
    }

    /// A bar `length` data units long (x) under the plot area's bottom-left corner, labelled in cm or m, chosen
    /// to be about a fifth of the width.
    mutating func scaleBar() {
        let target = (xRange.upperBound - xRange.lowerBound) / 5
        let length = SVGPlot.niceStep(target)
        let pixels = length * xScale
        let x0 = left + 12, y0 = bottom - 14
        let label = length < 1 ? "\(SVGPlot.fixed(length * 100, 0)) cm" : "\(SVGPlot.fixed(length, 0)) m"
        overlay.append("<g class=\"scale-bar\"><rect x=\"\(SVGPlot.number(x0 - 4))\" y=\"\(SVGPlot.number(y0 - 18))\" width=\"\(SVGPlot.number(pixels + 8))\" height=\"26\" fill=\"white\" fill-opacity=\"0.8\"/>"
            + "<path d=\"M\(SVGPlot.number(x0)) \(SVGPlot.number(y0 - 4))v4h\(SVGPlot.number(pixels))v-4\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>"
            + "<text x=\"\(SVGPlot.number(x0 + pixels / 2))\" y=\"\(SVGPlot.number(y0 - 7))\" text-anchor=\"middle\">\(label)</text></g>")
    }

    // MARK: legend

    enum Swatch {
        case box(fill: String)
        case line(color: String, dash: String?)
        case dot(color: String)
        case cross(color: String)
    }

    /// An entry of the legend column (`class="legend"`): a swatch and its words.
    mutating func legend(_ label: String, _ swatch: Swatch) {
        let y = top + 8 + Double(legendEntries.count) * 22
        let x = right + 16
        let mark: String
        switch swatch {
        case .box(let fill):
            mark = "<rect class=\"swatch\" x=\"\(SVGPlot.number(x))\" y=\"\(SVGPlot.number(y - 7))\" width=\"18\" height=\"14\" fill=\"\(fill)\" stroke=\"#888\"/>"
        case .line(let color, let dash):
            mark = "<rect class=\"swatch\" x=\"\(SVGPlot.number(x))\" y=\"\(SVGPlot.number(y - 1.5))\" width=\"18\" height=\"3\" fill=\"\(color)\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>"
        case .dot(let color):
            mark = "<rect class=\"swatch\" x=\"\(SVGPlot.number(x + 5))\" y=\"\(SVGPlot.number(y - 4))\" width=\"8\" height=\"8\" rx=\"4\" fill=\"\(color)\"/>"
        case .cross(let color):
            mark = "<rect class=\"swatch\" x=\"\(SVGPlot.number(x + 4))\" y=\"\(SVGPlot.number(y - 5))\" width=\"10\" height=\"10\" fill=\"\(color)\" transform=\"rotate(45 \(SVGPlot.number(x + 9)) \(SVGPlot.number(y)))\"/>"
        }
        legendEntries.append(mark + "<text x=\"\(SVGPlot.number(x + 26))\" y=\"\(SVGPlot.number(y))\" dy=\"4\">\(HTMLText.escape(label))</text>")
    }

    /// The figure as SVG text: with `standalone` a document of its own (XML declaration and namespace).
    func svg(title: String, standalone: Bool) -> String {
        let head = standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : ""
        let clip = "<clipPath id=\"\(SVGPlot.clipID(title))\"><rect x=\"\(SVGPlot.number(left))\" y=\"\(SVGPlot.number(top))\" width=\"\(SVGPlot.number(right - left))\" height=\"\(SVGPlot.number(bottom - top))\"/></clipPath>"
        return head + "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(SVGPlot.number(width)) \(SVGPlot.number(height))\" width=\"\(SVGPlot.number(width))\" height=\"\(SVGPlot.number(height))\" "
            + "font-family=\"sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\">\n<title>\(HTMLText.escape(title))</title>\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<defs>\(clip)</defs>\n"
            + "<g clip-path=\"url(#\(SVGPlot.clipID(title)))\">\n" + marks.joined(separator: "\n") + "\n</g>\n"
            + overlay.joined(separator: "\n")
            + "\n<g class=\"legend\">\n" + legendEntries.joined(separator: "\n") + "\n</g>\n</svg>\n"
    }

    private static func clipID(_ title: String) -> String {
        "plot-" + String(title.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) }.prefix(24).map(Character.init))
    }

    // MARK: numbers

    /// Shortest fixed text with 2 decimals at most (pixel coordinates).
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let text = printf(v, decimals: 2)
        var trimmed = Substring(text)
        while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        return trimmed == "-0" ? "0" : String(trimmed)
    }

    /// `v` with `decimals` digits after the point (printf's rounding).
    static func fixed(_ v: Double, _ decimals: Int) -> String {
        let text = printf(v, decimals: decimals)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    /// C's "%.*f": the rounding every printf-based reader of the page (Python's "%.1f" too) agrees with.
    private static func printf(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return v.isNaN ? "nan" : (v < 0 ? "-inf" : "inf") }
        // 309 digits before the point at most for a Double, plus sign, point and decimals.
        var buffer = [CChar](repeating: 0, count: 340)
        let places = Int32(min(max(decimals, 0), 9))
        _ = buffer.withUnsafeMutableBufferPointer { b in
            withVaList([places, v]) { vsnprintf(b.baseAddress, b.count, "%.*f", $0) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// 1, 2 or 5 times a power of ten, the nearest at or above `target`.
    static func niceStep(_ target: Double) -> Double {
        guard target.isFinite, target > 0 else { return 1 }
        let power = pow(10, (log10(target)).rounded(.down))
        for m in [1.0, 2, 5, 10] where m * power >= target * 0.999 { return m * power }
        return 10 * power
    }

    /// A tick step giving about one tick per 80 pixels, and the decimals its numbers need.
    static func tickStep(_ range: ClosedRange<Double>, pixels: Double) -> (Double, Int) {
        let step = niceStep((range.upperBound - range.lowerBound) / max(pixels / 80, 2))
        return (step, max(0, Int((-log10(step)).rounded(.up))))
    }

    static func ticks(_ range: ClosedRange<Double>, step: Double) -> [Double] {
        let first = (range.lowerBound / step).rounded(.up)
        let last = (range.upperBound / step).rounded(.down)
        guard first <= last, last - first < 100 else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * step }
    }
}
