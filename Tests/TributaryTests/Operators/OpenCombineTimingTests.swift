import Testing
import Tributary
import TributaryTestSupport

#if !canImport(Combine)
    /// OpenCombine's own operators where the README warns about them: a test that fails here
    /// means OpenCombine changed, and the README's note should change with it.
    @Suite struct OpenCombineTimingTests {
        /// What a subscriber sees, as text.
        private func record(_ publisher: some Publisher<Int, Never>) -> (AnyCancellable, Locked<[String]>) {
            let events = Locked<[String]>([])
            let cancellable = publisher.sink(
                receiveCompletion: { _ in events.withLock { $0.append("finished") } },
                receiveValue: { value in events.withLock { $0.append("\(value)") } }
            )
            return (cancellable, events)
        }

        @Test func prefixAndOutputFinishOnlyWhenAValueAfterTheirLastArrives() {
            let subject = PassthroughSubject<Int, Never>()
            let (cancellable, events) = record(subject.prefix(2))
            subject.send(1)
            subject.send(2)
            #expect(events.current == ["1", "2"])
            subject.send(3)
            #expect(events.current == ["1", "2", "finished"])
            cancellable.cancel()

            let second = PassthroughSubject<Int, Never>()
            let (outputCancellable, output) = record(second.output(in: 1..<2))
            second.send(1)
            second.send(2)
            #expect(output.current == ["2"])
            second.send(3)
            #expect(output.current == ["2", "finished"])
            outputCancellable.cancel()
        }

        @Test func firstFinishesWithItsValue() {
            let subject = PassthroughSubject<Int, Never>()
            let (cancellable, events) = record(subject.first())
            subject.send(1)
            #expect(events.current == ["1", "finished"])
            cancellable.cancel()
        }
    }
#endif
