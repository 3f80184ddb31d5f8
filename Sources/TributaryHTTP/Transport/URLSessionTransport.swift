import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Carries exchanges over Foundation's `URLSession`, on Apple platforms and on Linux.
///
/// Redirects are followed by the transport rather than by the session, as
/// `TransportRequest.followingRedirects(_:)` describes: credentials do not follow a redirect to
/// another origin, and each hop's address is checked against the request's ``AddressPolicy``.
/// The response body is collected as it arrives and the task is
/// cancelled as soon as it passes the size limit (or its `Content-Length` announces that it
/// will, checked when the first bytes arrive); cancelling the calling task cancels the data
/// task.
public final class URLSessionTransport: HTTPTransporting {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a transport with a session of its own.
    ///
    /// - Parameter configuration: The session's configuration; caching is off by default so
    ///   every exchange reaches the server.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration) {
        delegate = SessionDelegate()
        // Callbacks run one at a time, in order, on a dispatch queue of the delegate's: an
        // operation queue without one costs far more per callback on Linux, and a transfer
        // calls back for every chunk it receives.
        let callbacks = OperationQueue()
        callbacks.maxConcurrentOperationCount = 1
        callbacks.underlyingQueue = delegate.queue
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: callbacks)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// An ephemeral configuration without a URL cache.
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    public func send(_ request: TransportRequest) async throws(TransportFailure) -> TransportResponse {
        try await request.followingRedirects { hop, _, deadline throws(TransportFailure) in
            try await send(hop, deadline: deadline)
        }
    }

    private func send(
        _ request: TransportRequest,
        deadline: ContinuousClock.Instant
    ) async throws(TransportFailure) -> TransportResponse {
        guard var urlRequest = URLRequest(httpRequest: request.head) else {
            throw .unsupportedRequest(
                "URLSession cannot express \(request.head.method) \(request.head.path ?? "")"
            )
        }
        urlRequest.httpBody = request.body
        // URLSession's own timeout fires when nothing arrives for that long; the delegate
        // enforces the deadline of the whole exchange as data arrives.
        let remaining = deadline - .now
        guard remaining > .zero else { throw .timedOut }
        urlRequest.timeoutInterval = max(0.001, remaining / .seconds(1))
        let task = session.dataTask(with: urlRequest)
        let delegate = delegate
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.track(
                        task,
                        limit: request.maximumResponseBodySize,
                        deadline: deadline,
                        progress: request.progress,
                        continuation: continuation
                    )
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch let failure as TransportFailure {
            throw failure
        } catch {
            throw SessionDelegate.failure(for: error)
        }
    }
}

/// Collects each task's response and ends its continuation.
///
/// @unchecked Sendable: `exchanges` is only touched under `lock`; URLSession calls the
/// delegate on its own queue.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// A class, so that appending to the body under the lock never copies it.
    private final class Exchange {
        let continuation: CheckedContinuation<TransportResponse, any Error>
        let limit: Int
        let deadline: ContinuousClock.Instant
        let progress: (@Sendable (Int, Int?) -> Void)?
        var body = Data()
        var failure: TransportFailure?

        init(
            continuation: CheckedContinuation<TransportResponse, any Error>,
            limit: Int,
            deadline: ContinuousClock.Instant,
            progress: (@Sendable (Int, Int?) -> Void)?
        ) {
            self.continuation = continuation
            self.limit = limit
            self.deadline = deadline
            self.progress = progress
        }
    }

    private let lock = NSLock()
    private var exchanges: [Int: Exchange] = [:]
    /// Where the session's callbacks run. The operation queue does not retain it; the session
    /// keeps its delegate, and with it this queue, until it is invalidated.
    let queue = DispatchQueue(label: "URLSessionTransport")

    func track(
        _ task: URLSessionTask,
        limit: Int,
        deadline: ContinuousClock.Instant,
        progress: (@Sendable (Int, Int?) -> Void)?,
        continuation: CheckedContinuation<TransportResponse, any Error>
    ) {
        lock.withLock {
            exchanges[task.taskIdentifier] = Exchange(
                continuation: continuation,
                limit: limit,
                deadline: deadline,
                progress: progress
            )
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var report: (progress: @Sendable (Int, Int?) -> Void, received: Int)?
        let failed = lock.withLock {
            guard let exchange = exchanges[dataTask.taskIdentifier], exchange.failure == nil else {
                return false
            }
            // The announced length is checked with the first data, not in a response callback:
            // answering one would hold the transfer until the delegate queue gets to it.
            let announced = exchange.body.isEmpty ? dataTask.response?.expectedContentLength ?? -1 : -1
            exchange.body.append(data)
            if exchange.body.count > exchange.limit || announced > Int64(exchange.limit) {
                exchange.failure = .responseBodyTooLarge(limit: exchange.limit)
                exchange.body = Data()
            } else if ContinuousClock.now > exchange.deadline {
                exchange.failure = .timedOut
            }
            if exchange.failure == nil, let progress = exchange.progress {
                report = (progress, exchange.body.count)
            }
            return exchange.failure != nil
        }
        if failed {
            dataTask.cancel()
        } else if let report {
            let expected = dataTask.response?.expectedContentLength ?? -1
            report.progress(report.received, expected >= 0 ? Int(expected) : nil)
        }
    }

    /// Redirects end the task with the redirecting response, which the transport follows
    /// itself.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = lock.withLock({ exchanges.removeValue(forKey: task.taskIdentifier) }) else {
            return
        }
        if let failure = exchange.failure {
            exchange.continuation.resume(throwing: failure)
        } else if let error {
            exchange.continuation.resume(throwing: Self.failure(for: error))
        } else if let response = (task.response as? HTTPURLResponse)?.httpResponse {
            exchange.continuation.resume(returning: TransportResponse(head: response, body: exchange.body))
        } else {
            exchange.continuation.resume(throwing: Self.failure(for: URLError(.badServerResponse)))
        }
    }

    static func failure(for error: any Error) -> TransportFailure {
        guard let code = (error as? URLError)?.code else {
            return .connection(ConnectionFailure(.other, underlying: error))
        }
        let reason: ConnectionFailure.Reason
        switch code {
        case .timedOut: return .timedOut
        case .cancelled: return .cancelled
        case .cannotConnectToHost: reason = .refused
        case .cannotFindHost, .dnsLookupFailed: reason = .hostNotFound
        case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed: reason = .unreachable
        case .networkConnectionLost: reason = .closed
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            reason = .secureConnectionFailed
        default: reason = .other
        }
        return .connection(ConnectionFailure(reason, underlying: error))
    }
}
