#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open descriptors, of which every connection takes one: the lab
/// raises it as far as it may and keeps its connection limit below it, with a reserve for
/// what else it opens — the store, the pictures' and the news' connections, its own sockets —
/// so that past its limit a connection is answered `503`, not left unaccepted with the
/// descriptors gone (systemd's default soft limit is 1,024, below the lab's 4,096).
enum DescriptorLimit {
    /// The descriptors kept for what is not a client's connection, at the least.
    static let reserve = 128

    /// Of the reserve, the connections past the limit that are accepted to be answered `503`;
    /// past these none is accepted until some close.
    static let turnedAway = 64

    /// Raises the soft limit to the hard one, where the system allows, and returns the soft
    /// limit in force.
    static func raise() -> Int {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            let limit = UnsafeMutablePointer<rlimit>.allocate(capacity: 1)
            defer { limit.deallocate() }
            #if canImport(Glibc)
                let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
            #else
                let resource = RLIMIT_NOFILE
            #endif
            guard getrlimit(resource, limit) == 0 else { return .max }
            if limit.pointee.rlim_cur < limit.pointee.rlim_max {
                let soft = limit.pointee.rlim_cur
                limit.pointee.rlim_cur = limit.pointee.rlim_max
                // Darwin refuses a soft limit past OPEN_MAX even under an unlimited hard one.
                if setrlimit(resource, limit) != 0 { limit.pointee.rlim_cur = soft }
            }
            // RLIM_INFINITY is the largest value the type holds.
            return limit.pointee.rlim_cur == .max ? .max : Int(clamping: limit.pointee.rlim_cur)
        #else
            return .max
        #endif
    }

    /// The most connections the lab takes with `descriptors` in force: `configured`, or fewer
    /// where the descriptors would run out first.
    static func connections(configured: Int, descriptors: Int) -> Int {
        guard descriptors < .max else { return configured }
        return max(1, min(configured, descriptors - max(reserve, descriptors / 8)))
    }
}
