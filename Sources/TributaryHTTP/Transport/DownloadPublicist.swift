public import Foundation
public import Tributary

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// How far a transfer has come.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Bytes received so far.
    public var received: Int64
    /// The bytes expected in all, when the server said (`Content-Length`).
    public var expected: Int64?

    /// Creates a report of bytes received out of those expected.
    ///
    /// - Parameters:
    ///   - received: Bytes received so far.
    ///   - expected: The bytes expected in all, or nil when the server did not say.
    public init(received: Int64, expected: Int64?) {
        self.received = received
        self.expected = expected
    }

    /// `received / expected`, from 0 to 1; nil while the length is unknown.
    public var fraction: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(Double(received) / Double(expected), 1)
    }

    public var description: String {
        "\(received) of \(expected.map(String.init) ?? "?") bytes"
    }
}

/// What a download reports, in order: the response, then data and progress as bytes arrive.
public enum TransferEvent: Sendable, Hashable {
    /// The response's status code and header fields arrived.
    case response(status: Int, expectedLength: Int64?)
    /// A piece of the body, in order.
    case data(Data)
    /// The bytes received so far; the last one of a finished download has a fraction of 1.
    case progress(TransferProgress)
}

/// A `URLSession` data-task delegate whose callbacks are published: the response, each piece
/// of the body, and progress.
///
/// ```swift
/// let download = DownloadPublicist(URLRequest(url: url))
/// download.progress
///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.fraction ?? 0) })
/// ```
///
/// The transfer starts when the first subscriber arrives and is cancelled when the last one
/// leaves; each subscription buffers what it has not asked for yet. Failures end the events
/// with the `URLError`. One publicist runs one transfer.
public final class DownloadPublicist: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the transfer's mutable state (`session`, `received`, `expected`) is reached
    // only under the lock of `transfer`, whichever thread the hooks and URLSession's callbacks
    // come from; `channel` is written once, in `init`.

    /// Everything the transfer reports.
    public var events: AnyPublisher<TransferEvent, URLError> { channel.eraseToAnyPublisher() }

    /// Only the progress reports.
    public var progress: AnyPublisher<TransferProgress, URLError> {
        channel.compactMap { event in
            guard case .progress(let progress) = event else { return nil }
            return progress
        }
        .eraseToAnyPublisher()
    }

    /// Only the pieces of the body.
    public var data: AnyPublisher<Data, URLError> {
        channel.compactMap { event in
            guard case .data(let data) = event else { return nil }
            return data
        }
        .eraseToAnyPublisher()
    }

    private let request: URLRequest
    private let configuration: URLSessionConfiguration
    private struct Transfer {
        var session: URLSession?
        var received: Int64 = 0
        var expected: Int64?
    }

    private let transfer = Protected(Transfer())
    private var channel: DelegateEvents<TransferEvent, URLError>!

    /// Creates a publicist for a transfer of `request`; nothing is sent before a subscriber
    /// arrives.
    public init(_ request: URLRequest, configuration: URLSessionConfiguration = .ephemeral) {
        self.request = request
        self.configuration = configuration
        super.init()
        channel = DelegateEvents(
            onActive: { [weak self] in self?.start() },
            onInactive: { [weak self] in self?.stop() }
        )
    }

    private func start() {
        let session: URLSession? = transfer.withLock { transfer in
            guard transfer.session == nil else { return nil }
            // The session holds its delegate until it is invalidated, which `stop` and the
            // end of the transfer do.
            transfer.session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
            return transfer.session
        }
        session?.dataTask(with: request).resume()
    }

    private func stop() {
        transfer.withLock { $0.session }?.invalidateAndCancel()
    }

    public func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let length = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
        transfer.withLock { $0.expected = length }
        channel.send(
            .response(status: (response as? HTTPURLResponse)?.statusCode ?? 0, expectedLength: length)
        )
        completionHandler(.allow)
    }

    /// Publishes a piece of the body, then the bytes received so far.
    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let progress = transfer.withLock { transfer in
            transfer.received += Int64(data.count)
            return TransferProgress(received: transfer.received, expected: transfer.expected)
        }
        channel.send(.data(data))
        channel.send(.progress(progress))
    }

    /// Ends the events: with the `URLError` when the transfer failed; otherwise with a last
    /// progress report that says the transfer is whole, then `.finished`.
    public func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didCompleteWithError error: (any Error)?
    ) {
        session.finishTasksAndInvalidate()
        if let error {
            channel.send(completion: .failure(error as? URLError ?? URLError(.unknown)))
            return
        }
        let (total, length) = transfer.withLock { ($0.received, $0.expected) }
        // The last report says the transfer is whole, also when its length was not known.
        if length != total || total == 0 {
            channel.send(.progress(TransferProgress(received: total, expected: total)))
        }
        channel.send(completion: .finished)
    }
}
