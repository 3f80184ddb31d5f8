import Foundation
import TributaryLab

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file beside the lab's database that keeps its token from one start to the next, so that
/// the printed link and the sessions it opened outlive a restart. It is made readable by its
/// owner alone (mode 0600), and replaced whole, never half-written.
struct LabTokenFile {
    let url: URL

    /// The kept token; a new one, kept, when there is none yet or `renewing`.
    func token(renewing: Bool, console: Console) throws -> String {
        if !renewing, FileManager.default.fileExists(atPath: url.path) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw FileError(option: "The token file", path: url.path, reason: "it cannot be read")
            }
            let token = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            guard token.count >= 16, !token.contains(where: \.isWhitespace) else {
                throw FileError(
                    option: "The token file",
                    path: url.path,
                    reason: "it holds no token of 16 characters or more; --new-token makes one"
                )
            }
            try keepPrivate(console: console)
            return token
        }
        let token = LabServer.makeToken()
        try write(token)
        console.note(
            renewing
                ? "A new token, kept in \(url.path): the old link and its sessions no longer work."
                : "The token is kept in \(url.path), for the next start (--new-token replaces it)."
        )
        return token
    }

    /// Makes a token file that others could read, or write, its owner's alone, and says so.
    private func keepPrivate(console: Console) throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let mode = (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? 0o600
        guard mode & 0o077 != 0 else { return }
        do {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw FileError(option: "The token file", path: url.path, reason: FileError.reason(error))
        }
        console.note(
            "The token file \(url.path) could be read by others; it is now its owner's alone (mode 0600)."
        )
    }

    /// Writes `token` to a new file only its owner can read, then puts it in place.
    private func write(_ token: String) throws {
        let temporary = url.deletingLastPathComponent().appending(
            path: ".\(url.lastPathComponent).\(UUID().uuidString)"
        )
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw FileError(option: "--token-file", path: url.path, reason: String(cString: strerror(errno)))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data((token + "\n").utf8))
            try handle.close()
        } catch {
            unlink(temporary.path)
            throw FileError(option: "--token-file", path: url.path, reason: FileError.reason(error))
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw FileError(option: "--token-file", path: url.path, reason: reason)
        }
    }
}
