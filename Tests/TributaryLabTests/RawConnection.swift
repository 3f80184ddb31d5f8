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

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
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

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it closes the connection or `timeout` passes; `closed`
    /// says which. The waiting happens on a thread of Dispatch's, never one the lab answers on.
    func readUntilClosed(timeout: Duration) async -> (text: String, closed: Bool) {
        await offPool { self.blockingReadUntilClosed(timeout: timeout) }
    }

    /// The status code of the first answer to arrive within `timeout`.
    func status(timeout: Duration = .seconds(5)) async -> Int? {
        await offPool { self.blockingStatus(timeout: timeout) }
    }

    private func offPool<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }

    private func blockingReadUntilClosed(timeout: Duration) -> (text: String, closed: Bool) {
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
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    private func blockingStatus(timeout: Duration) -> Int? {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            if let line = text.split(separator: "\r\n").first, line.hasPrefix("HTTP/1.1 "),
                text.contains("\r\n")
            {
                return Int(line.split(separator: " ")[1])
            }
        }
        return nil
    }
}
