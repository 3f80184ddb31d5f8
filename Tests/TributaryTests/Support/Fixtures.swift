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
