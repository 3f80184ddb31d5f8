import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection to a loopback port that sends exactly the bytes it is given — half a
/// request, a forged Host — and reads what comes back, as no polite HTTP client would.
final class RawConnection: @unchecked Sendable {
    // The descriptor is used by one test at a time.
    private let descriptor: Int32

    /// Connects to `port`; `receiveBuffer` sets the socket's receive buffer, so that a client
    /// that reads nothing takes little before the server has to hold the rest.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    /// Opens a WebSocket at `path` on `port` and reads what the lab sends until it closes:
    /// the lab's own bytes, whatever a client library would make of a connection that ends at
    /// once.
    static func webSocket(_ path: String, port: Int, token: String? = nil) async throws -> String {
        let connection = try RawConnection(port: port)
        connection.send(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n"
        )
        return await connection.readUntilClosed(timeout: .seconds(60)).text
    }

    func send(_ text: String) {
        send(bytes: Array(text.utf8))
    }

    func send(bytes: [UInt8]) {
        bytes.withUnsafeBytes { sendAll(descriptor, $0) }
    }

    /// The bytes the server sends until `isEnough` says so of them, it closes, or `timeout`
    /// passes, and whether it closed.
    func readBytes(
        timeout: Duration,
        until isEnough: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }
    ) async -> (bytes: [UInt8], closed: Bool) {
        await offPool { self.blockingRead(timeout: timeout, until: isEnough) }
    }

    /// Sends a JSON `POST` to `path` with the token, its remaining header lines, the blank line
    /// and any body all in `rest`, exactly as given.
    func post(_ path: String, token: String, _ rest: String) {
        send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\n" + rest
        )
    }

    /// Everything the server sends until it closes the connection or `timeout` passes; `closed`
    /// says whether it closed in order, not by a reset. The waiting happens on a thread of
    /// Dispatch's, never one the lab answers on.
    func readUntilClosed(timeout: Duration) async -> (text: String, closed: Bool) {
        await offPool {
            let read = self.blockingRead(timeout: timeout) { _ in false }
            return (String(decoding: read.bytes, as: UTF8.self), read.closed)
        }
    }

    /// What the server sends until `isEnough` says so of it, it closes, or `timeout` passes.
    func readUntil(timeout: Duration, _ isEnough: @escaping @Sendable (String) -> Bool) async -> String {
        await offPool {
            let read = self.blockingRead(timeout: timeout) { isEnough(String(decoding: $0, as: UTF8.self)) }
            return String(decoding: read.bytes, as: UTF8.self)
        }
    }

    /// The status code of the first answer to arrive within `timeout`.
    func status(timeout: Duration = .seconds(5)) async -> Int? {
        await offPool {
            let read = self.blockingRead(timeout: timeout) { Self.statusLine(in: $0) != nil }
            return Self.statusLine(in: read.bytes)
        }
    }

    private func offPool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }

    /// Reads until `isEnough` says so of everything read, the server closes, or `timeout` passes.
    private func blockingRead(
        timeout: Duration,
        until isEnough: ([UInt8]) -> Bool
    ) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(
                max(1, left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000)
            )
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            // An orderly close; a reset (-1) is not one, and can lose what was sent before it.
            if count == 0 { return (received, true) }
            if count < 0 { return (received, false) }
            received += buffer[0..<count]
            if isEnough(received) { return (received, false) }
        }
        return (received, false)
    }

    /// The status code of the first complete status line in `bytes`.
    private static func statusLine(in bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n"), text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text[..<end.lowerBound].split(separator: " ")[1])
    }
}

/// Sends every byte of `bytes`, or as many as the peer takes before it closes.
private func sendAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let start = bytes.baseAddress else { return }
    var sent = 0
    while sent < bytes.count {
        #if canImport(Glibc)
            let count = send(descriptor, start + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
        #else
            let count = send(descriptor, start + sent, bytes.count - sent, 0)
        #endif
        guard count > 0 else { return }
        sent += count
    }
}
