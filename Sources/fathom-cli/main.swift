import FathomCore
import Glibc

/// fathom                   the REPL (or a script from piped standard input)
/// fathom -c 'STATEMENTS'   run statements given on the command line
/// fathom run FILE [--bail] run a script; --bail stops at the first error
/// fathom report / convert / demo: batch subcommands
/// fathom --help | --version
let usage = """
usage: fathom                   interactive REPL (reads a script when standard input is not a terminal)
       fathom -c 'STATEMENTS'   run the statements (lines separated by newlines) and print their results;
                                exit status 1 if any failed
       fathom run FILE [--bail] run a script; errors print FILE:LINE:COLUMN and the script goes on
                                (--bail: stop at the first error); exit status 1 if any line failed
       fathom report SCAN [--out DIR] [--box FILE]   a capture's measurements (see fathom report --help)
       fathom convert SRC DST [--to scanner|stray]   a capture written in another format
       fathom demo [DIR]        write the built-in capture and report it
       fathom --version
"""

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil:
    if isatty(STDIN_FILENO) != 0 {
        Session(source: nil).runInteractive()
    } else {
        let session = Session(source: "<stdin>")
        session.run(file: stdin)
        exit(session.errorCount == 0 ? 0 : 1)
    }
case "-c":
    guard arguments.count == 2 else { fputs(usage + "\n", stderr); exit(2) }
    let session = Session(source: "-c")
    session.run(lines: arguments[1].split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    exit(session.errorCount == 0 ? 0 : 1)
case "run":
    guard arguments.count >= 2, arguments.count <= 3, arguments.count == 2 || arguments[2] == "--bail" else {
        fputs(usage + "\n", stderr); exit(2)
    }
    guard let file = fopen(arguments[1], "r") else {
        fputs("fathom: cannot open '\(arguments[1])': \(String(cString: strerror(errno)))\n", stderr); exit(2)
    }
    let session = Session(source: arguments[1], stopOnError: arguments.count == 3)
    session.run(file: file)
    fclose(file)
    exit(session.errorCount == 0 ? 0 : 1)
case "report":
    exit(ReportCommand.run(Array(arguments.dropFirst())))
case "convert":
    exit(ConvertCommand.run(Array(arguments.dropFirst())))
case "demo":
    exit(ReportCommand.demo(Array(arguments.dropFirst())))
case "--version":
    print("fathom \(FathomVersion.string)")
case "--help", "-h", "help":
    print(usage)
default:
    fputs(usage + "\n", stderr); exit(2)
}
