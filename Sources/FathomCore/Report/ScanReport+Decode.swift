/// `report.json` read back into a report, so that a report kept as JSON (a Python `ScanReport`, a file) is
/// saved and shown by the same writer as the one just computed. The text is untrusted: every count and index
/// is checked against the rest before use.
extension ScanReport {
    /// The report `json` describes, with its two clouds (whose sizes must be the JSON's `cloud_points` and
    /// `object_points`). Fields that only the JSON carries come back as written; absolute timestamps do not
    /// (the JSON's times start at 0). Throws `.parse` for text that is not JSON, `.format` for a schema error.
    public init(json: [UInt8], cloud: PointCloud, object: PointCloud) throws(FathomError) {
        let file = try JSONText.decode(ReportFile.self, from: json)
        guard file.cloud_points == cloud.count, file.object_points == object.count else {
            throw FathomError(.format, "report.json counts \(file.cloud_points) cloud and \(file.object_points) object points, the clouds given hold \(cloud.count) and \(object.count)")
        }
        let speed = file.speed
        let n = speed.time.count
        guard file.frames >= 0, file.fused_frames >= 0, speed.speed.count == n, speed.angular_speed.count == n, speed.guidance.count == n,
              file.camera_positions.count == n || file.camera_positions.isEmpty else {
            throw FathomError(.format, "report.json's speed arrays and camera positions must have one entry per frame")
        }
        var timestamps: [Int64] = []
        var motion: [MotionState] = []
        for i in 0..<n {
            guard let t = speed.time[i], t.isFinite else { throw FathomError(.format, "speed.time[\(i)] is not a time in seconds") }
            guard let g = ScanReport.guidanceNames.firstIndex(of: speed.guidance[i]), let guidance = Guidance(rawValue: UInt32(g)) else {
                throw FathomError(.format, "speed.guidance[\(i)] '\(speed.guidance[i])' is not one of \(ScanReport.guidanceNames.joined(separator: ", "))")
            }
            // Nanoseconds from the first frame where they fit an Int64 (292 years); the times themselves are kept.
            let ns = (t * 1e9).rounded()
            timestamps.append(abs(ns) < 9e18 ? Int64(ns) : (ns < 0 ? -9_000_000_000_000_000_000 : 9_000_000_000_000_000_000))
            var state = MotionState()
            state.timestamp = timestamps[i]
            state.speed = speed.speed[i] ?? .nan
            state.angularSpeed = speed.angular_speed[i] ?? .nan
            state.guidance = guidance
            motion.append(state)
        }
        self.init(scanID: file.scan_id, frames: file.frames, fusedFrames: file.fused_frames, timestamps: timestamps, motion: motion, cloud: cloud)
        times = speed.time.map { $0 ?? 0 }
        self.object = object
        speedLimits = (speed.slow_speed ?? .nan, speed.fast_speed ?? .nan, speed.slightly ?? .nan)
        cameraPositions = try file.camera_positions.enumerated().map { i, p throws(FathomError) in try ScanReport.vector(p, "camera_positions[\(i)]") }
        guard let source = ["none", "given", "manifest", "fitted"].firstIndex(of: file.box_source).flatMap({ BoxSource(rawValue: UInt32($0)) }) else {
            throw FathomError(.format, "box_source '\(file.box_source)' is not none, given, manifest or fitted")
        }
        boxSource = source
        if let b = file.box {
            box = try Box(center: ScanReport.vector(b.center, "box.center"), scale: ScanReport.vector(b.scale, "box.scale"),
                          rotY: b.rot_y ?? .nan, floor: b.floor)
        }
        guard (box == nil) == (boxSource == .none) else { throw FathomError(.format, "box_source '\(file.box_source)' does not go with the box") }
        floor = try file.floor.map { s throws(FathomError) in try s.surface("floor") }
        support = try file.support.map { s throws(FathomError) in try s.surface("support") }
        ceiling = try file.ceiling.map { s throws(FathomError) in try s.surface("ceiling") }
        orbit = try file.orbit.map { o throws(FathomError) in
            Orbit(focus: try ScanReport.vector(o.focus, "orbit.focus"), views: o.views, span: o.span ?? .nan, radius: o.radius ?? .nan, rms: o.rms ?? .nan)
        }
        objectCapture = file.object_capture
        objectVoxels = file.object_voxels
        objectReason = file.object_reason
        trajectory = file.trajectory.map(\.summary)
        coverage = try file.coverage.map { c throws(FathomError) in try c.report() }
        guard file.captures.allSatisfy({ (0..<max(n, 1)).contains($0) }), file.selected_frames.allSatisfy({ (0..<max(file.frames, 1)).contains($0) }) else {
            throw FathomError(.format, "captures and selected_frames must be frame indices")
        }
        captures = file.captures
        selected = file.selected_frames
        warnings = file.warnings
    }

    static func vector(_ v: [Float?], _ name: String) throws(FathomError) -> SIMD3<Float> {
        guard v.count == 3 else { throw FathomError(.format, "\(name) must have 3 numbers, got \(v.count)") }
        return SIMD3(v[0] ?? .nan, v[1] ?? .nan, v[2] ?? .nan)
    }
}

