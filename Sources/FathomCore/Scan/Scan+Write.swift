/// A scan written in another format, so captures move between tools.
extension Scan {
    /// Writes every frame of the scan into `directory` as `format` (`.scanner` or `.stray`; nerfstudio is not
    /// written) and returns the path to open it by (the metadata `.json`, or the Stray folder).
    ///
    /// - scanner: the app's files named by the scan id (or "scan" when the id is not a file stem). Depth keeps its
    ///   stored form; PNG sources in millimetres are written as uint16 millimetres, which read back as the same
    ///   float32 meters, and PNG sources in other units as float32 meters.
    /// - stray: depth rounded to the millimetre (exact for millimetre sources), 0 (no depth) beyond 65.535 m; the
    ///   poses as position and quaternion in OpenCV camera axes (within float rounding of the rotation).
    /// Timestamps, intrinsics and confidence are kept exactly (confidence above 2, damage, is written as 0; Stray
    /// intrinsics are scaled to its 1920 x 1440 video when the RGB image has another size). `progress(done, total)` returning false stops the
    /// work (`.invalidState`); the files written so far stay.
    @discardableResult
    public func write(to directory: String, format: ScanFormat, progress: ((Int, Int) -> Bool)? = nil) throws(FathomError) -> String {
        let confidenceBytes = hasConfidence ? confidenceFrameBytes : 0
        var depth = [Float](repeating: 0, count: Swift.max(depthWidth * depthHeight, (depthFrameBytes + 3) / 4))
        var confidence = [UInt8](repeating: 0, count: confidenceBytes)
        let frameCount = depthWidth * depthHeight
        func read(_ i: Int) throws(FathomError) {
            try depth.withUnsafeMutableBytes { raw in Result { () throws(FathomError) in try readDepth(i, into: raw) } }.get()
            if hasConfidence {
                try confidence.withUnsafeMutableBytes { raw in Result { () throws(FathomError) in try readConfidence(i, into: raw) } }.get()
                // A value above 2 is damage: written as 0 (low), as the PNG reader reads it.
                for k in confidence.indices where confidence[k] > 2 { confidence[k] = 0 }
            }
        }
        func step(_ i: Int) throws(FathomError) {
            if let progress, !progress(i + 1, count) { throw FathomError(.invalidState, "cancelled at frame \(i + 1) of \(count)") }
        }
        switch format {
        case .scanner:
            let stem = scanID.isEmpty || scanID.contains(where: { $0 == "/" || $0 == "." || $0 == "\0" }) ? "scan" : scanID
            // PNG depth in millimetres goes back to millimetres; other units stay float32 meters, and so does uint16
            // depth in other units than millimetres (the app's files say only "mm").
            let pngSource = { if case .png(let frames) = storage { return frames.depthScale == 0.001 } else { return false } }()
            let asMeters = !pngSource && depthFormat == .uint16 && depthScale != 0.001
            let writer = try ScanWriter(directory: directory, scanID: stem, depthWidth: depthWidth, depthHeight: depthHeight,
                                        rgbWidth: rgbWidth, rgbHeight: rgbHeight,
                                        depthFormat: pngSource ? .uint16 : (asMeters ? .float32 : depthFormat),
                                        frequency: frequency ?? 60, withConfidence: hasConfidence)
            var millimetres = [UInt16](repeating: 0, count: pngSource ? frameCount : 0)
            for i in 0..<count {
                try read(i)
                if pngSource {
                    // Whole millimetres read as float32 meters: each rounds back to its integer (at most 65535).
                    for k in 0..<frameCount {
                        let mm = (depth[k] * 1000).rounded()
                        millimetres[k] = mm >= 0 && mm <= 65535 ? UInt16(mm) : 0
                    }
                }
                if asMeters {
                    // uint16 samples times their scale, in place from the end (a float is wider than a uint16).
                    depth.withUnsafeMutableBytes { raw in
                        for k in stride(from: frameCount - 1, through: 0, by: -1) {
                            let v = raw.load(fromByteOffset: 2 * k, as: UInt16.self)
                            raw.storeBytes(of: Float(v) * depthScale, toByteOffset: 4 * k, as: Float.self)
                        }
                    }
                }
                let bytes = pngSource ? 2 * frameCount : (asMeters ? 4 * frameCount : depthFrameBytes)
                let appended = pngSource ? millimetres.withUnsafeBytes { Array($0) } : depth.withUnsafeBytes { Array($0.prefix(bytes)) }
                try appended.withUnsafeBytes { d in
                    confidence.withUnsafeBytes { c in
                        Result { () throws(FathomError) in
                            try writer.append(timestamp: timestamps[i], rgb: intrinsics[i], pose: poses[i], depth: d,
                                              confidence: hasConfidence ? c : nil)
                        }
                    }
                }.get()
                try step(i)
            }
            try writer.finish()
            return "\(directory)/\(stem).json"
        case .stray:
            let writer = try StrayWriter(directory: directory, depthWidth: depthWidth, depthHeight: depthHeight, withConfidence: hasConfidence)
            var meters = [Float](repeating: 0, count: frameCount)
            for i in 0..<count {
                try read(i)
                // Stored samples to meters (the writer stores 0 for what is not a depth in whole millimetres).
                depth.withUnsafeBytes { raw in
                    for k in 0..<frameCount {
                        switch depthFormat {
                        case .float32: meters[k] = raw.load(fromByteOffset: 4 &* k, as: Float.self) * depthScale
                        case .float16: meters[k] = Float(raw.load(fromByteOffset: 2 &* k, as: Float16.self)) * depthScale
                        case .uint16: meters[k] = Float(raw.load(fromByteOffset: 2 &* k, as: UInt16.self)) * depthScale
                        }
                    }
                }
                try meters.withUnsafeBufferPointer { m in
                    confidence.withUnsafeBytes { c in
                        Result { () throws(FathomError) in
                            try writer.append(timestamp: timestamps[i], rgb: intrinsics[i], pose: poses[i], meters: m,
                                              confidence: hasConfidence ? c : nil)
                        }
                    }
                }.get()
                try step(i)
            }
            try writer.finish()
            return directory
        case .nerfstudio:
            throw FathomError(.outOfRange, "scans are written as scanner or stray, not nerfstudio")
        }
    }
}
