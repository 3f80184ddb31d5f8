public import Foundation

/// Where the lab listens, the names it answers to, and the limits that keep anyone who reaches
/// its port from crashing, stalling or exhausting it.
///
/// ```swift
/// var configuration = LabConfiguration(host: "0.0.0.0", port: 8080)
/// configuration.publicURL = URL(string: "https://lab.example")
/// ```
public struct LabConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The address people reach the lab at when it sits behind a proxy: one of its names, the
    /// origin its pages write from, and the link it prints.
    public var publicURL: URL?
    /// Further host names the lab answers to; `localhost`, IP addresses, ``host`` and the
    /// ``publicURL``'s host always count.
    public var names: Set<String> = []
    /// The largest request body accepted, in bytes.
    public var maximumBodySize = 1 << 20
    /// What one run of a document may spend.
    public var runs = RunBudget()
    /// The most connections open at once; more are closed as they arrive.
    public var maximumConnections = 4_096
    /// The most connections open at once from one block of addresses — an IPv4 /24, an IPv6
    /// /64 — so that one party cannot take them all.
    public var maximumConnectionsPerAddress = 512
    /// The most live WebSocket connections at once, and from one remote address.
    public var maximumLiveConnections = 2_048
    /// The most live WebSocket connections from one block of addresses (an IPv4 /24, an IPv6 /64).
    public var maximumLiveConnectionsPerAddress = 256
    /// The WebSocket frames a second the pages and viewers of one block of addresses may send
    /// together (recorders, with the token, are held to their own connections' limits); past
    /// it, the connection that sends one more is closed with `1008`.
    public var maximumFramesPerSecondPerAddress = 500
    /// The most bytes waiting for one live viewer that does not read; past it the viewer is
    /// disconnected.
    public var viewerBufferBytes = 4 << 20
    /// How long a connection may stay without a complete request: a request head must arrive
    /// within it, and an idle keep-alive connection closes after it.
    public var idleTimeout: Duration = .seconds(15)
    /// How long a connection's answers may wait for its client to read any of them; past it
    /// the connection closes.
    public var writeTimeout: Duration = .seconds(15)
    /// The most bytes the lab holds for every client together of WebSocket frames still
    /// arriving; past it, the connection holding the most is closed.
    public var clientMemoryBytes = 64 << 20
    /// The most bytes of encoded documents kept for reads.
    public var documentCacheBytes = 64 << 20
    /// The most events one recording holds; a recorder past it is told the recording is full.
    public var maximumRecordingEvents = 1_000_000
    /// The package's documentation, a DocC archive made for static hosting under `docs`,
    /// served at `/docs` when given:
    /// `swift package --disable-sandbox generate-documentation --enable-experimental-combined-documentation --transform-for-static-hosting --hosting-base-path docs`
    /// with every library target, as the README says.
    public var documentation: URL?
    /// The largest recording's file `POST /api/recordings/import` reads, in bytes.
    public var maximumImportBytes = 256 << 20

    /// A lab on `host` and `port` (`0` for any free port), with every other setting at its
    /// default.
    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }

    /// Whether `host`, as a Host header names it without its port, is one of the lab's names.
    /// An IP address is: a page at another site reaches the lab only through a name that
    /// resolves to it, which is what a rebinding attack relies on.
    func isOwnName(_ host: String) -> Bool {
        // Checked on every request: an address, the usual case, is read without making a string.
        if Self.isIPAddress(host) { return true }
        let name = host.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        if name == self.host.lowercased() { return true }
        if let own = publicURL?.host?.lowercased(), own == name { return true }
        return names.contains { $0.lowercased() == name }
    }

    /// Whether `name` is an IPv6 address (it has a colon) or a dotted IPv4 one: four numbers
    /// up to 255, none written with a leading zero.
    static func isIPAddress(_ name: String) -> Bool {
        if name.utf8.contains(UInt8(ascii: ":")) { return true }
        var dots = 0
        var value = 0
        var digits = 0
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                guard digits > 0, dots < 3 else { return false }
                dots += 1
                value = 0
                digits = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // A leading zero is refused: some readers take 010 for eight.
                guard digits == 0 || value > 0 else { return false }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard digits <= 3, value <= 255 else { return false }
            default: return false
            }
        }
        return dots == 3 && digits > 0
    }
}

/// What a run of a document may spend: real time, events, and the bytes of what it answers
/// (timeline, marbles or SVG). Runs wait for one of `workers` threads of their own; when
/// `queueLength` are already waiting, another is refused at once.
public struct RunBudget: Sendable {
    /// The longest a run may take, in real time.
    public var time: Duration = .seconds(2)
    /// The most events a run may record.
    public var events = 50_000
    /// The most bytes of output an answer may have.
    public var outputBytes = 4 << 20
    /// The most operators and streams a run may subscribe to.
    public var operators = 20_000
    /// Threads that run documents, beside the server's own.
    public var workers = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Runs that may wait for a thread.
    public var queueLength = 16
    /// Recordings replayed into a document, a diagram or a test at once: each reads up to
    /// 100,000 events before its run. More are answered `503 busy`.
    public var replays = 2

    /// The default budget: 2 seconds, 50,000 events, 4 MiB of output and 20,000 operators a run.
    public init() {}
}
