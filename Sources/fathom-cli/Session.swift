import CEdit
import FathomCore
import Glibc

/// The read-evaluate-print loop: one loop for the terminal, script files and piped input.
/// All output goes through `result` and `error`.
final class Session {
    private let interpreter = Interpreter()
    private let source: String?   // script name for error positions; nil when interactive
    private let stopOnError: Bool
    private(set) var errorCount = 0

    init(source: String?, stopOnError: Bool = false) {
        self.source = source
        self.stopOnError = stopOnError
    }

    func result(_ text: String) {
        guard !text.isEmpty else { return }
        print(text)
    }

    func error(_ text: String) {
        errorCount += 1
        fflush(stdout)
        fputs(text + "\n", stderr)
    }

    /// Handles one line; returns false when the session should end.
    func handle(_ line: String, number: Int) -> Bool {
        let trimmed = line.trimmingWhitespace
        switch trimmed {
        case "quit", "exit": return false
        case "help": result(Help.overview); return true
        case "vars":
            result(interpreter.variables.keys.sorted().map { "\($0): \(interpreter.variables[$0]!.typeName)" }.joined(separator: "\n"))
            return true
        default: break
        }
        if trimmed.hasPrefix("help ") {
            let name = String(trimmed.dropFirst(5)).trimmingWhitespace
            if let text = Help.topic(name) { result(text) } else { error("no help for '\(name)'; type 'help' for the list") }
            return true
        }
        do {
            result(format(try interpreter.execute(line)))
        } catch {
            if let source {
                self.error("\(source):\(number):\(error.column): error: \(error.message)")
            } else {
                self.error(String(repeating: " ", count: error.column + 1) + "^\nerror at column \(error.column): \(error.message)")
            }
            if stopOnError { return false }
        }
        return true
    }

    /// Runs every line from `file` (no prompts).
    func run(file: UnsafeMutablePointer<FILE>) {
        var number = 0
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) >= 0, let buffer {
            number += 1
            var line = String(cString: buffer)
            if line.hasSuffix("\n") { line.removeLast() }
            if !handle(line, number: number) { return }
        }
    }

    /// The interactive loop with libedit line editing and history in ~/.fathom_history.
    func runInteractive() {
        let history = (getenv("HOME").map { String(cString: $0) } ?? ".") + "/.fathom_history"
        read_history(history)
        print("Fathom \(FathomVersion.string). Type 'help' for commands, 'quit' to leave.")
        var number = 0
        while let raw = readline("fathom> ") {
            let line = String(cString: raw)
            free(raw)
            number += 1
            if !line.trimmingWhitespace.isEmpty { add_history(line) }
            if !handle(line, number: number) { break }
        }
        write_history(history)
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(String.UnicodeScalarView(scalars.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()))
    }
}
