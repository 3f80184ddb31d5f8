import ArgumentParser
import Foundation
import Testing
import TributaryImages

@testable import TributaryCLI

/// `tributary images fetch` against the sandbox it starts in-process.
@Suite(.timeLimit(.minutes(1)))
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

    @Test(arguments: [
        ["images", "fetch"],
        ["images", "fetch", "ftp://example.com/a.jpg"],
        ["images", "fetch", "/images/1.jpg", "--thumbnail", "0"],
    ])
    func refusesBadArguments(arguments: [String]) {
        #expect(throws: (any Error).self) { try TributaryCommand.parseAsRoot(arguments) }
    }
}
