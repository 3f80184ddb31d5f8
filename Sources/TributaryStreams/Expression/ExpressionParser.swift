/// Where a part of an expression starts.
struct SourcePosition: Sendable, Hashable {
    var line: Int
    var column: Int
}

/// An expression's syntax tree.
indirect enum ExpressionNode: Sendable {
    enum UnaryOperator: Sendable { case not, negate }
    enum BinaryOperator: String, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">"
        case greaterOrEqual = ">=", and = "&&", or = "||"
    }
    enum Function: String, Sendable, CaseIterable {
        case abs, min, max, round, len, upper, lower

        /// The argument counts the function takes.
        var arity: ClosedRange<Int> {
            switch self {
            case .min, .max: 2...16
            default: 1...1
            }
        }
    }

    case literal(StreamValue)
    case input
    case accumulator(SourcePosition)
    case unary(UnaryOperator, ExpressionNode, SourcePosition)
    case binary(BinaryOperator, ExpressionNode, ExpressionNode, SourcePosition)
    case conditional(ExpressionNode, ExpressionNode, ExpressionNode, SourcePosition)
    case call(Function, [ExpressionNode], SourcePosition)
}

/// Reads expression text into an ``ExpressionNode`` tree: a recursive-descent parser over
/// UTF-8 that tracks lines and columns and enforces the length and nesting limits.
struct ExpressionParser {
    static let maximumLength = 4_096
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    private var depth = 0

    init(_ source: String) {
        bytes = Array(source.utf8)
    }

    static func parse(_ source: String) throws(ExpressionError) -> ExpressionNode {
        guard source.utf8.count <= maximumLength else {
            throw ExpressionError(.tooLong(limit: maximumLength), line: 1, column: 1)
        }
        var parser = ExpressionParser(source)
        parser.skipSpace()
        let node = try parser.conditional()
        parser.skipSpace()
        guard parser.index == parser.bytes.count else {
            throw parser.syntax("unexpected \(parser.describeNext())")
        }
        return node
    }

    // MARK: Grammar, loosest binding first

    private mutating func conditional() throws(ExpressionError) -> ExpressionNode {
        try enter()
        defer { depth -= 1 }
        let condition = try binary(level: 0)
        let position = self.position
        guard take("?") else { return condition }
        let whenTrue = try conditional()
        guard take(":") else { throw syntax("expected \":\" to complete \"?\", found \(describeNext())") }
        let whenFalse = try conditional()
        return .conditional(condition, whenTrue, whenFalse, position)
    }

    private static let levels: [[ExpressionNode.BinaryOperator]] = [
        [.or], [.and], [.equal, .notEqual], [.lessOrEqual, .greaterOrEqual, .less, .greater],
        [.add, .subtract], [.multiply, .divide, .remainder],
    ]

    private mutating func binary(level: Int) throws(ExpressionError) -> ExpressionNode {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while true {
            let position = self.position
            guard let op = Self.levels[level].first(where: { peek($0.rawValue) }) else { return left }
            _ = take(op.rawValue)
            let right = try binary(level: level + 1)
            left = .binary(op, left, right, position)
        }
    }

    private mutating func unary() throws(ExpressionError) -> ExpressionNode {
        let position = self.position
        if !peek("!="), take("!") {
            try enter()
            defer { depth -= 1 }
            return .unary(.not, try unary(), position)
        }
        if take("-") {
            try enter()
            defer { depth -= 1 }
            return .unary(.negate, try unary(), position)
        }
        return try primary()
    }

