import CombineSchedulers
import Foundation
import Tributary

extension Publisher where Output == String, Failure == Never {
    /// What a search box settles on: the text trimmed, the first value at once, later ones
    /// once typing pauses for `pause`, repeats dropped.
    ///
    /// `self` is a `@Published` text's publisher, which starts with the current value; that
    /// value is `initial`.
    func settledText(
        startingWith initial: String,
        pause: DispatchQueue.SchedulerTimeType.Stride,
        scheduler: AnySchedulerOf<DispatchQueue>
    ) -> AnyPublisher<String, Never> {
        map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .dropFirst()
            .debounce(for: pause, scheduler: scheduler)
            .prepend(initial.trimmingCharacters(in: .whitespacesAndNewlines))
            .removeDuplicates()
            .eraseToAnyPublisher()
    }
}
