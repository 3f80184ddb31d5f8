public import Foundation
import HTTPTypes
public import TributaryFeeds
public import TributaryHTTP

/// Why a NewsAPI request failed, in terms a reader of the news can be told.
///
/// ```swift
/// do {
///     let page = try await news.articles(.topHeadlines(country: "us"))
/// } catch {
///     alert(error.alertMessage)  // "Your API key is invalid."
/// }
/// ```
public struct NewsError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The request breaks one of NewsAPI's rules and was not sent.
        case invalidRequest(reason: String)
        /// NewsAPI answered with one of its error codes and a message.
        case server(Code, message: String)
        /// The exchange failed before NewsAPI could explain: no connection, a timeout, a body
        /// that is not NewsAPI's.
        case http(APIError)
        /// An RSS or Atom feed could not be read.
        case feed(FeedError)
    }

    /// NewsAPI's error codes.
    public enum Code: Sendable, Hashable, CustomStringConvertible {
        /// The request carried no API key.
        case apiKeyMissing
        /// The API key is not one NewsAPI knows.
        case apiKeyInvalid
        /// The API key has been disabled.
        case apiKeyDisabled
        /// The API key has no requests left.
        case apiKeyExhausted
        /// Too many requests were sent; the client should wait before trying again.
        case rateLimited
        /// A parameter the request needs is missing.
        case parametersMissing
        /// A parameter is not supported or has a value NewsAPI does not accept.
        case parameterInvalid
        /// Two parameters were given that cannot go together.
        case parametersIncompatible
        /// The request names more sources than NewsAPI allows.
        case sourcesTooMany
        /// The request names a source that does not exist.
        case sourceDoesNotExist
        /// The request asks for results past the most the plan allows.
        case maximumResultsReached
        /// The plan does not allow requests from a browser.
        case corsNotAllowed
        /// NewsAPI failed on its side.
        case unexpectedError
        /// A code this client does not know.
        case unknown(String)

        static let known: [Code] = [
            .apiKeyMissing, .apiKeyInvalid, .apiKeyDisabled, .apiKeyExhausted, .rateLimited,
            .parametersMissing, .parameterInvalid, .parametersIncompatible, .sourcesTooMany,
            .sourceDoesNotExist, .maximumResultsReached, .corsNotAllowed, .unexpectedError,
        ]

        /// The code NewsAPI sends as `code`.
        public init(rawValue: String) {
            self = Self.known.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
        }

        /// The code as NewsAPI writes it.
        public var rawValue: String { description }

        public var description: String {
            switch self {
            case .apiKeyMissing: "apiKeyMissing"
            case .apiKeyInvalid: "apiKeyInvalid"
            case .apiKeyDisabled: "apiKeyDisabled"
            case .apiKeyExhausted: "apiKeyExhausted"
            case .rateLimited: "rateLimited"
            case .parametersMissing: "parametersMissing"
            case .parameterInvalid: "parameterInvalid"
            case .parametersIncompatible: "parametersIncompatible"
            case .sourcesTooMany: "sourcesTooMany"
            case .sourceDoesNotExist: "sourceDoesNotExist"
            case .maximumResultsReached: "maximumResultsReached"
            case .corsNotAllowed: "corsNotAllowed"
            case .unexpectedError: "unexpectedError"
            case .unknown(let code): code
            }
        }
    }

    /// What went wrong.
    public var kind: Kind
    /// How long the server asked the client to wait before trying again.
    public var retryAfter: Duration?
    /// The feed being fetched, when the failure came from a feed's server rather than the news
    /// service.
    public var feedURL: URL?

    /// Creates an error.
    public init(_ kind: Kind, retryAfter: Duration? = nil) {
        self.kind = kind
        self.retryAfter = retryAfter
    }

    /// Reads NewsAPI's code and message out of a failed exchange.
    public init(_ error: APIError, now: Date = Date()) {
        if let serverError = error.serverError, let code = serverError.code {
            self.init(.server(Code(rawValue: code), message: serverError.message))
        } else if case .invalidRequest(let reason) = error.kind {
            self.init(.invalidRequest(reason: reason))
        } else {
            self.init(.http(error))
        }
        retryAfter = error.retryAfter(now: now)
    }

    /// NewsAPI's code, when the server sent one.
    public var code: Code? {
        guard case .server(let code, _) = kind else { return nil }
        return code
    }

    /// Whether the request was cancelled, which a screen shows nothing for.
    public var isCancellation: Bool {
        guard case .http(let error) = kind, case .cancelled = error.kind else { return false }
        return true
    }

    /// One sentence for an alert, in the reader's terms.
    public var alertMessage: String {
        switch kind {
        case .invalidRequest(let reason):
            return "This search cannot be made: \(reason)."
        case .server(let code, let message):
            switch code {
            case .apiKeyMissing: return "No API key was sent. Set NEWSAPI_KEY to your key."
            case .apiKeyInvalid: return "Your API key is invalid."
            case .apiKeyDisabled: return "Your API key has been disabled."
            case .apiKeyExhausted: return "Your API key has no requests left."
            case .rateLimited:
                // NewsAPI sends no Retry-After; its message is what says when requests come back.
                let when = retryAfter.map { "try again in \(Self.describe($0))." } ?? "try again later."
                let words = message.trimmingCharacters(in: .whitespacesAndNewlines)
                return "Rate limited — \(when)" + (words.isEmpty ? "" : " \(words)")
            case .maximumResultsReached:
                return "The developer plan shows only the first 100 results."
            case .unexpectedError: return "The news service had a problem. Try again."
            default: return message
            }
        case .http(let error) where feedURL != nil:
            return Self.feedMessage(error, host: feedURL?.host ?? "")
        case .http(let error):
            switch error.kind {
            case .transport: return "The news service cannot be reached. Check your connection."
            case .timedOut: return "The news service took too long to answer."
            case .cancelled: return "The request was cancelled."
            case .unacceptableStatus(let response, _, _):
                return "The news service answered with an error (HTTP \(response.status.code))."
            case .undecodable, .bodyTooLarge: return "The news service sent something this app cannot read."
            case .invalidRequest(let reason): return "This request cannot be made: \(reason)."
            case .rejected: return "The request was stopped before it was sent."
            case .addressNotAllowed(let host, _):
                return
                    "\(host.isEmpty ? "This address" : host) is not on the public internet, so it is not fetched."
            }
        case .feed(let error):
            return error.alertMessage
        }
    }

    public var description: String {
        switch kind {
        case .invalidRequest(let reason): "Invalid NewsAPI request: \(reason)."
        case .server(let code, let message): "NewsAPI error \(code): \(message)"
        case .http(let error): error.description
        case .feed(let error): error.description
        }
    }

    /// What went wrong fetching a feed from `host`, which is not the news service.
    private static func feedMessage(_ error: APIError, host: String) -> String {
        let server = host.isEmpty ? "The feed's server" : host
        switch error.kind {
        case .transport: return "\(server) cannot be reached. Check the address and your connection."
        case .timedOut: return "\(server) took too long to send the feed."
        case .unacceptableStatus(let response, _, _)
        where response.status.code == 404 || response.status.code == 410:
            return "\(server) has no feed at this address (HTTP \(response.status.code))."
        case .unacceptableStatus(let response, _, _):
            return "\(server) answered with an error (HTTP \(response.status.code))."
        case .undecodable, .bodyTooLarge: return "\(server) sent something that cannot be read as a feed."
        case .addressNotAllowed(_, let reason) where reason.contains("does not resolve"):
            return "\(server) cannot be found: no server has that name. Check the feed's address."
        default: return Self(.http(error)).alertMessage
        }
    }

    /// A wait in the largest unit that keeps it readable: "12 hours", "5 minutes", "30 seconds".
    static func describe(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        func unit(_ count: Int, _ name: String) -> String { "\(count) \(name)\(count == 1 ? "" : "s")" }
        if seconds >= 3_600 { return unit((seconds + 1_800) / 3_600, "hour") }
        if seconds >= 60 { return unit((seconds + 30) / 60, "minute") }
        return unit(max(seconds, 1), "second")
    }
}
