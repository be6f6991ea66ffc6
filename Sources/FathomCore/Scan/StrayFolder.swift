import Glibc

/// A Stray Scanner capture folder: `camera_matrix.csv` (3x3 RGB intrinsics, rows on lines), `odometry.csv` (a
/// header line, then per frame `timestamp` (s), `frame`, `x, y, z`, `qx, qy, qz, qw`: camera-to-world in
/// ARKit's world with OpenCV camera axes; newer versions add per-frame `fx, fy, cx, cy`, possibly blank),
/// `depth/NNNNNN.png` (16-bit, uint16 millimetres, 0 = none) and `confidence/NNNNNN.png` (8-bit, 0/1/2) named by
/// the frame column. `imu.csv` and `rgb.mp4` are not read. The intrinsics refer to the 1920 x 1440 RGB video.
///
/// Real takes drop frames (the timestamps jump while the frame numbers stay contiguous) and can lose or cut a
/// PNG: a dropped frame is a warning, a frame whose PNG is missing, cut or of another kind is skipped with a
/// warning, and so is an odometry row that is not readable or goes back in time.
enum StrayFolder {
    static let cameraMatrix = "camera_matrix.csv", odometry = "odometry.csv"
    /// The RGB video's size, which the intrinsics refer to.
    static let rgbWidth = 1920, rgbHeight = 1440
    /// A frame period more than this many times the median means frames were dropped before it.
    static let gapFactor = 1.5

    /// Whether `directory` holds a Stray Scanner capture (both CSV files).
    static func holdsCapture(_ directory: String) -> Bool {
        access("\(directory)/\(cameraMatrix)", F_OK) == 0 && access("\(directory)/\(odometry)", F_OK) == 0
    }

    static func open(_ directory: String) throws(FathomError) -> ScanContents {
        let matrixPath = "\(directory)/\(cameraMatrix)", odometryPath = "\(directory)/\(odometry)"
        let shared = try sharedIntrinsics(matrixPath)
        let table = try CSVTable(path: odometryPath)
        for column in ["timestamp", "frame", "x", "y", "z", "qx", "qy", "qz", "qw"] where table.column(column) == nil {
            throw FathomError(.format, "'\(odometryPath)': no column '\(column)' in the header line")
        }
        var warnings = [String]()
        var timestamps = [Int64](), poses = [Pose](), intrinsics = [Intrinsics](), frames = [Int]()
        var badRows = [String]()
        for row in 0..<table.rows.count {
            do throws(FathomError) {
                let ns = try table.nanoseconds(row, "timestamp")
                if let last = timestamps.last, ns < last {
                    throw FathomError(.outOfRange, "timestamp \(StrayWriter.seconds(ns)) s does not follow the row before's")
                }
                let frame = try table.number(row, "frame")
                guard frame >= 0, frame < 1e9, frame.rounded() == frame else { throw FathomError(.format, "frame \(frame) is not a frame number") }
                let q = Quaternion(Float(try table.number(row, "qx")), Float(try table.number(row, "qy")),
                                   Float(try table.number(row, "qz")), Float(try table.number(row, "qw")))
                guard abs(q.length - 1) <= 1e-3 else { throw FathomError(.notRigid, "the quaternion's length is \(q.length), not 1") }
                let t3 = SIMD3<Float>(Float(try table.number(row, "x")), Float(try table.number(row, "y")), Float(try table.number(row, "z")))
                let opencv = try Pose(rotation: q, translation: t3)
                var k = shared
                if let fx = try table.optionalNumber(row, "fx"), let fy = try table.optionalNumber(row, "fy"),
                   let cx = try table.optionalNumber(row, "cx"), let cy = try table.optionalNumber(row, "cy") {
                    k = try Intrinsics(fx: Float(fx), fy: Float(fy), cx: Float(cx), cy: Float(cy), width: rgbWidth, height: rgbHeight)
                }
                timestamps.append(ns)
                poses.append(try opencv.converted(from: .opencv, to: .arkit))
                intrinsics.append(k)
                frames.append(Int(frame))
            } catch {
                badRows.append("line \(row + 2): \(error.message)")
            }
        }
        if let first = badRows.first {
            warnings.append("\(odometry): \(badRows.count) row\(badRows.count == 1 ? "" : "s") skipped (\(first)\(badRows.count > 1 ? ", ..." : ""))")
        }
        guard !frames.isEmpty else { throw FathomError(.format, "'\(odometryPath)' holds no readable frame row") }

        let name = { (folder: String, i: Int) -> String in
            let digits = String(frames[i])
            return "\(directory)/\(folder)/" + String(repeating: "0", count: Swift.max(0, 6 - digits.count)) + digits + ".png"
        }
        var info = stat()
        let hasConfidence = stat("\(directory)/confidence", &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        let depthPaths = frames.indices.map { name("depth", $0) }
        let confidencePaths = hasConfidence ? frames.indices.map { name("confidence", $0) } : nil
        let usable = PNGFrames.usable(depth: depthPaths, confidence: confidencePaths)
        warnings += usable.problems
        guard !usable.frames.isEmpty else {
            throw FathomError(.format, "'\(directory)': no frame has a readable depth PNG (\(usable.problems.joined(separator: "; ")))")
        }
        let kept = usable.frames
        let frequency = dropped(timestamps, frames: frames, &warnings)
        let storage = PNGFrames(depthPaths: kept.map { depthPaths[$0] }, confidencePaths: confidencePaths.map { c in kept.map { c[$0] } },
                                width: usable.width, height: usable.height, depthScale: 0.001)
        return ScanContents(format: .stray, scanID: Scan.baseName(directory), directory: directory, metadataPath: odometryPath,
                            width: usable.width, height: usable.height, depthFormat: .float32, depthScale: 1,
                            rgbWidth: rgbWidth, rgbHeight: rgbHeight, timestamps: kept.map { timestamps[$0] },
                            poses: kept.map { poses[$0] }, intrinsics: kept.map { intrinsics[$0] }, frequency: frequency,
                            warnings: warnings, storage: .png(storage))
    }

    /// The frame rate (1 / the median period), and a warning naming where frames were dropped while recording:
    /// a period over `gapFactor` times the median between rows of consecutive frame numbers (rows missing from the
    /// file, or skipped as unreadable, are said elsewhere). `frames` are the file's frame numbers.
    static func dropped(_ timestamps: [Int64], frames: [Int], _ warnings: inout [String]) -> Double? {
        guard timestamps.count >= 3 else { return nil }
        let periods = zip(timestamps.dropFirst(), timestamps).map { Double($0 &- $1) }
        let median = periods.sorted()[periods.count / 2]
        guard median > 0 else { return nil }
        let gaps = periods.indices.filter { periods[$0] > gapFactor * median && frames[$0 + 1] == frames[$0] + 1 }
        if !gaps.isEmpty {
            let missing = gaps.reduce(0) { $0 + Swift.max(1, Int((periods[$1] / median).rounded()) - 1) }
            let at = gaps.prefix(5).map { "\(frames[$0 + 1])" }.joined(separator: ", ") + (gaps.count > 5 ? ", ..." : "")
            warnings.append("about \(missing) frames were dropped while recording: the timestamps jump by more than "
                + "\(NumberText.fixed(gapFactor, digits: 1)) frame periods before frames \(at)")
        }
        return 1e9 / median
    }

    /// `camera_matrix.csv`: fx, 0, cx / 0, fy, cy / 0, 0, 1 for the RGB video.
    static func sharedIntrinsics(_ path: String) throws(FathomError) -> Intrinsics {
        let lines = try CSVTable.lines(path)
        let rows = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmed) } }
        guard rows.count == 3, rows.allSatisfy({ $0.count == 3 && $0.allSatisfy { $0?.isFinite == true } }) else {
            throw FathomError(.format, "'\(path)' must hold 3 rows of 3 numbers (the RGB camera matrix)")
        }
        let m = rows.map { $0.map { $0 ?? 0 } }
        do {
            return try Intrinsics(fx: Float(m[0][0]), fy: Float(m[1][1]), cx: Float(m[0][2]), cy: Float(m[1][2]),
                                  width: rgbWidth, height: rgbHeight)
        } catch {
            throw FathomError(.format, "'\(path)': \(error.message)")
        }
    }
}

