import FathomCore

/// Evaluates statements against a table of variables. Methods called on a variable that change
/// their receiver (box edits) store the changed value back into the variable.
final class Interpreter {
    private(set) var variables: [String: Value] = [:]

    /// Runs one line; returns the value to print (`.none` for assignments and empty lines).
    func execute(_ line: String) throws(ReplError) -> Value {
        guard let statement = try Parser.parse(line) else { return .none }
        switch statement {
        case .assign(let name, let expr):
            guard builtins[name] == nil else {
                throw ReplError(message: "'\(name)' is a function name; choose another variable name", column: 1)
            }
            variables[name] = try evaluate(expr)
            return .none
        case .expression(let expr):
            return try evaluate(expr)
        }
    }

    /// The value of `expr` with exactly `bindings` as its variables (formulas evaluated per pixel).
    func evaluate(_ expr: Expr, with bindings: [String: Value]) throws(ReplError) -> Value {
        variables = bindings
        return try evaluate(expr)
    }

    private func evaluate(_ expr: Expr) throws(ReplError) -> Value {
        switch expr {
        case .number(let v, _): return .number(v)
        case .string(let s, _): return .string(s)
        case .variable(let name, let column):
            guard let value = variables[name] else {
                let hint = builtins[name] != nil ? " (it is a function: call it as \(name)(...))" : ""
                throw ReplError(message: "unknown variable '\(name)'\(hint); type 'help' for the list of commands", column: column)
            }
            return value
        case .tuple(let items, let column):
            var numbers = [Double]()
            for item in items {
                guard case .number(let v) = try evaluate(item) else {
                    throw ReplError(message: "a vector holds numbers only", column: item.column)
                }
                numbers.append(v)
            }
            guard numbers.count >= 1 else { throw ReplError(message: "empty vector", column: column) }
            return .vector(numbers)
        case .call(let name, let args, let column):
            guard let builtin = builtins[name] else {
                throw ReplError(message: "unknown function '\(name)'; type 'help' for the list", column: column)
            }
            var values = [Value]()
            for arg in args { values.append(try evaluate(arg)) }
            return try rethrow(at: column) { try builtin.run(Arguments(values: values, usage: builtin.usage)) }
        case .method(let receiver, let name, let args, let column):
            var values = [Value]()
            for arg in args { values.append(try evaluate(arg)) }
            return try callMethod(on: receiver, name, values, column: column)
        case .negate(let inner, let column):
            switch try evaluate(inner) {
            case .number(let v): return .number(-v)
            case .vector(let v): return .vector(v.map { -$0 })
            case let other: throw ReplError(message: "cannot negate \(other.typeName)", column: column)
            }
        case .binary(let op, let lhs, let rhs, let column):
            return try arithmetic(op, try evaluate(lhs), try evaluate(rhs), column: column)
        }
    }

    private func callMethod(on receiver: Expr, _ name: String, _ values: [Value], column: Int) throws(ReplError) -> Value {
        let target = try evaluate(receiver)
        switch target {
        case .box(var box):
            guard let method = boxMethods[name] else {
                throw ReplError(message: "a box has no method '\(name)'; type 'help box' for its methods", column: column)
            }
            let result = try rethrow(at: column) { try method.run(&box, Arguments(values: values, usage: method.usage)) }
            if case .variable(let variable, _) = receiver { variables[variable] = .box(box) }
            return result
        case .obb(let obb):
            let arguments = Arguments(values: values, usage: "o.\(name)()")
            return try rethrow(at: column) {
                try arguments.expect(0...0)
                switch name {
                case "corners": return .list(zip(Box.cornerNames, obb.corners).map { .string("\($0) \(format($1))") })
                case "volume": return .number(Double(obb.volume))
                default: throw FathomError(.outOfRange, "an oriented box has methods corners() and volume(), not '\(name)'")
                }
            }
        case .mesh(let mesh):
            let arguments = Arguments(values: values, usage: "m.save(\"mesh.ply\" | \"mesh.obj\")")
            return try rethrow(at: column) {
                guard name == "save" else { throw FathomError(.outOfRange, "a mesh has the method save(\"path\"), not '\(name)'") }
                try arguments.expect(1...1)
                let path = try arguments.string(0, "path")
                try mesh.data.save(path: path)
                return .string("wrote \(mesh.triangleCount) triangles, \(mesh.vertexCount) vertices to \(path)")
            }
        default:
            throw ReplError(message: "\(target.typeName) has no method '\(name)'", column: column)
        }
    }

    private func arithmetic(_ op: Character, _ a: Value, _ b: Value, column: Int) throws(ReplError) -> Value {
        switch (op, a, b) {
        case ("+", .number(let x), .number(let y)): return .number(x + y)
        case ("-", .number(let x), .number(let y)): return .number(x - y)
        case ("*", .number(let x), .number(let y)): return .number(x * y)
        case ("/", .number(let x), .number(let y)):
            guard y != 0 else { throw ReplError(message: "division by zero", column: column) }
            return .number(x / y)
        case ("+", .vector(let x), .vector(let y)) where x.count == y.count: return .vector(zip(x, y).map(+))
        case ("-", .vector(let x), .vector(let y)) where x.count == y.count: return .vector(zip(x, y).map(-))
        case ("*", .number(let s), .vector(let v)), ("*", .vector(let v), .number(let s)): return .vector(v.map { $0 * s })
        case ("/", .vector(let v), .number(let s)):
            guard s != 0 else { throw ReplError(message: "division by zero", column: column) }
            return .vector(v.map { $0 / s })
        case ("*", .pose(let p), .pose(let q)): return .pose(p * q)
        case ("*", .pose(let p), .vector(let v)) where v.count == 3:
            return vector(p.apply(point: SIMD3(Float(v[0]), Float(v[1]), Float(v[2]))))
        default:
            throw ReplError(message: "cannot apply '\(op)' to \(a.typeName) and \(b.typeName)", column: column)
        }
    }

    /// Runs engine code, turning its errors into errors at `column`.
    private func rethrow(at column: Int, _ body: () throws -> Value) throws(ReplError) -> Value {
        do { return try body() } catch let error as FathomError {
            throw ReplError(message: error.message, column: column)
        } catch let error as ReplError {
            throw error
        } catch {
            throw ReplError(message: "\(error)", column: column)
        }
    }
}
