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
        handle.write(Data(text.utf8))
    }

    /// Writes a line to standard output.
    func print(_ line: String) { write(line + "\n", false) }

    /// Writes a line to standard error.
    func note(_ line: String) { write(line + "\n", true) }

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
