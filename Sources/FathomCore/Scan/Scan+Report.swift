import Glibc

/// A scan's report: a `CaptureBuilder` fed from the files.
extension Scan {
    /// Feeds every frame to a capture builder (reading depth only for the frames it fuses) and returns it,
    /// for `report()` or for its cloud, with the box's source and what was skipped. The box is `box` if given,
    /// else the `boundingbox.json` beside the scan if there is one, else estimated. A frame whose timestamp is
    /// earlier than the last frame fed is skipped (a warning names it) rather than failing the scan. In a scan
    /// indexed while read, damage in a stream ends the frames fed where it is found (a warning says so), as
    /// opening would have.
    /// `progress(done, total)` is called after each frame; returning false stops the work (`.invalidState`,
    /// "cancelled").
    public func capture(options: CaptureOptions = CaptureOptions(), box: Box? = nil,
                        progress: ((Int, Int) -> Bool)? = nil) throws(FathomError) -> (CaptureBuilder, BoxSource, [String]) {
        var source = BoxSource.given
        var chosen = box
        if chosen == nil {
            let manifest = directory + "/boundingbox.json"
            if access(manifest, F_OK) == 0 {
                do throws(FathomError) { chosen = try Box(manifestAt: manifest) } catch {
                    throw error.message.contains(manifest) ? error : FathomError(error.kind, "'\(manifest)': \(error.message)")
                }
                source = .manifest
            }
        }
        let builder = try CaptureBuilder(options: options, box: chosen)
        var backwards: [Int] = []
        var skipped: [String] = []
        let lazy = indexesWhileReading
        for i in 0..<count {
            do throws(FathomError) {
                let back = builder.timestamps.last.map { timestamps[i] < $0 } ?? false
                let fused = !back && builder.wantsDepth(at: poses[i])
                // A frame fused is read; one that is not is inflated through, so damage shows where it is.
                if lazy, !fused { try checkStreams(i) }
                if back {
                    backwards.append(i)
                } else if fused {
                    let frame = try ScanFrame(self, i)
                    try frame.withDepthFrame { (depth) throws(FathomError) in
                        _ = try builder.add(timestamp: timestamps[i], pose: poses[i], rgb: intrinsics[i], depth: depth)
                    }
                } else {
                    try builder.add(timestamp: timestamps[i], pose: poses[i], rgb: intrinsics[i], depth: nil)
                }
            } catch {
                // Frame i is past damage a read found just now: the streams hold frames 0..<i only.
                guard lazy, framesInStreams <= i else { throw error }
                skipped.append("frames \(i) to \(count - 1) were not read: \(error.message)")
                break
            }
            if let progress, !progress(i + 1, count) { throw FathomError(.invalidState, "cancelled at frame \(i + 1) of \(count)") }
        }
        if !backwards.isEmpty {
            let shown = backwards.prefix(10).map(String.init).joined(separator: ", ") + (backwards.count > 10 ? ", ..." : "")
            skipped.append("\(backwards.count) frame\(backwards.count == 1 ? "" : "s") skipped (scan frame \(shown)): a timestamp earlier than the frame before")
        }
        return (builder, source, skipped)
    }

    /// The scan's report (see `capture`).
    public func report(options: CaptureOptions = CaptureOptions(), box: Box? = nil,
                       progress: ((Int, Int) -> Bool)? = nil) throws(FathomError) -> ScanReport {
        let (builder, source, skipped) = try capture(options: options, box: box, progress: progress)
        return try builder.report(scanID: scanID, warnings: warnings + skipped, boxSource: source)
    }
}
