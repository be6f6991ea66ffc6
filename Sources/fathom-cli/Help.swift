/// `help` and `help NAME`: a table of one-line entries, and the usage of one entry.
enum Help {
    static let commands: [(String, String)] = [
        ("help [NAME]", "this list, or the usage of one function, method or topic ('help box')"),
        ("vars", "the variables defined so far"),
        ("quit", "leave (also exit, or Ctrl-D)"),
    ]

    static var overview: String {
        var lines = ["Fathom REPL: geometry for AR capture data. Meters and radians; write 30deg for degrees.",
                     "Vectors are (x, y, z); quaternions (x, y, z, w); name = expression assigns; # starts a comment.", ""]
        for (title, names) in builtinGroups {
            lines.append(title + ":")
            for name in names { if let b = builtins[name] { lines.append(row(b.usage, b.summary)) } }
        }
        lines.append("Box methods (b = box(...); b.method(...) edits b in place):")
        for name in boxMethodOrder { if let m = boxMethods[name] { lines.append(row(m.usage, m.summary)) } }
        lines.append("Oriented box methods: o.corners(), o.volume()")
        lines.append("Mesh methods: m.save(\"mesh.ply\" | \"mesh.obj\")  write the mesh (format by extension; PLY keeps classes)")
        lines.append("Arithmetic: + - * / on numbers and vectors; pose * pose composes; pose * point maps a point.")
        lines.append("Commands:")
        for (usage, summary) in commands { lines.append(row(usage, summary)) }
        return lines.joined(separator: "\n")
    }

    static func topic(_ name: String) -> String? {
        if let b = builtins[name] { return "\(b.usage)\n  \(b.summary)" }
        if let m = boxMethods[name] { return "\(m.usage)\n  \(m.summary)" }
        if name == "box" {
            return (["box(center, scale [, rot_y [, floor]]) — the capture app's box; methods:"]
                + boxMethodOrder.compactMap { boxMethods[$0].map { row($0.usage, $0.summary) } }).joined(separator: "\n")
        }
        return commands.first { $0.0.hasPrefix(name) }.map { "\($0.0)\n  \($0.1)" }
    }

    private static func row(_ usage: String, _ summary: String) -> String {
        let pad = max(1, 44 - usage.count)
        return "  " + usage + String(repeating: " ", count: pad) + summary
    }
}
