/// The report in words for a terminal: the warnings first, then the page's measurements, one per line, in cm,
/// degrees and seconds with their evidence.
extension ScanReport {
    public func text() -> String {
        var lines = warnings.map { "warning: \($0)" }
        lines.append("scan \(scanID ?? "(unnamed)"): \(frames) frames over \(ReportText.seconds(duration))")
        if let objectReason { lines.append("no object: \(objectReason)") }
        let rows = measurements
        let width = rows.map(\.name.count).max() ?? 0
        for m in rows {
            let name = m.name + String(repeating: " ", count: width - m.name.count)
            lines.append("\(name)  \(m.shown)" + (m.evidence.isEmpty ? "" : "  (\(m.evidence))"))
        }
        if let c = coverage {
            lines.append("faces: " + zip(Box.faceNames, c.faces).map { "\($0) \($1.count) views \(ReportText.percent($1.progress))" }.joined(separator: ", "))
            if let next = c.nextView { lines.append("next view: camera at \(ReportText.point(next.position))") }
        }
        lines.append("selected \(selected.count) frames for a reconstruction")
        return lines.joined(separator: "\n")
    }
}
