import Foundation

/// What each operator and function does to values: integer arithmetic is checked, numbers of
/// mixed kinds meet as decimals, and anything else is a typed error.
enum Operations {
    typealias Op = ExpressionNode.BinaryOperator

    static func unary(
        _ op: ExpressionNode.UnaryOperator,
        _ operand: StreamValue,
        at position: SourcePosition
    ) throws(ExpressionError) -> StreamValue {
        switch (op, operand) {
        case (.not, .boolean(let value)):
            return .boolean(!value)
        case (.negate, .integer(let value)):
            let (result, overflow) = (0).subtractingReportingOverflow(value)
            guard !overflow else { throw position.error(.overflow) }
            return .integer(result)
        case (.negate, .decimal(let value)):
            return .decimal(-value)
        case (.not, _):
            throw position.error(.typeMismatch("! needs a boolean, not \(operand.typeNameWithArticle)"))
        case (.negate, _):
            throw position.error(.typeMismatch("- needs a number, not \(operand.typeNameWithArticle)"))
        }
    }

    static func boolean(
        _ value: StreamValue,
        for op: String,
        at position: SourcePosition
    ) throws(ExpressionError) -> Bool {
        guard case .boolean(let boolean) = value else {
            throw position.error(.typeMismatch("\(op) needs booleans, not \(value.typeNameWithArticle)"))
        }
        return boolean
    }

    static func binary(
        _ op: Op,
        _ left: StreamValue,
        _ right: StreamValue,
        at position: SourcePosition
    ) throws(ExpressionError) -> StreamValue {
        if case .integer(let a) = left, case .integer(let b) = right {
            // Integers are the common case: decided here without the general paths.
            switch op {
            case .equal: return .boolean(a == b)
            case .notEqual: return .boolean(a != b)
            case .less: return .boolean(a < b)
            case .lessOrEqual: return .boolean(a <= b)
            case .greater: return .boolean(a > b)
            case .greaterOrEqual: return .boolean(a >= b)
            case .add, .subtract, .multiply, .divide, .remainder:
                return try arithmetic(op, left, right, at: position)
            case .and, .or: break
            }
        }
        switch op {
        case .equal: return .boolean(equal(left, right))
        case .notEqual: return .boolean(!equal(left, right))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return .boolean(try compare(op, left, right, at: position))
        case .add:
            switch (left, right) {
            case (.string, _), (_, .string):
                guard left.byteCount + right.byteCount <= StreamExpression.maximumStringLength else {
                    throw position.error(.stringTooLong(limit: StreamExpression.maximumStringLength))
                }
                return .string(left.description + right.description)
            default:
                return try arithmetic(op, left, right, at: position)
            }
        case .subtract, .multiply, .divide, .remainder:
            return try arithmetic(op, left, right, at: position)
        case .and, .or:
            let a = try boolean(left, for: op.rawValue, at: position)
            let b = try boolean(right, for: op.rawValue, at: position)
            return .boolean(op == .and ? a && b : a || b)
        }
    }

    private static func arithmetic(
        _ op: Op,
        _ left: StreamValue,
        _ right: StreamValue,
        at position: SourcePosition
    ) throws(ExpressionError) -> StreamValue {
        if case .integer(let a) = left, case .integer(let b) = right {
            let result: (partialValue: Int, overflow: Bool)
            switch op {
            case .add: result = a.addingReportingOverflow(b)
            case .subtract: result = a.subtractingReportingOverflow(b)
            case .multiply: result = a.multipliedReportingOverflow(by: b)
            case .divide, .remainder:
                guard b != 0 else { throw position.error(.divisionByZero) }
                result =
                    op == .divide
                    ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
            default: preconditionFailure("\(op) is not arithmetic")
            }
            guard !result.overflow else { throw position.error(.overflow) }
            return .integer(result.partialValue)
        }
        guard let a = number(left), let b = number(right) else {
            throw position.error(
                .typeMismatch(
                    "\(op.rawValue) needs numbers, not \(left.typeNameWithArticle) and \(right.typeNameWithArticle)"
                )
            )
        }
        let result: Double
        switch op {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide:
            guard b != 0 else { throw position.error(.divisionByZero) }
            result = a / b
        case .remainder:
            guard b != 0 else { throw position.error(.divisionByZero) }
            result = a.truncatingRemainder(dividingBy: b)
        default: preconditionFailure("\(op) is not arithmetic")
        }
        // Values are numbers JSON can write: a result past a Double's range is an overflow, as
        // an integer's is, never an infinity or not a number.
        guard result.isFinite else { throw position.error(.overflow) }
        return .decimal(result)
    }

