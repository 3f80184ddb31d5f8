import ArgumentParser
import Foundation
import Tributary
import TributaryAsyncHTTPClient
import TributaryImages
import TributarySandbox

/// `tributary images`: the image pipeline from the command line.
struct ImagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images",
        abstract: "Load images through Tributary's image pipeline.",
        subcommands: [Fetch.self]
    )

    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch, decode and optionally thumbnail images; save them with --out.",
            discussion: """
                Each URL is an http or https URL, or a path such as /images/12.jpg, which is read \
                from a sandbox started in this process. Images load concurrently, sharing \
                downloads; a failed image is reported and the others still load. On a terminal, \
                a progress bar shows images done and bytes received.
                """
        )

        @Argument(help: "The images' URLs, or sandbox paths starting with /.")
        var urls: [String]

        @Option(help: "Scale each image to fit in a square this many pixels wide.")
        var thumbnail: Int?

        @Option(help: "A directory to save the images in, as PNG or JPEG like the original.")
        var out: String?

        func validate() throws {
            if urls.isEmpty { throw ValidationError("Give at least one image URL.") }
            if let thumbnail, !(1...8_000).contains(thumbnail) {
                throw ValidationError("--thumbnail must be between 1 and 8000 pixels.")
            }
            let anyBase = URL(string: "http://127.0.0.1")
            for text in urls where Self.resolve(text, base: anyBase) == nil {
                throw ValidationError("\"\(text)\" is neither an http(s) URL nor a sandbox path.")
            }
        }

        func run() async throws {
            try await execute(console: .standard)
        }

        func execute(console: Console) async throws {
            let directory = try out.map(Self.outputDirectory)
            let failures: Int
            if urls.contains(where: { $0.hasPrefix("/") }) {
                failures = try await Sandbox.withRunning { base in
                    let origin = base.deletingLastPathComponent().absoluteString
                    console.note("Reading sandbox paths from the built-in sandbox at \(origin).")
                    return try await fetchAll(base: base, saving: directory, console: console)
                }
            } else {
                failures = try await fetchAll(base: nil, saving: directory, console: console)
            }
            if failures > 0 { throw ExitCode.failure }
        }

        /// An http(s) URL as it is, or a path starting with `/` on the sandbox at `base`.
        static func resolve(_ text: String, base: URL?) -> URL? {
            guard text.hasPrefix("/") else { return NewsCommand.Connection.url(text) }
            guard let base, let url = URL(string: text, relativeTo: base)?.absoluteURL,
                url.host?.isEmpty == false
            else {
                return nil
            }
            return url
        }

        /// Loads every image; returns how many failed.
        private func fetchAll(base: URL?, saving directory: URL?, console: Console) async throws -> Int {
            let processors: [any ImageProcessing] =
                thumbnail.map { [ImageProcessors.Resize(maximumPixelSize: $0)] } ?? []
            let resolved = try urls.map { text in
                guard let url = Self.resolve(text, base: base) else {
                    throw ValidationError("\"\(text)\" is neither an http(s) URL nor a sandbox path.")
                }
                return url
            }
            let stems = Self.fileStems(for: resolved)
            let bar = ProgressBar(total: resolved.count, console: console)
            return try await AsyncHTTPClientTransport.withTransport { transport in
                let pipeline = ImagePipeline(
                    configuration: .init(dataLoader: DataLoader(transport: transport))
                )
                return await withTaskGroup(of: (Int, String, Bool).self) { group in
                    for (index, url) in resolved.enumerated() {
                        group.addTask {
                            let request = ImageRequest(url: url, processors: processors)
                            let task = pipeline.imageTask(with: request)
                            let watching = Task {
                                for await progress in task.progress { bar.update(index, progress) }
                            }
                            defer { watching.cancel() }
                            let response: ImageResponse
                            do throws(ImagePipeline.Error) {
                                response = try await task.response
                            } catch {
                                return (index, "error: \(error)", false)
                            }
                            do {
                                let saving = directory.map { ($0, stems[index]) }
                                return (index, try Self.describe(response, saving: saving), true)
                            } catch {
                                return (
                                    index,
                                    "error: \(url.absoluteString) could not be saved: \(FileError.reason(error))",
                                    false
                                )
                            }
                        }
                    }
                    var lines = [String?](repeating: nil, count: resolved.count)
                    var failures = 0
                    for await (index, line, succeeded) in group {
                        lines[index] = line
                        if !succeeded { failures += 1 }
                        bar.finish(index)
                    }
                    bar.end()
                    for (line, url) in zip(lines, resolved) {
                        let text = line ?? "error: \(url.absoluteString) was not loaded"
                        if text.hasPrefix("error:") { console.note(text) } else { console.print(text) }
                    }
                    return failures
                }
            }
        }

        /// The directory `path` names, created if it does not exist yet.
        private static func outputDirectory(_ path: String) throws(FileError) -> URL {
            let directory = URL(fileURLWithPath: path, isDirectory: true)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                throw FileError(option: "--out", path: path, reason: "it is a file, not a directory")
            }
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw FileError(option: "--out", path: path, reason: FileError.reason(error))
            }
            return directory
        }

        /// A distinct file name stem for each of `urls`: its last path component without the
        /// extension, made safe for a file name, then `-2`, `-3`… where names repeat.
        static func fileStems(for urls: [URL]) -> [String] {
            var used: Set<String> = []
            return urls.map { url in
                let stem = fileStem(for: url)
                var candidate = stem
                var number = 2
                // Compared without case, for file systems that ignore it.
                while !used.insert(candidate.lowercased()).inserted {
                    candidate = "\(stem)-\(number)"
                    number += 1
                }
                return candidate
            }
        }

        /// `url`'s last path component without the extension, as a name that stays inside the
        /// directory: separators and control characters become `_`, leading dots go (no `..`,
        /// no hidden files), and at most 100 characters remain; `image` when nothing does.
        static func fileStem(for url: URL) -> String {
            // The root's last path component is "/" itself, which names nothing.
            let last = url.deletingPathExtension().lastPathComponent
            let component = last == "/" ? "" : last
            let safe = component.unicodeScalars.map { scalar -> Character in
                scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control
                    ? "_" : Character(scalar)
            }
            let stem = String(safe.drop { $0 == "." }.prefix(100))
            return stem.isEmpty ? "image" : stem
        }

        /// One line about a loaded image, after saving it in a directory under a stem if asked.
        private static func describe(
            _ response: ImageResponse,
            saving: (directory: URL, stem: String)?
        ) throws -> String {
            let image = response.image
            let original = response.original
            var line = response.request.url.absoluteString
            if let original { line += "  \(original.format) \(original.uprightSize)" }
            if original?.uprightSize != PixelSize(width: image.width, height: image.height) {
                line += " → \(image.width)×\(image.height)"
            }
            guard let (directory, stem) = saving else { return line }
            let asPNG = original?.format == .png || image.hasTransparency
            let name =
                "\(stem)\(response.request.processors.isEmpty ? "" : "-\(image.width)").\(asPNG ? "png" : "jpg")"
            let file = directory.appending(path: name)
            try (asPNG ? image.pngData() : image.jpegData(quality: 90)).write(to: file, options: .atomic)
            return line + "  saved \(file.path)"
        }
    }
}

