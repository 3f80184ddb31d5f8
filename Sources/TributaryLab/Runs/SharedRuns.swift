import Foundation
import HTTPTypes
import TributaryHTTP
import TributaryLabWire

/// Runs of stored versions for whoever has a document's link: what a version runs to and how it
/// is drawn never change, so each version is run once and its answers kept, and a link posted
/// widely costs the operator one run per version. Keeping is bounded in bytes (the least
/// recently asked for goes first); a version asked for by many at once is run once for all of
/// them; and an address that makes the lab run versions it has not kept, beyond a small burst,
/// waits (`429` with `Retry-After`), so that nobody can keep the run pool busy by walking
/// through versions.
actor SharedRuns {
    /// A version's answers: the run's JSON, as `POST /api/run` answers, and the SVG.
    struct Drawn: Sendable {
        var run: Data
        var svg: Data

        var bytes: Int { run.count + svg.count }
    }

    typealias Key = VersionKey

    /// How many runs an address may cause at once, and how fast that allowance comes back.
    struct Allowance: Sendable {
        var burst: Double
        var perSecond: Double

        /// Ten runs, then one every six seconds.
        static let anonymous = Allowance(burst: 10, perSecond: 1.0 / 6)
    }

    let maximumBytes: Int
    let allowance: Allowance
    private let now: @Sendable () -> ContinuousClock.Instant
    /// What a version ran to: its answers, or the error a run of it always ends in (a document
    /// past its budget fails the same way every time, and is not run again to say so).
    private enum Outcome {
        case drawn(Drawn)
        case failed(LabError)
    }

    private var kept: [Key: (outcome: Outcome, bytes: Int, used: UInt64)] = [:]
    private var keptBytes = 0
    private var uses: UInt64 = 0
    private var running: [Key: Task<Drawn, any Error>] = [:]
    private var buckets: [String: (tokens: Double, at: ContinuousClock.Instant)] = [:]

    init(
        maximumBytes: Int = 32 << 20,
        allowance: Allowance = .anonymous,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.maximumBytes = maximumBytes
        self.allowance = allowance
        self.now = now
    }

    /// The answers for `key`: kept ones at once; otherwise made by `make`, once for everyone
    /// asking, charged to `address`.
    func drawn(
        _ key: Key,
        for address: String,
        make: @escaping @Sendable () async throws -> Drawn
    ) async throws -> Drawn {
        if let found = kept[key] {
            uses += 1
            kept[key]?.used = uses
            switch found.outcome {
            case .drawn(let drawn): return drawn
            case .failed(let error): throw error
            }
        }
        if let task = running[key] { return try await task.value }
        try charge(address)
        let task = Task { try await make() }
        running[key] = task
        defer { running[key] = nil }
        do {
            let drawn = try await task.value
            keep(.drawn(drawn), bytes: drawn.bytes, as: key)
            return drawn
        } catch let error as LabError where error.status == .unprocessableContent {
            keep(.failed(error), bytes: error.message.utf8.count + 256, as: key)
            throw error
        }
    }

    /// How many versions are kept, and their bytes.
    var keeping: (count: Int, bytes: Int) { (kept.count, keptBytes) }

    private func keep(_ outcome: Outcome, bytes: Int, as key: Key) {
        // One answer larger than a quarter of the room is served, not kept.
        guard bytes <= maximumBytes / 4 else { return }
        uses += 1
        kept[key] = (outcome, bytes, uses)
        keptBytes += bytes
        while keptBytes > maximumBytes, let oldest = kept.min(by: { $0.value.used < $1.value.used }) {
            kept[oldest.key] = nil
            keptBytes -= oldest.value.bytes
        }
    }

    /// Whom a run is charged to: an IPv4 address's /24, or an IPv6 address's /64, the block one
    /// subscriber is given, as every other limit of the lab counts them, so that the addresses of
    /// one network share one allowance.
    static func caller(_ host: String) -> String {
        AddressBlock.of(host)
    }

    /// Takes one run from `address`'s allowance, or refuses with how long to wait.
    private func charge(_ address: String) throws(LabError) {
        let instant = now()
        if buckets.count > 10_000 {
            // Addresses whose allowance has come back in full are forgotten.
            let full = allowance.burst / allowance.perSecond
            buckets = buckets.filter { Self.seconds(instant - $0.value.at) < full }
        }
        var bucket = buckets[address] ?? (allowance.burst, instant)
        bucket.tokens = min(
            allowance.burst,
            bucket.tokens + Self.seconds(instant - bucket.at) * allowance.perSecond
        )
        bucket.at = instant
        guard bucket.tokens >= 1 else {
            buckets[address] = bucket
            let wait = Int(((1 - bucket.tokens) / allowance.perSecond).rounded(.up))
            throw LabError(
                status: .tooManyRequests,
                code: "tooManyRuns",
                message:
                    "This address has had many versions run that the lab had not kept; try again in \(wait) s.",
                headers: [.retryAfter: String(wait)]
            )
        }
        bucket.tokens -= 1
        buckets[address] = bucket
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
