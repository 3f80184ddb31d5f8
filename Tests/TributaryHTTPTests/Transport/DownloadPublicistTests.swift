import Foundation
import Testing
import Tributary
import TributaryHTTP
import TributaryTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Progress and body pieces of a real download over loopback.
@Suite(.timeLimit(.minutes(5)))
struct DownloadPublicistTests {
    /// The events of downloading `path`, once the download ends.
    private func download(
        _ url: URL
    ) async -> (events: [TransferEvent], completion: Subscribers.Completion<URLError>) {
        let publicist = DownloadPublicist(URLRequest(url: url))
        let events = Locked<[TransferEvent]>([])
        let subscription = Locked<AnyCancellable?>(nil)
        let completion = await withCheckedContinuation { continuation in
            let cancellable = publicist.events.sink(
                receiveCompletion: { continuation.resume(returning: $0) },
                receiveValue: { event in events.withLock { $0.append(event) } }
            )
            subscription.withLock { $0 = cancellable }
        }
        subscription.withLock { $0 = nil }
        return (events.current, completion)
    }

    @Test(arguments: [false, true])
    func reportsProgressInOrderEndingAtOne(chunked: Bool) async throws {
        let size = 1 << 20
        try await TestServer.run { url, _ in
            let target = URL(string: "\(url)/large?size=\(size)\(chunked ? "&chunked=1" : "")")!
            let (events, completion) = await download(target)
            #expect(completion == .finished)
            guard case .response(let status, let expected) = events.first else {
                Issue.record("the first event is not the response: \(events.first.map { "\($0)" } ?? "none")")
                return
            }
            #expect(status == 200)
            #expect(expected == (chunked ? nil : Int64(size)))
            let progress = events.compactMap { event -> TransferProgress? in
                guard case .progress(let progress) = event else { return nil }
                return progress
            }
            let body = events.reduce(into: Data()) { body, event in
                if case .data(let piece) = event { body += piece }
            }
            #expect(body.count == size)
            #expect(progress.count > 1)
            #expect(progress.map(\.received) == progress.map(\.received).sorted())
            #expect(progress.last == TransferProgress(received: Int64(size), expected: Int64(size)))
            #expect(progress.last?.fraction == 1)
            if !chunked {
                let fractions = progress.compactMap(\.fraction)
                #expect(fractions.count == progress.count && fractions == fractions.sorted())
            }
        }
    }

    @Test func endsWithTheErrorWhenTheServerCannotBeReached() async {
        let (events, completion) = await download(URL(string: "http://127.0.0.1:1/nothing")!)
        #expect(events.isEmpty)
        guard case .failure = completion else {
            Issue.record("expected a failure")
            return
        }
    }

    @Test func cancellingStopsTheTransferAndReleasesThePublicist() async throws {
        try await TestServer.run { url, _ in
            weak var probe: DownloadPublicist?
            let pieces = Locked(0)
            let seen: Int
            do {
                let publicist = DownloadPublicist(
                    URLRequest(url: URL(string: "\(url)/large?size=\(64 << 20)")!)
                )
                probe = publicist
                let cancellable = publicist.data.sink(
                    receiveCompletion: { _ in },
                    receiveValue: { _ in pieces.withLock { $0 += 1 } }
                )
                try await waitUntil { pieces.current > 0 }
                cancellable.cancel()
                seen = pieces.current
            }
            // URLSession lets go of its delegate once the cancelled task has ended: from then on
            // nothing can be delivered.
            try await waitUntil { probe == nil }
            // It delivers on a serial queue: a piece already being delivered when cancel was
            // called may still land, but nothing after it.
            #expect(pieces.current <= seen + 1)
        }
    }
}
