import Foundation
import Testing
import Tributary
import TributaryLabClient
import TributaryTestSupport

@Suite struct LabLaneRecorderTests {
    @Test(.timeLimit(.minutes(1)))
    func keepsTheAppRunningAndCountsWhatItDropsWithTheLabGone() async throws {
        // Port 1 on loopback: nothing listens there, so every connection is refused.
        let recorder = LabLaneRecorder(
            lab: URL(string: "http://127.0.0.1:1")!,
            token: "test-token-0123456789",
            recording: "nowhere",
            capacity: 100
        )
        let subject = PassthroughSubject<Int, Never>()
        let total = Locked(0)
        let cancellable = subject.lane("gone", recorder: recorder).sink { value in
            total.withLock { $0 += value }
        }
        for value in 1...1_000 { subject.send(value) }
        cancellable.cancel()

        #expect(total.current == 500_500)
        // Subscribed, the demand and 98 values fit; the other 902 values and the cancellation do not.
        #expect(recorder.dropped == 903)
        await #expect(throws: LabLaneRecorder.Error.timedOut(stored: 0, recorded: 100)) {
            try await recorder.flush(timeout: .milliseconds(300))
        }
    }
}
