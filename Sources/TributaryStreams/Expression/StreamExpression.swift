/// A small, total expression over a stream's values: what `map`, `filter` and `scan` carry in
/// a stream document in place of a closure.
///
/// ```swift
/// let isLargeOdd = try StreamExpression("$0 * 2 + 1 > 10 && $0 % 3 != 0")
/// try isLargeOdd.evaluate(7)                 // true
/// try StreamExpression("acc + $0").evaluate(3, accumulator: 4)  // 7
/// ```
///
/// The language has integer, decimal, string and boolean literals; `$0` (the value) and `acc`
/// (the accumulator of `scan`); `+ - * / %`; `== != < <= > >=`; `&& || !`; `?:`; parentheses;
/// and the functions `abs`, `min`, `max`, `round`, `len`, `upper` and `lower`. It has no loops
/// and no names of its own, so every evaluation ends. Text is limited to 4 KB and nesting to
/// 64 levels, and a string it makes to ``maximumStringLength`` bytes, so that a `scan` of
/// `acc + acc` cannot double a string without end. Parsing happens once, in ``init(_:)``, which compiles the expression into nested
/// closures; errors carry the line and column of their cause.
public struct StreamExpression: Sendable {
    /// The longest string an expression may make, in UTF-8 bytes: 64 KB.
    public static let maximumStringLength = 65_536

    /// The text of the expression.
    public let source: String
    private let evaluator: Evaluator

    typealias Evaluator = @Sendable (StreamValue, StreamValue?) throws(ExpressionError) -> StreamValue

    /// Parses and compiles `source`.
    ///
    /// - Throws: ``ExpressionError`` with the line and column of a syntax error, an unknown
    ///   function, a wrong number of arguments, or a text over the limits.
    public init(_ source: String) throws(ExpressionError) {
        self.source = source
        evaluator = Self.compile(try ExpressionParser.parse(source))
    }

    /// Evaluates the expression for `value`.
    ///
    /// - Parameters:
    ///   - value: What `$0` stands for.
    ///   - accumulator: What `acc` stands for; nil outside `scan`.
    /// - Throws: ``ExpressionError`` for a type mismatch, a division by zero, an integer
    ///   overflow, or `acc` without an accumulator.
    public func evaluate(
        _ value: StreamValue,
        accumulator: StreamValue? = nil
    ) throws(ExpressionError) -> StreamValue {
        try evaluator(value, accumulator)
    }
}

extension StreamExpression: Hashable {
    public static func == (lhs: StreamExpression, rhs: StreamExpression) -> Bool {
        lhs.source == rhs.source
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }
}

extension StreamExpression: CustomStringConvertible {
    public var description: String { source }
}

extension StreamExpression: Codable {
    /// Decodes an expression from its text, reporting a bad one as a decoding error at its path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(source)
    }
}

// MARK: - Compiling

extension StreamExpression {
    private static func compile(_ node: ExpressionNode) -> Evaluator {
        switch node {
        case .literal(let value):
            return { _, _ in value }
        case .input:
            return { value, _ in value }
        case .accumulator(let position):
            return { (_, accumulator) throws(ExpressionError) in
                guard let accumulator else { throw position.error(.noAccumulator) }
                return accumulator
            }
        case .unary(let op, let operand, let position):
            let operand = compile(operand)
            return { (value, accumulator) throws(ExpressionError) in
                try Operations.unary(op, try operand(value, accumulator), at: position)
            }
        case .binary(.and, let left, let right, let position):
            let (left, right) = (compile(left), compile(right))
            return { (value, accumulator) throws(ExpressionError) in
                guard try Operations.boolean(try left(value, accumulator), for: "&&", at: position) else {
                    return .boolean(false)
                }
                return .boolean(
                    try Operations.boolean(try right(value, accumulator), for: "&&", at: position)
                )
            }
        case .binary(.or, let left, let right, let position):
            let (left, right) = (compile(left), compile(right))
            return { (value, accumulator) throws(ExpressionError) in
                if try Operations.boolean(try left(value, accumulator), for: "||", at: position) {
                    return .boolean(true)
                }
                return .boolean(
                    try Operations.boolean(try right(value, accumulator), for: "||", at: position)
                )
            }
        case .binary(let op, let left, let right, let position):
            let (left, right) = (compile(left), compile(right))
            return { (value, accumulator) throws(ExpressionError) in
                try Operations.binary(
                    op,
                    try left(value, accumulator),
                    try right(value, accumulator),
                    at: position
                )
            }
        case .conditional(let condition, let whenTrue, let whenFalse, let position):
            let (condition, whenTrue, whenFalse) = (compile(condition), compile(whenTrue), compile(whenFalse))
            return { (value, accumulator) throws(ExpressionError) in
                try Operations.boolean(try condition(value, accumulator), for: "?:", at: position)
                    ? try whenTrue(value, accumulator) : try whenFalse(value, accumulator)
            }
        case .call(let function, let arguments, let position):
            let arguments = arguments.map(compile)
            return { (value, accumulator) throws(ExpressionError) in
                var values: [StreamValue] = []
                values.reserveCapacity(arguments.count)
                for argument in arguments {
                    values.append(try argument(value, accumulator))
                }
                return try Operations.call(function, values, at: position)
            }
        }
    }
}

extension SourcePosition {
    func error(_ kind: ExpressionError.Kind) -> ExpressionError {
        ExpressionError(kind, line: line, column: column)
    }
}
