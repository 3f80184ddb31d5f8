import ArgumentParser
import Foundation
import Testing
import TributaryTestSupport

@testable import TributaryCLI

@Suite(
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
) struct TributaryCommandTests {
    /// What the command prints and how it exits for `arguments`, without exiting.
    private func outcome(of arguments: [String]) -> (message: String, exitCode: ExitCode) {
        do {
            var command = try TributaryCommand.parseAsRoot(arguments)
            try command.run()
            return ("", .success)
        } catch {
            return (TributaryCommand.fullMessage(for: error), TributaryCommand.exitCode(for: error))
        }
    }

    @Test func printsItsVersion() {
        let (message, exitCode) = outcome(of: ["--version"])
        #expect(message == "0.1.0")
        #expect(exitCode == .success)
    }

    @Test func explainsItselfWithHelp() {
        let help = TributaryCommand.helpMessage()
        #expect(help.contains("USAGE: tributary"))
        #expect(help.contains("--version"))
        #expect(help.contains("Combine everywhere"))
    }

    @Test func saysTheLabServesANewsReader() {
        let help = LabCommand.helpMessage()
        #expect(help.contains("a news reader"))
        #expect(help.contains("--news-base-url"))
    }

    @Test func rejectsAnUnknownFlagWithAClearMessage() {
        let (message, exitCode) = outcome(of: ["--bogus"])
        #expect(message.contains("Unknown option '--bogus'"))
        #expect(exitCode == .validationFailure)
    }
}

/// Checks that `arguments` are refused when parsed, with a message holding `message` and the
/// exit code of a usage error.
func expectRefused(
    _ arguments: [String],
    saying message: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        _ = try TributaryCommand.parseAsRoot(arguments)
        Issue.record("\(arguments) parsed", sourceLocation: sourceLocation)
    } catch {
        #expect(TributaryCommand.fullMessage(for: error).contains(message), sourceLocation: sourceLocation)
        #expect(TributaryCommand.exitCode(for: error) == .validationFailure, sourceLocation: sourceLocation)
    }
}
