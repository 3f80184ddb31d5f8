import ArgumentParser
import Foundation
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryLabClient
import TributaryStreams

extension StreamsCommand {
    /// Which lab, and its token.
    struct LabOptions: ParsableArguments {
        @Option(help: "The lab's URL (TRIBUTARY_LAB_URL, default http://127.0.0.1:8080).")
        var lab: String?

        @Option(help: "The lab's token, for pushing (TRIBUTARY_LAB_TOKEN).")
        var token: String?

        var environment: [String: String] = ProcessInfo.processInfo.environment

        enum CodingKeys: CodingKey {
            case lab, token
        }

        func validate() throws {
            guard NewsCommand.Connection.url(labText) != nil else {
                throw ValidationError("The lab's URL \"\(labText)\" is not an http or https URL.")
            }
        }

        private var labText: String { lab ?? environment["TRIBUTARY_LAB_URL"] ?? "http://127.0.0.1:8080" }

        func withClient<Result: Sendable>(_ body: (LabClient) async throws -> Result) async throws -> Result {
            let url = NewsCommand.Connection.url(labText) ?? URL(string: "http://127.0.0.1:8080")!
            let token = token ?? environment["TRIBUTARY_LAB_TOKEN"]
            return try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(
                    LabClient(baseURL: url, token: token, transport: transport, retryPolicy: .never)
                )
            }
        }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a document in the lab; with --id, save it as the next version of that one."
        )

        @Argument(help: "The document's JSON file.")
        var file: String

        @Option(help: "The id of a document to save a new version of.")
        var id: String?

        @OptionGroup var options: LabOptions

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let document = try StreamsCommand.document(at: file, console: console)
            let id = id
            let shared = try await options.withClient { client in
                guard let id else { return try await client.create(document) }
                let current = try await client.document(id)
                return try await client.save(id, document: document, baseVersion: current.version)
            }
            console.print("\(shared.id) version \(shared.version)")
        }
    }

    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a document from the lab as JSON.")

        @Argument(help: "The document's id.")
        var id: String

        @OptionGroup var options: LabOptions

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let id = id
            let shared = try await options.withClient { client in try await client.document(id) }
            console.print(String(decoding: try shared.document.encoded(), as: UTF8.self))
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the marbles of a lab document, and again each time someone saves it."
        )

        @Argument(help: "The document's id.")
        var id: String

        @OptionGroup var options: LabOptions

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let id = id
            try await options.withClient { client in
                let versions = AsyncStream<Result<SharedDocument, LiveDocumentError>> { continuation in
                    let subscription = Protected<AnyCancellable?>(nil)
                    let cancellable = client.live(id).sink(
                        receiveCompletion: { completion in
                            if case .failure(let error) = completion { continuation.yield(.failure(error)) }
                            continuation.finish()
                        },
                        receiveValue: { continuation.yield(.success($0)) }
                    )
                    subscription.withLock { $0 = cancellable }
                    continuation.onTermination = { _ in subscription.withLock { $0 }?.cancel() }
                }
                for await version in versions {
                    switch version {
                    case .success(let shared):
                        console.print("\(shared.document.name ?? shared.id), version \(shared.version):")
                        do {
                            let timeline = try StreamRunner().run(shared.document)
                            console.print(try TextLanes.render(timeline, document: shared.document))
                        } catch {
                            console.note("error: \(error)")
                        }
                    case .failure(let error):
                        console.note("error: \(error)")
                        throw ExitCode.failure
                    }
                }
            }
        }
    }
}
