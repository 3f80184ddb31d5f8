import ArgumentParser

/// The `tributary` command: the entry point for Tributary's tools.
@main
struct TributaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tributary",
        abstract: "Combine everywhere: the tools of the Tributary data layer.",
        discussion: """
            Tributary brings Combine's API, the operators OpenCombine lacks and a fetch state \
            machine to every platform Swift runs on.
            """,
        version: "0.1.0"
    )
}
