import Foundation
import Tributary

/// Where commands write: standard output and standard error, or a capture in tests.
final class Console: Sendable {
    private let write: @Sendable (_ text: String, _ isError: Bool) -> Void
    /// Whether standard error is a terminal, where a line can be redrawn in place; in a log
    /// file or a pipe every redraw would stay.
    let errorsAreInteractive: Bool

    init(
        errorsAreInteractive: Bool = false,
        write: @escaping @Sendable (_ text: String, _ isError: Bool) -> Void
    ) {
        self.errorsAreInteractive = errorsAreInteractive
        self.write = write
    }

    /// The process's standard output and standard error.
    static let standard = Console(errorsAreInteractive: isatty(STDERR_FILENO) == 1) { text, isError in
        let handle = isError ? FileHandle.standardError : FileHandle.standardOutput
        // A closed pipe is the reader's choice, not a reason to stop.
        try? handle.write(contentsOf: Data(text.utf8))
    }

    /// Writes a line to standard output, its control characters shown rather than obeyed.
    func print(_ line: String) { write(Self.visible(line) + "\n", false) }

    /// Writes a line to standard error, its control characters shown rather than obeyed.
    func note(_ line: String) { write(Self.visible(line) + "\n", true) }

    /// Writes `value` as indented JSON with sorted keys to standard output.
    func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        printJSON(text: String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Writes JSON text to standard output, every control character in it escaped as JSON
    /// escapes it (`\u0092`), so that the output is still JSON and drives no terminal.
    func printJSON(text: String) { write(Self.jsonEscaped(text) + "\n", false) }

    /// `json` with the control characters JSON allows raw in strings (U+007F to U+009F, the
    /// bidirectional overrides, and any other but a line break or a tab) written as `\uXXXX`.
    /// Outside its strings JSON has no such characters, so the result is the same JSON.
    static func jsonEscaped(_ json: String) -> String {
        replacingControls(in: json) { value in
            let hex = String(value, radix: 16, uppercase: false)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `text` with every control character but line breaks and tabs written as `\u{…}`: what a
    /// command prints comes from servers and documents, whose escape sequences must not drive
    /// the terminal.
    static func visible(_ text: String) -> String {
        replacingControls(in: text) { "\\u{\(String($0, radix: 16, uppercase: true))}" }
    }

    /// `text` with each control character ``isControl(_:)`` names written as `written` says.
    private static func replacingControls(in text: String, _ written: (UInt32) -> String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                shown.append(contentsOf: written(scalar.value).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional overrides, which reorder what is shown
        default: false
        }
    }

    /// Writes text as it is, such as a progress bar redrawn with a carriage return.
    func write(_ text: String, isError: Bool) { write(text, isError) }
}

/// A console that keeps what is written, for tests.
final class CapturedConsole: Sendable {
    private let lines = Protected<(output: String, errors: String)>(("", ""))
    private let errorsAreInteractive: Bool

    /// A console whose standard error is a terminal or not.
    init(errorsAreInteractive: Bool = false) {
        self.errorsAreInteractive = errorsAreInteractive
    }

    var console: Console {
        Console(errorsAreInteractive: errorsAreInteractive) { text, isError in
            self.lines.withLock { lines in
                if isError { lines.errors += text } else { lines.output += text }
            }
        }
    }

    var output: String { lines.withLock { $0.output } }
    var errors: String { lines.withLock { $0.errors } }
}

/// `count` and the noun for that many: `1 entry`, `2 entries`, `0 stories`.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