    private mutating func primary() throws(ExpressionError) -> ExpressionNode {
        let position = self.position
        guard index < bytes.count else { throw syntax("the expression ends too early") }
        let byte = bytes[index]
        if take("(") {
            let inner = try conditional()
            guard take(")") else { throw syntax("expected \")\", found \(describeNext())") }
            return inner
        }
        if take("$0") {
            return .input
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return .literal(.string(try string()))
        }
        if isDigit(byte)
            || (byte == UInt8(ascii: ".") && index + 1 < bytes.count && isDigit(bytes[index + 1]))
        {
            return .literal(try number())
        }
        guard isIdentifierStart(byte) else { throw syntax("unexpected \(describeNext())") }
        let name = identifier()
        switch name {
        case "true": return .literal(.boolean(true))
        case "false": return .literal(.boolean(false))
        case "acc": return .accumulator(position)
        default: break
        }
        skipSpace()
        guard take("(") else {
            throw syntax("unknown name \"\(name)\"; values are $0 and acc", at: position)
        }
        guard let function = ExpressionNode.Function(rawValue: name) else {
            throw ExpressionError(.unknownFunction(name), line: position.line, column: position.column)
        }
        try enter()
        defer { depth -= 1 }
        var arguments: [ExpressionNode] = []
        if !take(")") {
            repeat {
                arguments.append(try conditional())
            } while take(",")
            guard take(")") else { throw syntax("expected \",\" or \")\", found \(describeNext())") }
        }
        guard function.arity.contains(arguments.count) else {
            let expected =
                function.arity.count == 1
                ? "\(function.arity.lowerBound) argument" + (function.arity.lowerBound == 1 ? "" : "s")
                : "\(function.arity.lowerBound) to \(function.arity.upperBound) arguments"
            throw ExpressionError(
                .wrongArgumentCount(function: function.rawValue, expected: expected, found: arguments.count),
                line: position.line,
                column: position.column
            )
        }
        return .call(function, arguments, position)
    }

    // MARK: Tokens

    private mutating func number() throws(ExpressionError) -> StreamValue {
        let start = index
        let position = self.position
        var isDecimal = false
        while index < bytes.count {
            let byte = bytes[index]
            if isDigit(byte) {
                advance()
            } else if byte == UInt8(ascii: "."), !isDecimal {
                isDecimal = true
                advance()
            } else if (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")), index + 1 < bytes.count {
                isDecimal = true
                advance()
                if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    advance()
                }
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if index < bytes.count, isIdentifierStart(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
            throw syntax(
                "\"\(text)\(Character(Unicode.Scalar(bytes[index])))\" is not a number",
                at: position
            )
        }
        skipSpace()
        if !isDecimal, let integer = Int(text) {
            return .integer(integer)
        }
        guard let decimal = Double(text), decimal.isFinite else {
            throw syntax("\"\(text)\" is not a number that fits", at: position)
        }
        return .decimal(decimal)
    }

    private mutating func string() throws(ExpressionError) -> String {
        let position = self.position
        let quote = bytes[index]
        advance()
        var text: [UInt8] = []
        while index < bytes.count, bytes[index] != quote {
            if bytes[index] == UInt8(ascii: "\\") {
                advance()
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): text.append(bytes[index])
                default: throw syntax("unknown escape \"\\\(Character(Unicode.Scalar(bytes[index])))\"")
                }
                advance()
            } else {
                text.append(bytes[index])
                advance()
            }
        }
        guard index < bytes.count else { throw syntax("the string is never closed", at: position) }
        advance()
        skipSpace()
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func identifier() -> String {
        let start = index
        while index < bytes.count, isIdentifierStart(bytes[index]) || isDigit(bytes[index]) {
            advance()
        }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        skipSpace()
        return name
    }

    // MARK: Reading

    private var position: SourcePosition { SourcePosition(line: line, column: column) }

    private mutating func enter() throws(ExpressionError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw ExpressionError(.tooDeep(limit: Self.maximumDepth), line: line, column: column)
        }
    }

    private func peek(_ token: String) -> Bool {
        let utf8 = token.utf8
        guard index + utf8.count <= bytes.count else { return false }
        return bytes[index..<index + utf8.count].elementsEqual(utf8)
    }

    /// Consumes `token` and the space after it, if it comes next.
    private mutating func take(_ token: String) -> Bool {
        guard peek(token) else { return false }
        // "<" must not take the first half of "<=", nor "!" of "!=", "=" alone is no operator.
        let count = token.utf8.count
        if count == 1, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "="),
            ["<", ">", "!"].contains(token)
        {
            return false
        }
        for _ in 0..<count {
            advance()
        }
        skipSpace()
        return true
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        index += 1
    }

    private mutating func skipSpace() {
        while index < bytes.count, [9, 10, 13, 32].contains(bytes[index]) {
            advance()
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private func isIdentifierStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private func describeNext() -> String {
        guard index < bytes.count else { return "the end of the expression" }
        let end =
            bytes[index...].prefix(8).firstIndex(where: { [9, 10, 13, 32].contains($0) })
            ?? min(index + 8, bytes.count)
        return "\"\(String(decoding: bytes[index..<end], as: UTF8.self))\""
    }

    private func syntax(_ message: String, at position: SourcePosition? = nil) -> ExpressionError {
        let position = position ?? self.position
        return ExpressionError(.syntax(message), line: position.line, column: position.column)
    }
}
