import Tributary

/// How much work of one kind is under way, and a refusal past a number: for work that reads
/// much before it reaches the ``RunPool``, such as a recording replayed into a document, which
/// reads up to 100,000 events first.
final class Admission: Sendable {
    /// The most under way at once.
    let most: Int
    private let underWay = Protected(0)

    init(most: Int) {
        self.most = max(1, most)
    }

    /// What `body` returns, once admitted; `refusal` at once when `most` are under way.
    func run<Value>(refusing refusal: LabError, _ body: () async throws -> Value) async throws -> Value {
        let admitted = underWay.withLock { count in
            guard count < most else { return false }
            count += 1
            return true
        }
        guard admitted else { throw refusal }
        defer { underWay.withLock { $0 -= 1 } }
        return try await body()
    }
}
