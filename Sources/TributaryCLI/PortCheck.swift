#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a server could listen on a port, asked before anything is made for it.
enum PortCheck {
    /// Whether something already listens on `port` of `host`: a listening socket is bound to it
    /// and let go at once, with the address reuse the lab's server uses, so that connections
    /// of an earlier run that are closing do not count. Unknown when `host` does not resolve,
    /// which the server then says itself.
    static func isTaken(host: String, port: Int) -> Bool {
        guard (1...65_535).contains(port) else { return false }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return false }
        defer { freeaddrinfo(first) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            return errno == EADDRINUSE
        }
        return listen(descriptor, 1) != 0 && errno == EADDRINUSE
    }
}
