import FathomCore
import Glibc

/// A motion tracker held by the REPL (a reference, so `move` and `walk` advance the variable's tracker).
final class MotionRecorder {
    var tracker: MotionTracker
    init(_ tracker: MotionTracker) { self.tracker = tracker }
}

/// REPL functions for capture guidance: coverage of a box's faces and directions, and camera speed.
let guidanceBuiltins: [String: Builtin] = [
    "look_at": Builtin(usage: "look_at(eye, target)", summary: "camera pose at eye looking at target (its -z), +y up") { a in
        try a.expect(2...2)
        return .pose(try lookAt(eye: a.vector3(0, "eye"), target: a.vector3(1, "target")))
    },
    "coverage": Builtin(usage: "coverage(box [, goal [, cells]])", summary: "face-coverage tracker for a box (goal 10, 4x4 cells per face)") { a in
        try a.expect(1...3)
        var options = CoverageOptions()
        if a.count > 1 { options.goal = try a.integer(1, "goal") }
        if a.count > 2 { options.cells = try a.integer(2, "cells") }
        return .coverage(try CoverageTracker(box: a.box(0, "box"), options: options))
    },
    "record": Builtin(usage: "record(cov, camera [, k])", summary: "records a view: the face its optical axis meets, or why it does not count") { a in
        try a.expect(2...3)
        let result = try a.coverage(0, "cov").record(camera: a.pose(1, "camera"), intrinsics: a.count > 2 ? a.camera(2, "k") : nil)
        return .string(describe(result))
    },
    "record_orbit": Builtin(usage: "record_orbit(cov, radius, height, n [, k])",
                            summary: "records n views from a circle around the box at a height, each looking at its centre") { a in
        try a.expect(4...5)
        let cov = try a.coverage(0, "cov")
        let radius = try a.float(1, "radius"), height = try a.float(2, "height"), n = try a.integer(3, "n")
        guard (1...1_000_000).contains(n) else { throw FathomError(.outOfRange, "n must be in 1...1000000, got \(n)") }
        try Check.positive(radius, "radius")
        let k = a.count > 4 ? try a.camera(4, "k") : nil
        let centre = cov.box.center
        var completed: [String] = []
        for i in 0..<n {
            let angle = Float(i) / Float(n) * 2 * .pi
            let eye = SIMD3(centre.x + radius * cos(angle), height, centre.z + radius * sin(angle))
            if let face = cov.record(camera: try lookAt(eye: eye, target: centre), intrinsics: k).completedFace {
                completed.append(Box.faceNames[face])
            }
        }
        return .list([.coverage(cov), .string("completed: \(completed.isEmpty ? "none" : completed.joined(separator: ", "))")])
    },
    "face_coverage": Builtin(usage: "face_coverage(cov)", summary: "each face's count, progress, the app's colour and opacity") { a in
        try a.expect(1...1)
        let cov = try a.coverage(0, "cov")
        return .list((0..<6).map { i in
            let f = cov.face(i)
            return .string("\(Box.faceNames[i]) \(f.count)/\(cov.options.goal) progress \(format(f.progress)) color \(format(f.color))"
                + " opacity \(format(f.opacity))\(f.complete ? " complete" : "")\(f.needed ? "" : " (not needed)")")
        })
    },
    "next_view": Builtin(usage: "next_view(cov [, distance])", summary: "least-covered direction from the box centre and a camera position there") { a in
        try a.expect(1...2)
        let next = try a.coverage(0, "cov").nextView(distance: a.count > 1 ? a.float(1, "distance") : nil)
        return .string("direction \(format(next.direction)) position \(format(next.position))")
    },
    "motion": Builtin(usage: "motion([time_constant])", summary: "camera-speed tracker (the app's 5 / 10 in/s thresholds), optional smoothing") { a in
        try a.expect(0...1)
        var options = MotionOptions()
        if a.count > 0 { options.timeConstant = try a.float(0, "time_constant") }
        return .motion(MotionRecorder(try MotionTracker(options: options)))
    },
    "move": Builtin(usage: "move(m, seconds, camera)", summary: "feeds one pose taken at a time (seconds): speed, guidance, capture") { a in
        try a.expect(3...3)
        let m = try a.motion(0, "m")
        let seconds = try a.number(1, "seconds")
        guard seconds.isFinite, abs(seconds) < 9e9 else { throw FathomError(.outOfRange, "seconds must be finite and below 9e9, got \(seconds)") }
        return .string(describe(try m.tracker.update(timestamp: Int64((seconds * 1e9).rounded()), pose: a.pose(2, "camera"))))
    },
    "walk": Builtin(usage: "walk(m, from, to, seconds [, rate])",
                    summary: "feeds poses along a straight line (rate per second, default 60) after the last one; captures taken") { a in
        try a.expect(4...5)
        let m = try a.motion(0, "m")
        let from = try a.vector3(1, "from"), to = try a.vector3(2, "to")
        let seconds = try a.number(3, "seconds"), rate = a.count > 4 ? try a.number(4, "rate") : 60
        guard seconds > 0, seconds <= 3600, rate >= 1, rate <= 1000 else {
            throw FathomError(.outOfRange, "seconds must be in (0, 3600] and rate in [1, 1000], got \(format(seconds)) and \(format(rate))")
        }
        let steps = Int((seconds * rate).rounded())
        let start = m.tracker.state.timestamp
        guard !start.addingReportingOverflow(Int64((seconds * 1e9).rounded())).overflow else {
            throw FathomError(.outOfRange, "the walk would end past the largest timestamp")
        }
        var captures = 0
        for i in 0...steps {
            let t = Float(i) / Float(Swift.max(steps, 1))
            let pose = Pose(rotation: Matrix3.identity, translation: from + (to - from) * t)
            let state = try m.tracker.update(timestamp: start + Int64((Double(i) / rate * 1e9).rounded()), pose: pose)
            if state.captured { captures += 1 }
        }
        return .list([.string(describe(m.tracker.state)), .string("\(captures) automatic capture(s)")])
    },
]

