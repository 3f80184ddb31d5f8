import CombineSchedulers
import Foundation
import Tributary
import TributaryTestSupport

typealias IntUpstream = Upstream<Int, TestError>

func upstreams(_ count: Int, subscribesLater: Bool = false) -> [IntUpstream] {
    (0..<count).map { _ in IntUpstream(subscribesLater: subscribesLater) }
}

/// combineLatest over two to four upstreams, each combination as an array.
func combineLatest(_ upstreams: [IntUpstream]) -> AnyPublisher<[Int], TestError> {
    let u = upstreams
    switch u.count {
    case 2: return u[0].combineLatest(u[1]) { [$0, $1] }.eraseToAnyPublisher()
    case 3: return u[0].combineLatest(u[1], u[2]) { [$0, $1, $2] }.eraseToAnyPublisher()
    case 4: return u[0].combineLatest(u[1], u[2], u[3]) { [$0, $1, $2, $3] }.eraseToAnyPublisher()
    default: preconditionFailure("combineLatest takes two to four publishers")
    }
}

/// merge over two to eight upstreams through Publisher's overloads, or MergeMany beyond.
func merge(_ upstreams: [IntUpstream]) -> AnyPublisher<Int, TestError> {
    let u = upstreams
    switch u.count {
    case 2: return u[0].merge(with: u[1]).eraseToAnyPublisher()
    case 3: return u[0].merge(with: u[1], u[2]).eraseToAnyPublisher()
    case 4: return u[0].merge(with: u[1], u[2], u[3]).eraseToAnyPublisher()
    case 5: return u[0].merge(with: u[1], u[2], u[3], u[4]).eraseToAnyPublisher()
    case 6: return u[0].merge(with: u[1], u[2], u[3], u[4], u[5]).eraseToAnyPublisher()
    case 7: return u[0].merge(with: u[1], u[2], u[3], u[4], u[5], u[6]).eraseToAnyPublisher()
    case 8: return u[0].merge(with: u[1], u[2], u[3], u[4], u[5], u[6], u[7]).eraseToAnyPublisher()
    default: return Publishers.MergeMany(u).eraseToAnyPublisher()
    }
}

/// A value stamped with the virtual time, in milliseconds, at which it arrived.
struct Stamped<Value: Equatable>: Equatable, CustomStringConvertible {
    let millisecond: Int
    let value: Value

    init(_ millisecond: Int, _ value: Value) {
        self.millisecond = millisecond
        self.value = value
    }

    var description: String { "\(value)@\(millisecond)ms" }
}

extension TestSchedulerOf<DispatchQueue> {
    /// Milliseconds of virtual time since `start`.
    func milliseconds(since start: SchedulerTimeType) -> Int {
        Int((now.dispatchTime.uptimeNanoseconds - start.dispatchTime.uptimeNanoseconds) / 1_000_000)
    }

    /// Subscribes to `publisher`, lets `duration` of virtual time pass, and returns what
    /// arrived when: each value, and the finish if it came.
    func record<P: Publisher>(
        _ publisher: P,
        for duration: SchedulerTimeType.Stride
    ) -> (values: [Stamped<P.Output>], finishedAt: Int?) where P.Failure == Never {
        let start = now
        let values = Locked<[Stamped<P.Output>]>([])
        let finishedAt = Locked<Int?>(nil)
        let cancellable = publisher.sink(
            receiveCompletion: { _ in
                let millisecond = self.milliseconds(since: start)
                finishedAt.withLock { $0 = millisecond }
            },
            receiveValue: { value in
                let stamp = Stamped(self.milliseconds(since: start), value)
                values.withLock { $0.append(stamp) }
            }
        )
        advance(by: duration)
        cancellable.cancel()
        return (values.current, finishedAt.current)
    }

    /// A cold publisher that emits each value at its offset from subscription, then finishes
    /// after the last.
    func timeline<Value>(_ events: [(Int, Value)]) -> AnyPublisher<Value, Never> {
        Publishers.MergeMany(
            events.map { millisecond, value in
                Just(value).delay(for: .milliseconds(millisecond), scheduler: self)
            }
        )
        .eraseToAnyPublisher()
    }
}
