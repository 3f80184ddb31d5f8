import HTTPTypes
import Tributary

extension LabError {
    /// `503 busy` with `Retry-After: 1`: the lab is `doing` as much of some work as it takes.
    static func busy(_ doing: String) -> LabError {
        LabError(
            status: .serviceUnavailable,
            code: "busy",
            message: "The lab is \(doing); try again in a second.",
            headers: [.retryAfter: "1"]
        )
    }
}

/// How much work of one kind is under way, and a refusal past a number: for work that reads
/// much before it reaches the ``RunPool``, such as a recording replayed into a document, which
/// reads its events first, or written as it is read, such as a recording's download.
final class Admission: Sendable {
    /// The most under way at once.
    let most: Int
    private let underWay = Protected(0)

    init(most: Int) {
        self.most = max(1, most)
    }

    /// A place among those under way, given back once it is let go: held by work that outlives
    /// the call that admitted it, such as a download written after its answer's head, whether
    /// or not it is ever written.
    final class Ticket: Sendable {
        private let admission: Admission

        fileprivate init(_ admission: Admission) {
            self.admission = admission
        }

        deinit { admission.underWay.withLock { $0 -= 1 } }
    }

    /// A place, or nil when `most` are under way.
    func enter() -> Ticket? {
        let admitted = underWay.withLock { count in
            guard count < most else { return false }
            count += 1
            return true
        }
        return admitted ? Ticket(self) : nil
    }

    /// What `body` returns, once admitted; `refusal` at once when `most` are under way.
    func run<Value>(refusing refusal: LabError, _ body: () async throws -> Value) async throws -> Value {
        guard let ticket = enter() else { throw refusal }
        defer { withExtendedLifetime(ticket) {} }
        return try await body()
    }
}
