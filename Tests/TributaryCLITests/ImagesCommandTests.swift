import ArgumentParser
import Foundation
import Testing
import TributaryImages
import TributaryTestSupport

@testable import TributaryCLI

/// `tributary images fetch` against the sandbox it starts in-process.
@Suite(
    .timeLimit(.minutes(5)),
    .unsanitized("starts sandboxes and CPU-bound; runs in the plain pass")
)
struct ImagesCommandTests {
    /// The progress bar is drawn only on a terminal: in a log every redraw would stay.
    @Test(arguments: [true, false])
    func fetchesThumbnailsSavesThemAndReportsFailures(onATerminal: Bool) async throws {
        let out = FileManager.default.temporaryDirectory.appending(path: "images-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        let command = try #require(
            try TributaryCommand.parseAsRoot([
                "images", "fetch", "/images/large.jpg", "/images/alpha.png", "/images/missing.jpg",
                "--thumbnail", "128", "--out", out.path,
            ]) as? ImagesCommand.Fetch
        )
        let capture = CapturedConsole(errorsAreInteractive: onATerminal)
        await #expect(throws: ExitCode.failure) { try await command.execute(console: capture.console) }
        let lines = capture.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("/images/large.jpg  JPEG 4000×3000 → 128×96  saved "))
        #expect(lines[1].contains("/images/alpha.png  PNG 800×600 → 128×96  saved "))
        #expect(capture.errors.contains("/6 images") == false)
        #expect(capture.errors.contains("[##############################] 3/3 images") == onATerminal)
        #expect(capture.errors.contains("\r") == onATerminal)
        #expect(capture.errors.contains("error: The image at http://127.0.0.1:"))
        #expect(capture.errors.contains("missing.jpg could not be loaded"))
        let thumbnail = try Bitmap(decoding: Data(contentsOf: out.appending(path: "large-128.jpg")))
        #expect(thumbnail.width == 128 && thumbnail.height == 96)
        let alpha = try Bitmap(decoding: Data(contentsOf: out.appending(path: "alpha-128.png")))
        #expect(alpha.hasTransparency)
    }

    /// An --out that cannot be a directory is refused with the reason, before anything loads.
    @Test func refusesAnOutputDirectoryItCannotUse() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "images-\(UUID())")
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for (path, reason) in [
            (file.path, "it is a file, not a directory"), (file.path + "/inside", "Not a directory"),
        ] {
            let command = try #require(
                try TributaryCommand.parseAsRoot(["images", "fetch", "/images/1.jpg", "--out", path])
                    as? ImagesCommand.Fetch
            )
            let capture = CapturedConsole(errorsAreInteractive: false)
            let error = await #expect(throws: FileError.self) {
                try await command.execute(console: capture.console)
            }
            #expect(error?.description == "--out \(path) cannot be used: \(reason).")
            #expect(capture.output.isEmpty && capture.errors.isEmpty, "no sandbox starts, no image loads")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "not a directory")
    }

    /// Every image is saved under a name of its own inside --out, whatever its URL says.
    @Test func savesEachImageUnderItsOwnNameInsideTheDirectory() async throws {
        let out = FileManager.default.temporaryDirectory.appending(path: "images-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        let command = try #require(
            try TributaryCommand.parseAsRoot([
                "images", "fetch", "/images/1.jpg", "/images/1.jpg", "/images/2.jpg", "--out", out.path,
            ])
                as? ImagesCommand.Fetch
        )
        let capture = CapturedConsole(errorsAreInteractive: false)
        try await command.execute(console: capture.console)
        let saved = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(saved == ["1-2.jpg", "1.jpg", "2.jpg"])

        let urls = [
            "http://h/a/..%2F..%2Fescape.jpg", "http://h/a/%2E%2E", "http://h/", "http://h/a/b%00c.jpg",
            "http://h/a/.hidden.jpg", "http://h/x/Photo.jpg", "http://h/y/photo.png",
            "http://h/z/photo-2.jpg",
            "http://h/" + String(repeating: "n", count: 300) + ".jpg",
        ].map { URL(string: $0)! }
        #expect(
            ImagesCommand.Fetch.fileStems(for: urls) == [
                "_.._escape", "image", "image-2", "b_c", "hidden", "Photo", "photo-2", "photo-2-2",
                String(repeating: "n", count: 100),
            ]
        )
    }

    /// An image that cannot be saved is reported with the system's reason; the others are saved.
    @Test func reportsAnImageItCannotSave() async throws {
        let out = FileManager.default.temporaryDirectory.appending(path: "images-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        try FileManager.default.createDirectory(
            at: out.appending(path: "1.jpg"),
            withIntermediateDirectories: true
        )
        let command = try #require(
            try TributaryCommand.parseAsRoot([
                "images", "fetch", "/images/1.jpg", "/images/2.jpg", "--out", out.path,
            ])
                as? ImagesCommand.Fetch
        )
        let capture = CapturedConsole(errorsAreInteractive: false)
        await #expect(throws: ExitCode.failure) { try await command.execute(console: capture.console) }
        #expect(capture.errors.contains("/images/1.jpg could not be saved: Is a directory\n"))
        #expect(capture.output.contains("/images/2.jpg  JPEG"))
        #expect(try Bitmap(decoding: Data(contentsOf: out.appending(path: "2.jpg"))).width > 0)
    }

    /// A server that cannot be reached is said to be so, in words, not in SwiftNIO's.
    @Test func saysWhenTheServerCannotBeReached() async throws {
        let command = try #require(
            try TributaryCommand.parseAsRoot(["images", "fetch", "http://127.0.0.1:1/a.jpg"])
                as? ImagesCommand.Fetch
        )
        let capture = CapturedConsole(errorsAreInteractive: false)
        await #expect(throws: ExitCode.failure) { try await command.execute(console: capture.console) }
        #expect(
            capture.errors.contains(
                "error: The image at http://127.0.0.1:1/a.jpg cannot be reached: the connection was refused: nothing is listening there."
            ),
            "\(capture.errors)"
        )
        #expect(!capture.errors.contains("errno"))
    }

    @Test(arguments: [
        ["images", "fetch"],
        ["images", "fetch", "ftp://example.com/a.jpg"],
        ["images", "fetch", "/images/1.jpg", "--thumbnail", "0"],
        ["images", "fetch", "//[::1"], ["images", "fetch", "//"], ["images", "fetch", "//:99999/x"],
    ])
    func refusesBadArguments(arguments: [String]) {
        let error = #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(arguments) }
        let message = error.map { TributaryCommand.message(for: $0) } ?? ""
        #expect(!message.isEmpty && !message.contains("\n"), "\(message)")
    }
}
