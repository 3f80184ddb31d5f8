/// A parsed NewsAPI search: words and "exact phrases" joined by AND, OR and NOT, with `+` for
/// words that must appear, `-` for words that must not, and parentheses.
///
/// Words next to each other without an operator must all appear, as with AND. Matching ignores
/// case and punctuation; a phrase matches its words in order, next to each other.
indirect enum SearchQuery: Sendable, Equatable {
    /// Words in order, one word for a plain term.
    case phrase([Substring])
    case and(SearchQuery, SearchQuery)
    case or(SearchQuery, SearchQuery)
    case not(SearchQuery)

    /// Why a query could not be read.
    struct SyntaxError: Error, Equatable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Parses `text`.
    init(_ text: String) throws(SyntaxError) {
        var parser = Parser(tokens: try Self.tokens(text))
        guard !parser.tokens.isEmpty else { throw SyntaxError(message: "The query is empty.") }
        self = try parser.parseOr()
        if let token = parser.peek {
            throw SyntaxError(message: "The query has an unexpected \(token) where it should end.")
        }
    }

    /// Whether a document with these fields matches.
    func matches(_ fields: [[Substring]]) -> Bool {
        switch self {
        case .phrase(let words): fields.contains { Self.occurrences(of: words, in: $0) > 0 }
        case .and(let left, let right): left.matches(fields) && right.matches(fields)
        case .or(let left, let right): left.matches(fields) || right.matches(fields)
        case .not(let query): !query.matches(fields)
        }
    }

    /// How well a matching document fits: occurrences of the wanted words and phrases, each
    /// field weighted.
    func score(_ fields: [(words: [Substring], weight: Int)]) -> Int {
        switch self {
        case .phrase(let words):
            fields.reduce(0) { $0 + Self.occurrences(of: words, in: $1.words) * $1.weight }
        case .and(let left, let right), .or(let left, let right): left.score(fields) + right.score(fields)
        case .not: 0
        }
    }

    private static func occurrences(of phrase: [Substring], in words: [Substring]) -> Int {
        guard !phrase.isEmpty, words.count >= phrase.count else { return 0 }
        var count = 0
        for start in 0...(words.count - phrase.count) where words[start] == phrase[0] {
            if phrase.indices.dropFirst().allSatisfy({ words[start + $0] == phrase[$0] }) {
                count += 1
            }
        }
        return count
    }

    // MARK: Reading

    enum Token: Equatable, CustomStringConvertible {
        case words([Substring])
        case and, or, not, must, mustNot, open, close

        var description: String {
            switch self {
            case .words(let words): "\"\(words.joined(separator: " "))\""
            case .and: "AND"
            case .or: "OR"
            case .not: "NOT"
            case .must: "+"
            case .mustNot: "-"
            case .open: "("
            case .close: ")"
            }
        }
    }

    static func tokens(_ text: String) throws(SyntaxError) -> [Token] {
        var tokens: [Token] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
            } else if character == "(" || character == ")" {
                tokens.append(character == "(" ? .open : .close)
                index = text.index(after: index)
            } else if character == "+" || character == "-" {
                tokens.append(character == "+" ? .must : .mustNot)
                index = text.index(after: index)
            } else if character == "\"" {
                let start = text.index(after: index)
                guard let end = text[start...].firstIndex(of: "\"") else {
                    throw SyntaxError(message: "The query has a quotation mark that is not closed.")
                }
                let words = Dataset.words(String(text[start..<end]))
                guard !words.isEmpty else { throw SyntaxError(message: "The query has an empty phrase.") }
                tokens.append(.words(words))
                index = text.index(after: end)
            } else {
                let end =
                    text[index...].firstIndex { $0.isWhitespace || "()\"".contains($0) } ?? text.endIndex
                let word = text[index..<end]
                switch word {
                case "AND": tokens.append(.and)
                case "OR": tokens.append(.or)
                case "NOT": tokens.append(.not)
                default:
                    let words = Dataset.words(String(word))
                    if !words.isEmpty { tokens.append(.words(words)) }
                }
                index = end
            }
        }
        return tokens
    }

    private struct Parser {
        var tokens: [Token]
        var position = 0
        var depth = 0

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        mutating func take() -> Token? {
            defer { position += 1 }
            return peek
        }

        mutating func parseOr() throws(SyntaxError) -> SearchQuery {
            var query = try parseAnd()
            while peek == .or {
                position += 1
                query = .or(query, try parseAnd())
            }
            return query
        }

        mutating func parseAnd() throws(SyntaxError) -> SearchQuery {
            var query = try parseUnary()
            while let token = peek, token != .or, token != .close {
                if token == .and { position += 1 }
                query = .and(query, try parseUnary())
            }
            return query
        }

        mutating func parseUnary() throws(SyntaxError) -> SearchQuery {
            switch take() {
            case .not, .mustNot: return .not(try parseUnary())
            case .must: return try parseUnary()
            case .words(let words): return .phrase(words)
            case .open:
                depth += 1
                guard depth <= 32 else { throw SyntaxError(message: "The query nests too deeply.") }
                let inner = try parseOr()
                guard take() == .close else {
                    throw SyntaxError(message: "The query has a parenthesis that is not closed.")
                }
                depth -= 1
                return inner
            case let token?:
                throw SyntaxError(message: "The query has \(token) where a word or phrase should be.")
            case nil:
                throw SyntaxError(message: "The query ends where a word or phrase should be.")
            }
        }
    }
}
