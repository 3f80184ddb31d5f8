import Foundation

/// A path given on the command line that cannot be used, with the system's reason.
struct FileError: Error, CustomStringConvertible {
    var option: String
    var path: String
    var reason: String

    var description: String { "\(option) \(path) cannot be used: \(reason)." }

    /// The operating system's own words for a file-system error, such as "Permission denied",
    /// rather than the error's full description.
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        let posix = [error, underlying].compactMap { $0 }.first { $0.domain == NSPOSIXErrorDomain }
        return posix.map { String(cString: strerror(Int32($0.code))) } ?? error.localizedDescription
    }
}
