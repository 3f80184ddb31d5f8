public import Foundation

/// The first line of a recording's file, as `GET /api/recordings/{id}/export` writes it and
/// `POST /api/recordings/import` reads it.
///
/// The file is newline-delimited JSON (`application/x-ndjson`): this header, then each event as
/// one ``RecordedLaneEvent`` a line, in the order the recording holds them.
///
/// ```json
/// {"dropped":0,"events":2,"format":"tributary-recording","name":"search screen","version":1}
/// {"kind":"subscribed","lane":"query","source":"Search.swift:14","subscription":1,"t":0.12}
/// {"kind":"value","lane":"query","source":"Search.swift:14","subscription":1,"t":0.43,"value":"swift"}
/// ```
public struct RecordingFileHeader: Sendable, Hashable, Codable {
    /// What every recording's file names as its format.
    public static let formatName = "tributary-recording"
    /// The version of the format this lab writes and reads.
    public static let currentVersion = 1

    /// The file's format; the lab reads only files that name ``formatName``.
    public var format: String
    /// The version of the format the file is written in; this lab reads only ``currentVersion``.
    public var version: Int
    /// The recording's name.
    public var name: String
    /// How many events follow, one a line.
    public var events: Int
    /// How many events its recorders could not keep.
    public var dropped: Int

    /// Makes the header of a file in this lab's format and version.
    ///
    /// - Parameters:
    ///   - name: The recording's name.
    ///   - events: How many events follow, one a line.
    ///   - dropped: How many events its recorders could not keep.
    public init(name: String, events: Int, dropped: Int) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.name = name
        self.events = events
        self.dropped = dropped
    }

    /// The header as one line of JSON, its keys sorted, with its newline.
    public func line() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = (try? encoder.encode(self)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
