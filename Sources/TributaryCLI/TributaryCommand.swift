import ArgumentParser
import Foundation

/// The `tributary` command: the entry point for Tributary's tools.
@main
struct TributaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tributary",
        abstract: "Combine everywhere: the tools of the Tributary data layer.",
        discussion: """
            Tributary brings Combine's API, the operators OpenCombine lacks and a fetch state \
            machine to every platform Swift runs on. `tributary news headlines` reads the news \
            from NewsAPI.org, or from a built-in sandbox when no NEWSAPI_KEY is set.
            """,
        version: "0.1.0",
        subcommands: [
            NewsCommand.self, HackerNewsCommand.self, MoviesCommand.self, LabCommand.self,
            SandboxCommand.self,
            StreamsCommand.self,
            RecordingsCommand.self,
            ImagesCommand.self,
        ]
    )

    /// What starts every error line: the lines commands write themselves and those
    /// ArgumentParser writes for a thrown error alike, lower-case as compilers and git write it.
    static var _errorPrefix: String { "error: " }

    /// Runs the command line, with the diagrams that `streams new` takes attached to their
    /// options first.
    static func main() async {
        // A reader of standard output or error that goes away — a pipe closed early — must not
        // end the process, least of all a lab serving others: the write fails instead.
        signal(SIGPIPE, SIG_IGN)
        await main(attachingMarbles(Array(ProcessInfo.processInfo.arguments.dropFirst())))
    }

    /// `arguments` with each value of `streams new --marbles` and `--subscription` joined to
    /// its option, as `--marbles=---a|`. A diagram often starts with dashes, and ArgumentParser
    /// refuses an argument of three dashes or more as an unknown option before any option's
    /// parsing strategy can claim it as a value.
    static func attachingMarbles(_ arguments: [String]) -> [String] {
        guard arguments.prefix(while: { !$0.hasPrefix("-") }).starts(with: ["streams", "new"]) else {
            return arguments
        }
        var attached: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if ["--marbles", "--subscription"].contains(argument), let value = rest.popFirst() {
                attached.append("\(argument)=\(value)")
            } else {
                attached.append(argument)
            }
        }
        return attached
    }
}