/// The camera pose at `eye` whose -z looks at `target`, x horizontal, y up.
func lookAt(eye: SIMD3<Float>, target: SIMD3<Float>) throws -> Pose {
    try Check.finite(eye, "eye")
    try Check.finite(target, "target")
    let forward = target - eye
    let back = -forward / length(forward)
    let side = cross(SIMD3(0, 1, 0), back)
    guard length(forward) > 0, length(side) > 1e-6 else {
        throw FathomError(.degenerate, "the camera must not look straight up or down, or at its own position")
    }
    let x = side / length(side)
    return Pose(rotation: Matrix3(x, cross(back, x), back), translation: eye)
}

func describe(_ r: ViewResult) -> String {
    let face = r.face.map { Box.faceNames[$0] } ?? "no face"
    let completed = r.completedFace.map { ", completed \(Box.faceNames[$0])" } ?? ""
    switch r.status {
    case .counted: return "counted \(face), cell \(r.cell), bin \(r.bin), \(format(r.distance)) m away\(completed)"
    case .missed: return "missed: the optical axis does not meet the box"
    case .tooClose: return "not counted: \(face) is \(format(r.distance)) m away, too close"
    case .tooFar: return "not counted: \(face) is \(format(r.distance)) m away, too far"
    case .outOfFrame: return "not counted: too little of the box is in the image"
    case .tooSimilar: return "not counted: too similar to a view already counted"
    }
}

func describe(_ s: MotionState) -> String {
    let words: [Guidance: String] = [.unknown: "no speed yet", .tooSlow: "too slow: speed up", .slightlySlow: "slightly slow",
                                     .ok: "keep this speed", .slightlyFast: "slightly fast", .tooFast: "too fast: slow down"]
    return "speed \(format(s.speed)) m/s (\(format(s.speed / 0.0254)) in/s) \(words[s.guidance]!), turning \(format(s.angularSpeed)) rad/s,"
        + " next capture in \(format(s.timeToCapture)) s (interval \(format(s.captureInterval)) s)" + (s.captured ? ", captured" : "")
        + (s.skipped ? ", repeated timestamp skipped" : "") + (s.restarted ? ", restarted after a gap" : "")
}
