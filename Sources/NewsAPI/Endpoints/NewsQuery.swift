/// Reads a search query as NewsAPI does (words, "exact phrases", `+must` and `-mustNot`,
/// `AND`, `OR`, `NOT` and parentheses) to tell a finished query from one still being typed
/// and from one that no more typing at its end can mend.
///
/// ```swift
/// NewsQuery.issue(in: "swift OR")      // .unfinished("Finish the query after OR.")
/// NewsQuery.issue(in: "swift OR rust") // nil
/// NewsQuery.issue(in: "swift)")        // .invalid("the “)” closes no parenthesis")
/// ```
public enum NewsQuery {
    /// What stands between a query and a search.
    public enum Issue: Hashable, Sendable, CustomStringConvertible {
        /// The query stops where more has to come: the text says, in plain words, what.
        case unfinished(String)
        /// The query is wrong before its end: the text says where, in plain words.
        case invalid(String)

        /// Whether more typing at the end could finish the query.
        public var isUnfinished: Bool {
            guard case .unfinished = self else { return false }
            return true
        }

        /// The words as the end of a sentence that says why the search cannot be made.
        var reason: String {
            switch self {
            case .invalid(let words): words
            case .unfinished(let words): words.prefix(1).lowercased() + words.dropFirst().dropLast()
            }
        }

        public var description: String {
            switch self {
            case .unfinished(let words), .invalid(let words): words
            }
        }
    }

    /// What keeps `text` from being searched, or nil when it can be searched (or is blank).
    public static func issue(in text: String) -> Issue? {
        do throws(Stop) {
            let tokens = try tokenize(text)
            guard !tokens.isEmpty else { return nil }
            var parser = Parser(tokens: tokens)
            try parser.disjunction()
            if let extra = parser.peek {
                return .invalid(
                    extra == .close ? "the “)” closes no parenthesis" : "the query has a stray \(extra)"
                )
            }
            return nil
        } catch {
            return error.issue
        }
    }

    enum Token: Equatable, CustomStringConvertible {
        case word, and, or, not, must, mustNot, open, close

        var description: String {
            switch self {
            case .word: "word"
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

    private static func tokenize(_ text: String) throws(Stop) -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(text)
        while let character = rest.first {
            if character.isWhitespace {
                rest = rest.dropFirst()
            } else if let token = ["(": Token.open, ")": .close, "+": .must, "-": .mustNot][character] {
                tokens.append(token)
                rest = rest.dropFirst()
            } else if character == "\"" {
                let inside = rest.dropFirst()
                guard let end = inside.firstIndex(of: "\"") else {
                    throw Stop(issue: .unfinished("Close the quotation mark."))
                }
                guard inside[..<end].contains(where: { $0.isLetter || $0.isNumber }) else {
                    throw Stop(issue: .invalid("the quotation marks hold no words"))
                }
                tokens.append(.word)
                rest = inside[inside.index(after: end)...]
            } else {
                let end = rest.firstIndex { $0.isWhitespace || "()\"".contains($0) } ?? rest.endIndex
                switch rest[..<end] {
                case "AND": tokens.append(.and)
                case "OR": tokens.append(.or)
                case "NOT": tokens.append(.not)
                case let word where word.contains(where: { $0.isLetter || $0.isNumber }): tokens.append(.word)
                default: break
                }
                rest = rest[end...]
            }
        }
        return tokens
    }

    private struct Stop: Error {
        var issue: Issue
    }

    /// The grammar of NewsAPI's queries, following only whether a query is well formed.
    private struct Parser {
        var tokens: [Token]
        var position = 0
        var depth = 0

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        mutating func disjunction() throws(Stop) {
            try conjunction()
            while peek == .or {
                position += 1
                try conjunction()
            }
        }

        mutating func conjunction() throws(Stop) {
            try unary()
            while let token = peek, token != .or, token != .close {
                if token == .and { position += 1 }
                try unary()
            }
        }

        mutating func unary() throws(Stop) {
            let before = position > 0 ? tokens[position - 1] : nil
            guard let token = peek else {
                let words = before.map { "Finish the query after \($0)." } ?? "Type a word."
                throw Stop(issue: .unfinished(words))
            }
            position += 1
            switch token {
            case .word: return
            case .not, .must, .mustNot: try unary()
            case .open:
                depth += 1
                guard depth <= 32 else { throw Stop(issue: .invalid("the parentheses nest too deeply")) }
                try disjunction()
                guard let next = peek else { throw Stop(issue: .unfinished("Close the parenthesis.")) }
                guard next == .close else { throw Stop(issue: .invalid("the query has a stray \(next)")) }
                position += 1
                depth -= 1
            case .and, .or, .close:
                if token == .close, before == .open {
                    throw Stop(issue: .invalid("the parentheses hold no words"))
                }
                if token == .close, depth == 0 {
                    throw Stop(issue: .invalid("the “)” closes no parenthesis"))
                }
                switch before {
                case nil: throw Stop(issue: .invalid("the query cannot start with \(token)"))
                case .open?: throw Stop(issue: .invalid("a parenthesis cannot start with \(token)"))
                case let before?:
                    throw Stop(issue: .invalid("\(before) is followed by \(token) where a word should be"))
                }
            }
        }
    }
}