extension Orbit {
    init(focus: SIMD3<Float>, views: Int, span: Float, radius: Float, rms: Float) {
        (self.focus, self.views, self.span, self.radius, self.rms) = (focus, views, span, radius, rms)
    }
}

// The schema of report.json (ScanReport+JSON.swift writes it; the README documents it). A number that was not
// finite is written as null, so every float is optional here.
private struct ReportFile: Decodable {
    let scan_id: String?
    let frames: Int, fused_frames: Int
    let box: BoxFile?
    let box_source: String
    let floor: SurfaceFile?, support: SurfaceFile?, ceiling: SurfaceFile?
    let orbit: OrbitFile?
    let object_capture: Bool
    let object_voxels: Int
    let object_reason: String?
    let cloud_points: Int, object_points: Int
    let trajectory: TrajectoryFile?
    let speed: SpeedFile
    let camera_positions: [[Float?]]
    let coverage: CoverageFile?
    let captures: [Int], selected_frames: [Int]
    let warnings: [String]
}

private struct BoxFile: Decodable {
    let center: [Float?], scale: [Float?]
    let rot_y: Float?, floor: Float?
}

private struct SurfaceFile: Decodable {
    let height: Float?, normal: [Float?], inliers: Int, rms: Float?, area: Float?
    let extent_min: [Float?], extent_max: [Float?], seen_from_above: Float?

    func surface(_ name: String) throws(FathomError) -> HorizontalSurface {
        guard extent_min.count == 2, extent_max.count == 2 else { throw FathomError(.format, "\(name)'s extents must have 2 numbers each") }
        return HorizontalSurface(height: height ?? .nan, normal: try ScanReport.vector(normal, "\(name).normal"), inliers: inliers,
                                 rms: rms ?? .nan, area: area ?? .nan, minXZ: SIMD2(extent_min[0] ?? .nan, extent_min[1] ?? .nan),
                                 maxXZ: SIMD2(extent_max[0] ?? .nan, extent_max[1] ?? .nan), seenFromAbove: seen_from_above ?? .nan)
    }
}

private struct OrbitFile: Decodable {
    let focus: [Float?], views: Int, span: Float?, radius: Float?, rms: Float?
}

private struct TrajectoryFile: Decodable {
    let duration: Double?, path_length: Double?
    let speed_p10: Float?, speed_p50: Float?, speed_p90: Float?, speed_max: Float?
    let time_too_slow: Double?, time_too_fast: Double?
    let angular_speed_max: Float?
    let steps: Int

    var summary: Trajectory.Summary {
        var s = Trajectory.Summary()
        (s.duration, s.pathLength) = (duration ?? .nan, path_length ?? .nan)
        (s.speedP10, s.speedP50, s.speedP90, s.speedMax) = (speed_p10 ?? .nan, speed_p50 ?? .nan, speed_p90 ?? .nan, speed_max ?? .nan)
        (s.timeTooSlow, s.timeTooFast, s.angularSpeedMax, s.steps) = (time_too_slow ?? .nan, time_too_fast ?? .nan, angular_speed_max ?? .nan, steps)
        return s
    }
}

private struct SpeedFile: Decodable {
    let time: [Double?], speed: [Float?], angular_speed: [Float?], guidance: [String]
    let slow_speed: Float?, fast_speed: Float?, slightly: Float?
}

private struct FaceFile: Decodable {
    let count: Int, progress: Float?, color: [Float?], opacity: Float?, complete: Bool, needed: Bool
}

private struct NextViewFile: Decodable {
    let direction: [Float?], position: [Float?]
}

private struct CoverageFile: Decodable {
    let faces: [FaceFile]
    let views: Int, counted: Int, faces_complete: Int, faces_needed: Int, complete: Bool
    let angular_score: Float?
    let goal: Int, bins: [Int], rings: Int, sectors: Int, hemisphere: Bool
    let next_view: NextViewFile?

    func report() throws(FathomError) -> CoverageReport {
        // The bins' shape bounds the figure's work: as the coverage options, 1...256 each and 4096 bins at most.
        guard faces.count == 6, (1...256).contains(rings), (1...256).contains(sectors), rings * sectors <= 4096, bins.count == rings * sectors else {
            throw FathomError(.format, "coverage must have 6 faces and rings x sectors bins (1...256 each, 4096 bins at most)")
        }
        let faceList = try faces.enumerated().map { i, f throws(FathomError) in
            FaceCoverage(count: f.count, progress: f.progress ?? .nan, color: try ScanReport.vector(f.color, "coverage.faces[\(i)].color"),
                         opacity: f.opacity ?? .nan, complete: f.complete, needed: f.needed)
        }
        let next = try next_view.map { v throws(FathomError) in
            (direction: try ScanReport.vector(v.direction, "coverage.next_view.direction"), position: try ScanReport.vector(v.position, "coverage.next_view.position"))
        }
        return CoverageReport(faces: faceList, views: views, counted: counted, facesComplete: faces_complete, facesNeeded: faces_needed,
                              complete: complete, angularScore: angular_score ?? .nan, bins: bins, nextView: next, goal: goal,
                              rings: rings, sectors: sectors, hemisphere: hemisphere)
    }
}
