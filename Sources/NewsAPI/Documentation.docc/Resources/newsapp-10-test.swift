import Foundation
import NewsAPI
import Testing
import Tributary
import TributaryTesting

@testable import NewsApp

@Test func aSearchWaitsForTypingToStop() {
    let test = MarbleTest(frame: .milliseconds(100))
    let article = Article(
        source: .init(id: nil, name: "Example"),
        title: "Swift 6.3 is out",
        url: URL(string: "https://example.com/swift")!,
        publishedAt: Date(timeIntervalSince1970: 0)
    )
    let typed = test.hot(
        "a-b-c------",
        values: ["a": Endpoint.search("s"), "b": .search("sw"), "c": .search("swift")]
    )
    let states = HeadlinesModel.states(of: typed, scheduler: test.scheduler) { _ in
        test.cold("--r|", values: ["r": [article]]).setFailureType(to: LoadFailure.self).eraseToAnyPublisher()
    }
    test.expect(
        states,
        toBe: "-------l-r",
        values: ["l": .loading(.search("swift")), "r": .loaded([article])]
    )
}