    private static func number(_ value: StreamValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .decimal(let decimal): decimal
        case .string, .boolean, .list: nil
        }
    }

    private static func equal(_ left: StreamValue, _ right: StreamValue) -> Bool {
        if let a = number(left), let b = number(right) {
            if case .integer(let x) = left, case .integer(let y) = right { return x == y }
            return a == b
        }
        return left == right
    }

    private static func compare(
        _ op: Op,
        _ left: StreamValue,
        _ right: StreamValue,
        at position: SourcePosition
    ) throws(ExpressionError) -> Bool {
        let order: Int
        if case .integer(let a) = left, case .integer(let b) = right {
            order = a < b ? -1 : (a == b ? 0 : 1)
        } else if let a = number(left), let b = number(right) {
            order = a < b ? -1 : (a == b ? 0 : 1)
        } else if case .string(let a) = left, case .string(let b) = right {
            order = a < b ? -1 : (a == b ? 0 : 1)
        } else {
            throw position.error(
                .typeMismatch(
                    "\(op.rawValue) compares two numbers or two strings, not \(left.typeNameWithArticle) and \(right.typeNameWithArticle)"
                )
            )
        }
        switch op {
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        default: return order >= 0
        }
    }

    static func call(
        _ function: ExpressionNode.Function,
        _ arguments: [StreamValue],
        at position: SourcePosition
    ) throws(ExpressionError) -> StreamValue {
        func mismatch(_ needs: String, _ value: StreamValue) -> ExpressionError {
            position.error(
                .typeMismatch("\(function.rawValue) needs \(needs), not \(value.typeNameWithArticle)")
            )
        }
        switch function {
        case .abs:
            switch arguments[0] {
            case .integer(let value):
                guard value != .min else { throw position.error(.overflow) }
                return .integer(Swift.abs(value))
            case .decimal(let value): return .decimal(Swift.abs(value))
            default: throw mismatch("a number", arguments[0])
            }
        case .min, .max:
            var best = arguments[0]
            for candidate in arguments.dropFirst() {
                let isLess = try compare(.less, candidate, best, at: position)
                if function == .min ? isLess : try compare(.greater, candidate, best, at: position) {
                    best = candidate
                }
            }
            return best
        case .round:
            switch arguments[0] {
            case .integer: return arguments[0]
            case .decimal(let value):
                let rounded = value.rounded(.toNearestOrAwayFromZero)
                guard rounded >= -9.223_372_036_854_775e18, rounded < 9.223_372_036_854_775e18 else {
                    throw position.error(.overflow)
                }
                return .integer(Int(rounded))
            default: throw mismatch("a number", arguments[0])
            }
        case .len:
            switch arguments[0] {
            case .string(let text): return .integer(text.count)
            case .list(let values): return .integer(values.count)
            default: throw mismatch("a string or a list", arguments[0])
            }
        case .upper, .lower:
            guard case .string(let text) = arguments[0] else { throw mismatch("a string", arguments[0]) }
            // Case mapping can lengthen a string: "ß" becomes "SS".
            let mapped = function == .upper ? text.uppercased() : text.lowercased()
            guard mapped.utf8.count <= StreamExpression.maximumStringLength else {
                throw position.error(.stringTooLong(limit: StreamExpression.maximumStringLength))
            }
            return .string(mapped)
        }
    }
}
