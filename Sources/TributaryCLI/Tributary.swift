import ArgumentParser

@main
struct TributaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tributary",
        abstract: "Tributary's command-line tool.",
        version: "0.1.0"
    )
}
