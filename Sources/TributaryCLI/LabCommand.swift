import ArgumentParser
import Foundation
import NewsAPI
import Tributary
import TributaryAsyncHTTPClient
import TributaryHTTP
import TributaryLab
import TributaryLabClient
import TributaryLabWire
import TributarySandbox
import UnixSignals

/// `tributary lab`: the lab's service, with its documents in SQLite.
struct LabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab",
        abstract: "Serve the lab: a news reader and stream documents stored, versioned and shared.",
        discussion: """
            The lab's pages, at its address: a news reader driven by the same view models an app \
            uses (its news from NewsAPI.org with NEWSAPI_KEY, from --news-base-url, or else from a \
            sandbox started in this process); an editor that runs stream documents and draws them \
            as marbles; the recordings of running pipelines; and, once built, the package's \
            documentation at /docs.

            Documents are kept in a SQLite file, by default under the user's data directory \
            ($XDG_DATA_HOME/tributary/lab.sqlite), made on first start; with a postgres:// URL, \
            in PostgreSQL, which several labs behind one address can share, each passing on the \
            others' saves to its live viewers. Writes need the token \
            (--token, TRIBUTARY_LAB_TOKEN, or else one made up on first start, printed, and kept \
            in a file beside the database that only its owner can read, so that a restart keeps \
            the link and its sessions; --new-token replaces it); a document is read with its id. \
            Ctrl-C stops the lab after the requests under way.

            The lab answers only to its own names: localhost, IP addresses, --host, and the host \
            of --public-url (TRIBUTARY_LAB_PUBLIC_URL), the address people reach it at behind a \
            proxy, which is also the origin its pages write from and the link it prints.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "The SQLite file to keep documents in, or a PostgreSQL server's URL.",
            valueName: "path|postgres://user@host:port/database"
        )
    )
    var database: String?

    @Option(
        help:
            "The token writes need (TRIBUTARY_LAB_TOKEN); it shows in the process list, --token-file does not."
    )
    var token: String?

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("A file whose first line is the token.", valueName: "path")
    )
    var tokenFile: String?

    @Flag(
        help: """
            Make a new token, and keep it for the next start: the old link and every session \
            it opened stop working.
            """
    )
    var newToken = false

    @Option(
        name: .customLong("public-url"),
        help: "The lab's address behind a proxy, such as https://lab.example (TRIBUTARY_LAB_PUBLIC_URL)."
    )
    var publicURL: String?

    @Option(
        name: .customLong("news-base-url"),
        help: "A server that speaks the NewsAPI protocol (NEWSAPI_BASE_URL); the key is NEWSAPI_KEY."
    )
    var newsBaseURL: String?

    @Option(
        help: ArgumentHelp(
            "The package's documentation to serve at /docs: a DocC archive made for static hosting under docs.",
            discussion:
                "By default the one `swift package generate-documentation --enable-experimental-combined-documentation --transform-for-static-hosting --hosting-base-path docs` leaves in .build, when there is one."
        )
    )
    var docs: String?

    @Flag(
        help: ArgumentHelp(
            "Record the news reader's pipelines (typed text, query, request, response, HTTP exchanges) into the recording \"lab news\"; each run into one of its own.",
            discussion: "Watch it live at /recordings while typing in the news tab."
        )
    )
    var record = false

    var environment: [String: String] = ProcessInfo.processInfo.environment

    enum CodingKeys: CodingKey {
        case host, port, database, token, tokenFile, newToken, publicURL, newsBaseURL, docs, record
    }

    /// The documentation to serve: `--docs`, or the combined archive made for `/docs` in this
    /// folder's `.build`; nil when there is none. An archive made for static hosting (its
    /// `index.html` and `documentation` folder), not just any folder, is asked of a given
    /// path, so that a wrong one is named at start rather than answered 404 later.
    func documentation() throws -> URL? {
        let built = ".build/plugins/Swift-DocC/outputs/Tributary.doccarchive"
        let path = docs ?? built
        let archive = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: archive.appending(path: "index.html").path),
            FileManager.default.fileExists(
                atPath: archive.appending(path: "documentation").path,
                isDirectory: &isFolder
            ),
            isFolder.boolValue
        else {
            guard docs == nil else {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw ValidationError(
                        "--docs \(path) does not exist; the README's documentation command makes the archive."
                    )
                }
                throw ValidationError(
                    "--docs \(path) is not an archive made for /docs (one with index.html and a documentation folder); the README's documentation command makes one."
                )
            }
            return nil
        }
        return archive
    }

    func validate() throws {
        _ = try documentation()
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        if token != nil, tokenFile != nil { throw ValidationError("Give --token or --token-file, not both.") }
        if newToken, token != nil || tokenFile != nil {
            throw ValidationError("--new-token makes a token; give it without --token or --token-file.")
        }
        if let token = try givenToken(), token.count < 16 || token.contains(where: \.isWhitespace) {
            throw ValidationError("The token must be at least 16 characters, without spaces.")
        }
        if let text = publicURL ?? environment["TRIBUTARY_LAB_PUBLIC_URL"] {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
                url.host != nil,
                url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw ValidationError(
                    "The public URL \"\(text)\" is not an http or https address without a path, such as https://lab.example."
                )
            }
        }
        if let text = newsBaseURL ?? environment["NEWSAPI_BASE_URL"], NewsCommand.Connection.url(text) == nil
        {
            throw ValidationError("The news base URL \"\(text)\" is not an http or https URL.")
        }
    }

    func run() async throws {
        try await serve(console: .standard, shutdownSignals: [.sigint, .sigterm])
    }

    func serve(console: Console, shutdownSignals: [UnixSignal]) async throws {
        // Asked before the database and the token are made, so that a lab that cannot start
        // leaves nothing behind and says one thing.
        if PortCheck.isTaken(host: host, port: port) {
            console.note(Self.portInUse(port, host))
            throw ExitCode.failure
        }
        let store: any DocumentStore
        let place: String
        let tokenPlace: URL
        do {
            if let database, let url = URLComponents(string: database),
                ["postgres", "postgresql"].contains(url.scheme?.lowercased())
            {
                store = try PostgresDocumentStore(url: database)
                place = "PostgreSQL at \(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path)"
                tokenPlace = LabPaths.defaultDatabase(environment: environment).deletingLastPathComponent()
                    .appending(path: "postgres-lab.token")
            } else {
                let path =
                    database.map { URL(fileURLWithPath: $0) }
                    ?? LabPaths.defaultDatabase(environment: environment)
                try Self.makeFolder(of: path, console: console)
                store = try SQLiteDocumentStore(path: path.path)
                place = path.path
                tokenPlace = path.deletingLastPathComponent().appending(
                    path: path.lastPathComponent + ".token"
                )
            }
        } catch {
            console.note("error: \(error)")
            throw ExitCode.failure
        }
        let token: String
        if let given = try givenToken() {
            token = given
        } else {
            do {
                token = try LabTokenFile(url: tokenPlace).token(renewing: newToken, console: console)
            } catch {
                console.note("error: \(error)")
                throw ExitCode.failure
            }
        }
        var configuration = LabConfiguration(host: host, port: port)
        configuration.publicURL = (publicURL ?? environment["TRIBUTARY_LAB_PUBLIC_URL"]).flatMap {
            URL(string: $0.hasSuffix("/") ? String($0.dropLast()) : $0)
        }
        configuration.documentation = try documentation()
        let configured = configuration
        do {
            try await withNews(console: console) { news, origin in
                let lab = LabServer(store: store, token: token, news: news, configuration: configured)
                try await lab.run(shutdownSignals: shutdownSignals) { bound in
                    let url = configured.publicURL ?? bound
                    console.print("Tributary lab at \(url.absoluteString)/?token=\(token)")
                    console.note("Documents in \(place). \(origin)")
                    console.note(
                        configured.documentation == nil
                            ? "The package's documentation is not built; /docs says how to build it."
                            : "The package's documentation is at \(url.absoluteString)/docs"
                    )
                    if record {
                        // Each run records into a recording of its own: a run numbers its
                        // subscriptions and times from its start, which another run's events
                        // in the same recording would contradict.
                        let recording = await Self.freshRecordingName("lab news", in: store)
                        Lanes.recorder = LabLaneRecorder(
                            lab: Self.ownAddress(bound),
                            token: token,
                            recording: recording
                        )
                        console.note(
                            "The news reader's lanes are recorded into \"\(recording)\": \(url.absoluteString)/recordings"
                        )
                    }
                }
            }
            console.note("The lab stopped. Its documents are kept in \(place).")
        } catch let error as DocumentStoreError {
            console.note("error: \(error)")
            throw ExitCode.failure
        } catch {
            if "\(error)".contains("Address already in use") {
                console.note(Self.portInUse(port, host))
            } else {
                console.note("error: The lab cannot serve on \(host):\(port): \(error).")
            }
            throw ExitCode.failure
        }
    }

    /// Where this process reaches the lab it serves: the bound address, or loopback when it
    /// listens on every address.
    /// `name`, or the first of `name (2)`, `name (3)`… that no recording in `store` has yet.
    static func freshRecordingName(_ name: String, in store: any DocumentStore) async -> String {
        let taken = Set(((try? await store.recordings?.list(limit: 100_000)) ?? []).map(\.name))
        guard taken.contains(name) else { return name }
        return (2...).lazy.map { "\(name) (\($0))" }.first { !taken.contains($0) } ?? name
    }

    static func ownAddress(_ bound: URL) -> URL {
        guard var components = URLComponents(url: bound, resolvingAgainstBaseURL: false) else { return bound }
        switch components.host {
        case "0.0.0.0", nil: components.host = "127.0.0.1"
        case "::", "[::]": components.host = "[::1]"
        default: break
        }
        return components.url ?? bound
    }

    /// Makes the folder the database file goes in when it is missing, and says so: a mistyped
    /// path then shows at once, rather than as documents that seem to vanish.
    private static func makeFolder(of database: URL, console: Console) throws {
        let folder = database.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw FileError(
                    option: "--database",
                    path: database.path,
                    reason: "\(folder.path) is a file, not a folder"
                )
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FileError(
                option: "--database",
                path: database.path,
                reason: "its folder \(folder.path) cannot be made: \(FileError.reason(error))"
            )
        }
        console.note("Made the folder \(folder.path) for the database.")
    }

    /// The token given with --token, --token-file or TRIBUTARY_LAB_TOKEN, if any.
    private func givenToken() throws -> String? {
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw ValidationError("The token file \"\(tokenFile)\" cannot be read.")
            }
            return String(text.prefix { !$0.isNewline }).trimmingCharacters(in: .whitespaces)
        }
        return token ?? environment["TRIBUTARY_LAB_TOKEN"]
    }

    /// Runs `body` with the news reader's client — NewsAPI.org with a key, the server of
    /// --news-base-url, or a sandbox in this process — and a sentence that says which.
    private func withNews(console: Console, _ body: (LabNews, String) async throws -> Void) async throws {
        let key = environment["NEWSAPI_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let base = (newsBaseURL ?? environment["NEWSAPI_BASE_URL"]).flatMap(NewsCommand.Connection.url)
        let imageCache = LabPaths.defaultImageCache(environment: environment)
        try await AsyncHTTPClientTransport.withTransport { transport in
            if key == nil, base == nil {
                try await Sandbox.withRunning { url in
                    let news = try LabNews.reading(
                        baseURL: url,
                        apiKey: Sandbox.demoKey,
                        transport: transport,
                        trusted: HTTPOrigin(url).map { [$0] } ?? [],
                        imageCache: imageCache
                    )
                    try await body(
                        news,
                        "No NEWSAPI_KEY set: the news reader reads the built-in sandbox at \(url)."
                    )
                }
            } else {
                // A server the operator names is trusted as the sandbox is, wherever it is, and
                // without a key it is asked with the sandbox's demo key, as the CLI's news does.
                let news = try LabNews.reading(
                    baseURL: base ?? NewsClient.newsAPIBaseURL,
                    apiKey: key ?? Sandbox.demoKey,
                    transport: transport,
                    trusted: base.flatMap { HTTPOrigin($0) }.map { [$0] } ?? [],
                    imageCache: imageCache
                )
                try await body(
                    news,
                    "The news reader reads \((base ?? NewsClient.newsAPIBaseURL).absoluteString)."
                )
            }
        }
    }
}

extension LabCommand {
    static func portInUse(_ port: Int, _ host: String) -> String {
        "error: Port \(port) on \(host) is in use by another program: give the lab another with --port (0 picks a free one)."
    }
}
