/// Why an expression could not be parsed or evaluated, and where.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The text is not a valid expression.
        case syntax(String)
        /// The text is longer than the limit, in UTF-8 bytes.
        case tooLong(limit: Int)
        /// Parentheses, operators or calls nest deeper than the limit.
        case tooDeep(limit: Int)
        /// A function that does not exist.
        case unknownFunction(String)
        /// A function called with the wrong number of arguments.
        case wrongArgumentCount(function: String, expected: String, found: Int)
        /// An operator or function applied to values of the wrong type.
        case typeMismatch(String)
        /// A division or remainder by zero.
        case divisionByZero
        /// A result outside the range of numbers: an integer past 64 bits, a decimal past a
        /// `Double`.
        case overflow
        /// A string result longer than the limit, in UTF-8 bytes.
        case stringTooLong(limit: Int)
        /// `acc` used where there is no accumulator (anywhere but `scan`).
        case noAccumulator
    }

    /// What went wrong.
    public let kind: Kind
    /// The line, from 1, of the offending part of the expression.
    public let line: Int
    /// The column, from 1, of the offending part of the expression.
    public let column: Int

    /// Creates an error at a position.
    public init(_ kind: Kind, line: Int, column: Int) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    public var description: String {
        let place = "line \(line), column \(column)"
        switch kind {
        case .syntax(let message):
            return "Syntax error at \(place): \(message)."
        case .tooLong(let limit):
            return "The expression is longer than \(limit) bytes."
        case .tooDeep(let limit):
            return "The expression nests deeper than \(limit) levels at \(place)."
        case .unknownFunction(let name):
            return
                "There is no function \"\(name)\" (at \(place)); the functions are abs, min, max, round, len, upper and lower."
        case .wrongArgumentCount(let function, let expected, let found):
            return "\(function) takes \(expected) but was given \(found) (at \(place))."
        case .typeMismatch(let message):
            return "Type mismatch at \(place): \(message)."
        case .divisionByZero:
            return "Division by zero at \(place)."
        case .overflow:
            return "Overflow at \(place): the result is outside the range of numbers."
        case .stringTooLong(let limit):
            return "The string made at \(place) would be longer than \(limit) bytes."
        case .noAccumulator:
            return "acc is only available in scan (at \(place))."
        }
    }
}