/// A one-line progress bar on standard error for batches, redrawn in place: images done and
/// bytes received. It is drawn only when standard error is a terminal.
final class ProgressBar: Sendable {
    private struct State {
        var received: [Int: Int] = [:]
        var done = 0
        var lastDrawn = ContinuousClock.now - .seconds(1)
    }

    private let total: Int
    private let console: Console
    private let isShown: Bool
    private let state = Protected(State())

    init(total: Int, console: Console) {
        self.total = total
        self.console = console
        isShown = total > 1 && console.errorsAreInteractive
    }

    func update(_ index: Int, _ progress: ImageProgress) {
        draw { $0.received[index] = progress.completed }
    }

    func finish(_ index: Int) {
        draw(force: true) { $0.done += 1 }
    }

    func end() {
        if isShown { console.write("\n", isError: true) }
    }

    private func draw(force: Bool = false, _ change: (inout State) -> Void) {
        guard isShown else { return }
        let line = state.withLock { state -> String? in
            change(&state)
            let now = ContinuousClock.now
            guard force || now - state.lastDrawn > .milliseconds(100) else { return nil }
            state.lastDrawn = now
            let width = 30
            let filled = width * state.done / total
            let bytes = state.received.values.reduce(0, +)
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            return "\r[\(bar)] \(state.done)/\(counted(total, "image")), \(bytes / 1024) KiB"
        }
        if let line { console.write(line, isError: true) }
    }
}
