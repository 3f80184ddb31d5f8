import ArgumentParser

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
            ImagesCommand.self,
        ]
    )
}
