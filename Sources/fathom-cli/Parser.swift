/// The REPL's syntax tree and a recursive-descent parser.
///
///     statement := IDENT '=' expr | expr
///     expr      := term (('+' | '-') term)*
///     term      := unary (('*' | '/') unary)*
///     unary     := '-' unary | postfix
///     postfix   := primary ('.' IDENT ['(' args ')'])*
///     primary   := NUMBER | NUMBER 'deg' | STRING | IDENT ['(' args ')'] | '(' expr {',' expr} ')' | '[' args ']'
indirect enum Expr {
    case number(Double, column: Int)
    case string(String, column: Int)
    case variable(String, column: Int)
    case tuple([Expr], column: Int)
    case call(String, [Expr], column: Int)
    case method(Expr, String, [Expr], column: Int)
    case negate(Expr, column: Int)
    case binary(Character, Expr, Expr, column: Int)

    var column: Int {
        switch self {
        case .number(_, let c), .string(_, let c), .variable(_, let c), .tuple(_, let c), .call(_, _, let c),
             .method(_, _, _, let c), .negate(_, let c), .binary(_, _, _, let c): c
        }
    }
}

enum Statement {
    case assign(String, Expr)
    case expression(Expr)
}

struct Parser {
    private var tokens: [Token]
    private var position = 0

    init(_ tokens: [Token]) { self.tokens = tokens }

    /// Parses one statement; nil for an empty line.
    static func parse(_ line: String) throws(ReplError) -> Statement? {
        var parser = Parser(try tokenize(line))
        if parser.peek.kind == .end { return nil }
        let statement = try parser.statement()
        guard parser.peek.kind == .end else { throw ReplError(message: "unexpected \(describe(parser.peek))", column: parser.peek.column) }
        return statement
    }

    private var peek: Token { tokens[position] }

    private mutating func next() -> Token {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private mutating func accept(_ symbol: Character) -> Bool {
        if peek.kind == .symbol(symbol) { position += 1; return true }
        return false
    }

    private mutating func expect(_ symbol: Character) throws(ReplError) {
        guard accept(symbol) else { throw ReplError(message: "expected '\(symbol)', found \(Parser.describe(peek))", column: peek.column) }
    }

    private mutating func statement() throws(ReplError) -> Statement {
        if case .identifier(let name) = peek.kind, tokens.count > position + 1, tokens[position + 1].kind == .symbol("=") {
            position += 2
            return .assign(name, try expression())
        }
        return .expression(try expression())
    }

    private mutating func expression() throws(ReplError) -> Expr {
        var left = try term()
        while case .symbol(let op) = peek.kind, op == "+" || op == "-" {
            let column = next().column
            left = .binary(op, left, try term(), column: column)
        }
        return left
    }

    private mutating func term() throws(ReplError) -> Expr {
        var left = try unary()
        while case .symbol(let op) = peek.kind, op == "*" || op == "/" {
            let column = next().column
            left = .binary(op, left, try unary(), column: column)
        }
        return left
    }

    private mutating func unary() throws(ReplError) -> Expr {
        if peek.kind == .symbol("-") {
            let column = next().column
            return .negate(try unary(), column: column)
        }
        return try postfix()
    }

    private mutating func postfix() throws(ReplError) -> Expr {
        var value = try primary()
        while peek.kind == .symbol(".") {
            _ = next()
            let token = next()
            guard case .identifier(let name) = token.kind else {
                throw ReplError(message: "expected a method name after '.', found \(Parser.describe(token))", column: token.column)
            }
            let args = accept("(") ? try arguments(closing: ")") : []
            value = .method(value, name, args, column: token.column)
        }
        return value
    }

    private mutating func primary() throws(ReplError) -> Expr {
        let token = next()
        switch token.kind {
        case .number(let v): return .number(v, column: token.column)
        case .degrees(let v): return .number(v * .pi / 180, column: token.column)
        case .string(let s): return .string(s, column: token.column)
        case .identifier(let name):
            if accept("(") { return .call(name, try arguments(closing: ")"), column: token.column) }
            return .variable(name, column: token.column)
        case .symbol("("):
            let first = try expression()
            if accept(")") { return first }
            var items = [first]
            while accept(",") { items.append(try expression()) }
            try expect(")")
            return .tuple(items, column: token.column)
        case .symbol("["):
            return .tuple(try arguments(closing: "]"), column: token.column)
        default:
            throw ReplError(message: "unexpected \(Parser.describe(token))", column: token.column)
        }
    }

    private mutating func arguments(closing: Character) throws(ReplError) -> [Expr] {
        var items = [Expr]()
        if accept(closing) { return items }
        repeat { items.append(try expression()) } while accept(",")
        try expect(closing)
        return items
    }

    static func describe(_ token: Token) -> String {
        switch token.kind {
        case .number(let v), .degrees(let v): "number \(v)"
        case .identifier(let name): "'\(name)'"
        case .string: "a string"
        case .symbol(let c): "'\(c)'"
        case .end: "end of line"
        }
    }
}