/// A comma-separated table with a header line (Stray Scanner's `odometry.csv`): cells by column name.
struct CSVTable {
    let columns: [String: Int]
    let rows: [[Substring]]

    init(path: String) throws(FathomError) {
        let lines = try CSVTable.lines(path)
        guard let header = lines.first else { throw FathomError(.format, "'\(path)' is empty: no header line") }
        var columns = [String: Int]()
        for (i, name) in header.split(separator: ",", omittingEmptySubsequences: false).enumerated() { columns[String(name.trimmed)] = i }
        self.columns = columns
        rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmed } }
    }

    /// The file's non-blank lines (at most 1 GiB of text).
    static func lines(_ path: String) throws(FathomError) -> [Substring] {
        let text = String(decoding: try FileIO.read(path, limit: 1 << 30), as: UTF8.self)
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).filter { !$0.trimmed.isEmpty }
    }

    func column(_ name: String) -> Int? { columns[name] }

    /// The finite number in `row`'s `name` cell.
    func number(_ row: Int, _ name: String) throws(FathomError) -> Double {
        guard let value = try optionalNumber(row, name) else { throw FathomError(.format, "column \(name) is blank") }
        return value
    }

    /// Seconds in `row`'s `name` cell as nanoseconds: exact for decimals of up to 9 places that fit int64, else
    /// the number rounded (within +-9e9 s).
    func nanoseconds(_ row: Int, _ name: String) throws(FathomError) -> Int64 {
        let seconds = try number(row, name)
        if let c = columns[name], let exact = CSVTable.exactNanoseconds(rows[row][c]) { return exact }
        guard abs(seconds) < 9e9 else { throw FathomError(.outOfRange, "\(name) \(seconds) s is beyond int64 nanoseconds") }
        return Int64((seconds * 1e9).rounded())
    }

    /// `[-]digits[.up to 9 digits]` as nanoseconds, nil for another form or a value beyond int64.
    static func exactNanoseconds(_ text: Substring) -> Int64? {
        let negative = text.hasPrefix("-")
        let parts = (negative ? text.dropFirst() : text).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy { $0 >= "0" && $0 <= "9" } }),
              parts.count == 1 || parts[1].count <= 9, let whole = Int64(parts[0]) else { return nil }
        let fraction = parts.count == 2 ? Int64(parts[1] + String(repeating: "0", count: 9 - parts[1].count)) ?? 0 : 0
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        let (ns, overflow2) = scaled.addingReportingOverflow(fraction)
        guard !overflow, !overflow2 else { return nil }
        return negative ? -ns : ns
    }

    /// The number in `row`'s `name` cell, nil when the column is absent or the cell blank.
    func optionalNumber(_ row: Int, _ name: String) throws(FathomError) -> Double? {
        guard let c = columns[name], c < rows[row].count, !rows[row][c].isEmpty else { return nil }
        // Double() reads a C string: a NUL would end the number early.
        guard !rows[row][c].contains("\0"), let v = Double(rows[row][c]), v.isFinite else {
            throw FathomError(.format, "column \(name) holds \(String(rows[row][c].prefix(40)).debugDescription), not a finite number")
        }
        return v
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmed: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
