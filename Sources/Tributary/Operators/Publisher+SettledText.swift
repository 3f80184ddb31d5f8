import Foundation

#if canImport(Combine)
    public import Combine
#else
    public import OpenCombine
#endif

/// Settling the text of a search box.
extension Publisher where Output == String, Failure == Never {
    /// What a search box settles on: the text trimmed, the first value at once, later ones once
    /// typing pauses for `pause`, repeats dropped.
    ///
    /// `self` is a text's publisher that starts with the current value, as ``Observed`` does;
    /// that value is `initial`.
    ///
    /// ```swift
    /// Observed { model.searchText }
    ///     .settledText(startingWith: model.searchText, pause: .milliseconds(300), scheduler: DispatchQueue.main)
    ///     .sink { query in search(query) }
    /// ```
    public func settledText<S: Scheduler>(
        startingWith initial: String,
        pause: S.SchedulerTimeType.Stride,
        scheduler: S
    ) -> AnyPublisher<String, Never> {
        map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .dropFirst()
            .debounce(for: pause, scheduler: scheduler)
            .prepend(initial.trimmingCharacters(in: .whitespacesAndNewlines))
            .removeDuplicates()
            .eraseToAnyPublisher()
    }
}
