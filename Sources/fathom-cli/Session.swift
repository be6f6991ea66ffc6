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

    /// Handles one statement; returns false when the session should end.
    func handle(_ statement: StatementText) -> Bool {
        let line = statement.text
        let trimmed = line.trimmingWhitespace
        switch trimmed {
        case "quit", "exit": return false
        case "help": result(Help.index); return true
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
            let (number, column) = statement.position(ofColumn: error.column)
            if let source {
                self.error("\(source):\(number):\(column): error: \(error.message)")
            } else if statement.lineCount == 1 {
                // A caret under the column (both prompts are 8 characters wide).
                self.error(String(repeating: " ", count: column + 7) + "^\nerror at column \(column): \(error.message)")
            } else {
                self.error("error at line \(number) of the statement, column \(column): \(error.message)")
            }
            if stopOnError { return false }
        }
        return true
    }

    /// Runs `lines` (numbered from 1) as statements, joining lines while brackets are open; returns false when
    /// the session ended early (quit, or an error with stopOnError).
    @discardableResult
    func run(lines: some Sequence<String>) -> Bool {
        var statement = StatementText()
        for (index, line) in lines.enumerated() {
            statement.append(line, number: index + 1)
            if statement.isOpen { continue }
            defer { statement = StatementText() }
            if !handle(statement) { return false }
        }
        return statement.isEmpty || handle(statement)
    }

    /// Runs every line from `file` (no prompts).
    func run(file: UnsafeMutablePointer<FILE>) {
        run(lines: LineReader(file: file))
    }

    /// The interactive loop with libedit line editing, name completion (Tab) and history in ~/.fathom_history.
    func runInteractive() {
        let history = (getenv("HOME").map { String(cString: $0) } ?? ".") + "/.fathom_history"
        read_history(history)
        Completion.install()
        print("Fathom \(FathomVersion.string). Type 'help' for commands, 'quit' to leave.")
        var number = 0
        var statement = StatementText()
        while true {
            Completion.variables = Array(interpreter.variables.keys)
            guard let raw = readline(statement.isEmpty ? "fathom> " : "   ...> ") else { break }
            let line = String(cString: raw)
            free(raw)
            number += 1
            statement.append(line, number: number)
            if statement.isOpen { continue }
            if !statement.text.trimmingWhitespace.isEmpty { add_history(statement.text) }
            defer { statement = StatementText(); number = 0 }
            if !handle(statement) { break }
        }
        write_history(history)
    }
}

/// The lines of a C stream, without their line ends.
struct LineReader: Sequence, IteratorProtocol {
    let file: UnsafeMutablePointer<FILE>

    func next() -> String? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        guard getline(&buffer, &capacity, file) >= 0, let buffer else { return nil }
        var line = String(cString: buffer)
        if line.hasSuffix("\n") { line.removeLast() }
        return line
    }
}

/// Tab completion of names: functions, box methods, commands and the session's variables.
enum Completion {
    nonisolated(unsafe) static var variables: [String] = []
    nonisolated(unsafe) private static var matches: [String] = []

    static func install() {
        // Names end at operators, brackets and the dot of a method call, so "b.ext" completes "ext".
        let breaks = strdup(" \t\n\"(),[]=+-*/.")
        rl_basic_word_break_characters = UnsafePointer(breaks)
        rl_completer_word_break_characters = breaks
        rl_completion_entry_function = { text, state in
            guard let text else { return nil }
            if state == 0 {
                let prefix = String(cString: text)
                let names = Set(builtins.keys).union(boxMethods.keys).union(Completion.variables)
                    .union(["help", "vars", "quit", "exit"])
                Completion.matches = names.filter { $0.hasPrefix(prefix) }.sorted()
            }
            guard Int(state) < Completion.matches.count else { return nil }
            return strdup(Completion.matches[Int(state)])
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(String.UnicodeScalarView(scalars.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()))
    }
}
