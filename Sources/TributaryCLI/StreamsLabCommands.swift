public import ArgumentParser
import Foundation
import HTTPTypes
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryLabClient
public import TributaryLabWire
import TributaryStreams

extension StreamsCommand {
    /// Which lab, and its token.
    struct LabOptions: ParsableArguments {
        @Option(help: "The lab's URL (TRIBUTARY_LAB_URL, default http://127.0.0.1:8080).")
        var lab: String?

        @Option(help: "The lab's token, which writes and recordings need (TRIBUTARY_LAB_TOKEN).")
        var token: String?

        @Option(help: "Whom the versions saved are credited to (default: the user's name, $USER).")
        var author: String?

        var environment: [String: String] = ProcessInfo.processInfo.environment

        enum CodingKeys: CodingKey {
            case lab, token, author
        }

        func validate() throws {
            guard NewsCommand.Connection.url(labText) != nil else {
                throw ValidationError("The lab's URL \"\(labText)\" is not an http or https URL.")
            }
        }

        private var labText: String { lab ?? environment["TRIBUTARY_LAB_URL"] ?? "http://127.0.0.1:8080" }

        /// The token of --token or TRIBUTARY_LAB_TOKEN, if either gives one.
        private var givenToken: String? {
            token ?? environment["TRIBUTARY_LAB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        }

        func withClient<Result: Sendable>(_ body: (LabClient) async throws -> Result) async throws -> Result {
            let url = NewsCommand.Connection.url(labText) ?? URL(string: "http://127.0.0.1:8080")!
            let token = givenToken
            let author = author ?? environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
            return try await AsyncHTTPClientTransport.withTransport { transport in
                try await body(
                    LabClient(
                        baseURL: url,
                        token: token,
                        transport: transport,
                        retryPolicy: .never,
                        author: author
                    )
                )
            }
        }

        /// ``withClient(_:)`` for a write, which the lab takes only with its token: without one,
        /// or with one the lab refuses, the command ends saying where a token goes.
        func withWritingClient<Result: Sendable>(
            console: Console,
            _ body: (LabClient) async throws -> Result
        ) async throws -> Result {
            guard givenToken != nil else {
                console.note(
                    "error: Writing to the lab needs its token: give it with --token or set TRIBUTARY_LAB_TOKEN to the token in the link `tributary lab` printed."
                )
                throw ExitCode.failure
            }
            do {
                return try await withClient(body)
            } catch let error as APIError where error.status == .unauthorized {
                throw refused(console)
            } catch LabSaveError.failed(let error) where error.status == .unauthorized {
                throw refused(console)
            }
        }

        private func refused(_ console: Console) -> ExitCode {
            console.note(
                "error: The lab at \(labText) refused the token of --token or TRIBUTARY_LAB_TOKEN: give the one in the link `tributary lab` printed."
            )
            return ExitCode.failure
        }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a document in the lab; with --id, save it as the next version of that one.",
            discussion: """
                A save names the version it was based on, so that it never silently replaces \
                someone else's: the version that `streams pull` wrote into the file, or \
                --base-version. When the document has moved on since, nothing is saved and the \
                command fails, naming both versions; --force saves over the latest on purpose.
                """
        )

        @Argument(help: "The document's JSON file.")
        var file: String

        @Option(help: "The id of a document to save a new version of.", transform: DocumentID.parse)
        var id: DocumentID?

        @Option(name: .customLong("base-version"), help: "The version the file was based on.")
        var baseVersion: Int?

        @Flag(help: "Save over the latest version, whatever it is.")
        var force = false

        @OptionGroup var options: LabOptions

        func validate() throws {
            if id == nil, baseVersion != nil || force {
                throw ValidationError("--base-version and --force go with --id.")
            }
            if baseVersion != nil, force {
                throw ValidationError("Give --base-version or --force, not both.")
            }
            if let baseVersion, baseVersion < 1 { throw ValidationError("--base-version counts from 1.") }
        }

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let document = try StreamsCommand.document(at: file, console: console)
            let pulled = Pulled.read(from: file)
            guard let id else {
                let shared = try await options.withWritingClient(console: console) { client in
                    try await client.create(document)
                }
                console.print("\(shared.id) version \(shared.version)")
                if let pulled {
                    console.note(
                        "\(file) was pulled from \(pulled.id): this made a new document. `--id \(pulled.id)` saves it as the next version of that one."
                    )
                }
                return
            }
            let base: Int?
            if let baseVersion {
                base = baseVersion
            } else if force {
                base = nil
            } else if let pulled, pulled.id == id {
                base = pulled.version
            } else {
                console.note(
                    "error: \(file) does not say which version of \(id) it is based on: pull it with `tributary streams pull \(id) --output \(file)`, give --base-version N, or --force to save over the latest."
                )
                throw ExitCode.failure
            }
            let force = force
            do {
                let shared = try await options.withWritingClient(console: console) { client in
                    let latest = base == nil ? try await client.document(id).version : 0
                    let base = base ?? latest
                    return try await client.save(id, document: document, baseVersion: base)
                }
                console.print("\(shared.id) version \(shared.version)")
                if let pulled, pulled.id == id {
                    // The file now stands for the version saved, so that it can be pushed again.
                    try? pulled.replace(with: Pulled(id: id, version: shared.version), in: file)
                }
            } catch LabSaveError.conflict(let current) where !force {
                console.note(
                    "error: \(id) is at version \(current.version) now, and this file is based on version \(base ?? 0): someone saved since. Pull it again and merge, or push with --force to save over their version."
                )
                throw ExitCode.failure
            }
        }
    }

    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a document from the lab as JSON, noting the version it is, for a later push.",
            discussion: """
                The JSON starts with "lab": {"id", "version"}, which documents ignore and \
                `streams push --id` reads, so that a push based on an old version is refused \
                rather than saved over someone else's work.
                """
        )

        @Argument(help: "The document's id.", transform: DocumentID.parse)
        var id: DocumentID

        @Option(help: "A file to write the JSON to, instead of standard output.")
        var output: String?

        @OptionGroup var options: LabOptions

        func run() async throws { try await execute(console: .standard) }

        func execute(console: Console) async throws {
            let id = id
            let shared: SharedDocument
            do {
                shared = try await options.withClient { client in try await client.document(id) }
            } catch let error as APIError where error.statusCode == 404 {
                console.note("error: There is no document \(id).")
                throw ExitCode.failure
            }
            let text = String(
                decoding: try Pulled(id: id, version: shared.version).annotate(shared.document.encoded()),
                as: UTF8.self
            )
            guard let output else {
                console.printJSON(text: text)
                return
            }
            do {
                try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                console.note("error: cannot write \(output): \(FileError.reason(error)).")
                throw ExitCode.failure
            }
            console.note("\(id) version \(shared.version) written to \(output).")
        }
    }

    /// The lab's note in a pulled file: which document and version it is.
    struct Pulled: Codable, Equatable {
        var id: DocumentID
        var version: Int

        private struct Holder: Codable { var lab: Pulled }

        private static let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return encoder
        }()

        /// The note in the JSON file at `path`, if it has one.
        static func read(from path: String) -> Pulled? {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
            return (try? JSONDecoder().decode(Holder.self, from: data))?.lab
        }

        /// `json`, an encoded document, with this note as its first member.
        func annotate(_ json: Data) throws -> Data {
            let note = try Self.encoder.encode(Holder(lab: self))
            var text = String(decoding: json, as: UTF8.self)
            guard let open = text.firstIndex(of: "{") else { return json }
            text.replaceSubrange(
                open...open,
                with: String(decoding: note.dropLast(), as: UTF8.self)
                    + (text.dropFirst().first == "}" ? "" : ",")
            )
            return Data(text.utf8)
        }

        /// Puts `newer` in place of this note in the file at `path`, if the file has it as
        /// `streams pull` wrote it; anything else in the file stays as it is.
        func replace(with newer: Pulled, in path: String) throws {
            let url = URL(fileURLWithPath: path)
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            let old = String(
                decoding: try Self.encoder.encode(Holder(lab: self)).dropFirst().dropLast(),
                as: UTF8.self
            )
            let new = String(
                decoding: try Self.encoder.encode(Holder(lab: newer)).dropFirst().dropLast(),
                as: UTF8.self
            )
            guard let range = text.range(of: old) else { return }
            try Data(text.replacingCharacters(in: range, with: new).utf8).write(to: url, options: .atomic)
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the marbles of a lab document, and again each time someone saves it."
        )

        @Argument(help: "The document's id.", transform: DocumentID.parse)
        var id: DocumentID

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
                        console.print("\(shared.title), version \(shared.version):")
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

/// An id on the command line: 22 URL-safe characters, or a usage error saying so.
extension DocumentID: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }

    /// The id `argument` is, or an error that says what an id looks like.
    static func parse(_ argument: String) throws -> DocumentID {
        guard let id = DocumentID(argument) else {
            throw ValidationError(
                "A document's id is 22 letters, digits, - or _, as at the end of its link (/streams/ID)."
            )
        }
        return id
    }

    public static var defaultCompletionKind: CompletionKind { .default }
}
