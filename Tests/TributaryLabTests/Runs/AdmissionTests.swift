import HTTPTypes
import Testing

@testable import TributaryLab

/// Work admitted so many at a time: a place is taken until the work ends or its ticket is let
/// go, and one past the most is refused at once.
@Suite struct AdmissionTests {
    @Test func refusesPastTheMostUntilAPlaceIsLetGo() {
        let admission = Admission(most: 2)
        var first = admission.enter()
        let second = admission.enter()
        #expect(first != nil && second != nil)
        #expect(admission.enter() == nil)
        first = nil
        let third = admission.enter()
        #expect(third != nil)
        #expect(admission.enter() == nil)
        withExtendedLifetime((first, second, third)) {}
    }

    @Test func holdsAPlaceWhileTheWorkRunsAndRefusesOnePastIt() async throws {
        let admission = Admission(most: 1)
        let busy = LabError(status: .serviceUnavailable, code: "busy", message: "busy")
        let inside = try await admission.run(refusing: busy) {
            await #expect(throws: LabError.self) {
                try await admission.run(refusing: busy) { 0 }
            }
            return 1
        }
        #expect(inside == 1)
        #expect(try await admission.run(refusing: busy) { 2 } == 2)
        // A place is given back when the work throws, too.
        await #expect(throws: LabError.self) {
            try await admission.run(refusing: busy) { throw busy }
        }
        #expect(admission.enter() != nil)
    }
}
