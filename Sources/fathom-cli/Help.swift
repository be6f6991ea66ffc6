/// `help`: a short index of the names by capability; `help GROUP`: that capability's table of one-line entries;
/// `help all`: every table; `help NAME`: the usage of one function, method or command.
enum Help {
    static let commands: [(String, String)] = [
        ("help [NAME | GROUP | all]", "the index; one function or method; one group's table ('help cameras'); everything"),
        ("vars", "the variables defined so far"),
        ("quit", "leave (also exit, or Ctrl-D)"),
    ]

    static var overview: String {
        var lines = introduction
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

    private static let introduction = [
        "Fathom REPL: geometry for AR capture data. Meters and radians; write 30deg for degrees.",
        "Vectors are (x, y, z); quaternions (x, y, z, w); name = expression assigns; # starts a comment.",
        "A line ending in an open ( or [ or a comma inside brackets goes on on the next line; Tab completes names.", "",
    ]

    /// The names of every group on a few lines each: what `help` prints.
    static var index: String {
        var lines = introduction
        lines.append("Functions by capability ('help NAME' for one, 'help GROUP' for a group's table, 'help all'):")
        for (title, names) in builtinGroups { lines += wrapped(title, names) }
        lines += wrapped("Box methods (b.method(...))", boxMethodOrder)
        lines.append("Commands: help, vars, quit")
        return lines.joined(separator: "\n")
    }

    /// "  Title: a, b, c" wrapped at 100 columns, continuation lines indented.
    private static func wrapped(_ title: String, _ names: [String]) -> [String] {
        var lines = [String](), line = "  \(title): "
        for (i, name) in names.enumerated() {
            let item = name + (i + 1 < names.count ? "," : "")
            if line.count + item.count > 100 { lines.append(line); line = "      " }
            line += (line.hasSuffix(" ") ? "" : " ") + item
        }
        return lines + [line]
    }

    /// One group's table: the group whose title has `name` as a word (any case, singular or plural), e.g.
    /// "cameras", "camera" or "depth".
    static func group(_ name: String) -> String? {
        let word = name.lowercased()
        guard let (title, names) = builtinGroups.first(where: { group in
            group.title.lowercased().split(whereSeparator: { !$0.isLetter }).contains { $0 == word || $0 == word + "s" || $0 == word + "es" }
        }) else { return nil }
        return ([title + ":"] + names.compactMap { builtins[$0].map { row($0.usage, $0.summary) } }).joined(separator: "\n")
    }

    static func topic(_ name: String) -> String? {
        if let b = builtins[name] { return "\(b.usage)\n  \(b.summary)" }
        if let m = boxMethods[name] { return "\(m.usage)\n  \(m.summary)" }
        if name == "box" {
            return (["box(center, scale [, rot_y [, floor]]) — the capture app's box; methods:"]
                + boxMethodOrder.compactMap { boxMethods[$0].map { row($0.usage, $0.summary) } }).joined(separator: "\n")
        }
        if name == "all" { return overview }
        if let table = group(name) { return table }
        return commands.first { $0.0.hasPrefix(name) }.map { "\($0.0)\n  \($0.1)" }
    }

    private static func row(_ usage: String, _ summary: String) -> String {
        let pad = max(1, 44 - usage.count)
        return "  " + usage + String(repeating: " ", count: pad) + summary
    }
}
