import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which addresses a client may reach: everything, as a command-line tool on one's own machine
/// expects, or only the public internet, as a server that fetches addresses its users typed
/// must.
///
/// ```swift
/// // A server fetching feeds and images whose URLs came from its users:
/// var client = APIClient(baseURL: base, transport: AsyncHTTPClientTransport())
/// client.addressPolicy = .publicOnly(allowing: [HTTPOrigin(sandboxURL)!])
/// ```
///
/// ``publicOnly(allowing:)`` allows `http` and `https` only, resolves the host name and
/// refuses it when any of its addresses is loopback, private, link-local, unique-local,
/// multicast or otherwise not a public unicast address. Every redirect is checked the same way
/// before it is followed. A host that resolves to a public address first and to a private one
/// when the transport connects (DNS rebinding) is covered too: `AsyncHTTPClientTransport`
/// connects to the address that was checked for `http`; for `https` the certificate must be
/// valid for the host name, which no machine inside the network holds.
public struct AddressPolicy: Sendable {
    /// The origins reached whatever their address, such as a server's own in-process sandbox.
    public var allowedOrigins: Set<HTTPOrigin>
    private let restrictsAddresses: Bool

    /// Every address, and every scheme the transport speaks.
    public static let unrestricted = AddressPolicy(allowedOrigins: [], restrictsAddresses: false)

    /// Only `http` and `https` to public unicast addresses, and the origins in `allowing`.
    public static func publicOnly(allowing origins: Set<HTTPOrigin> = []) -> AddressPolicy {
        AddressPolicy(allowedOrigins: origins, restrictsAddresses: true)
    }

    /// Whether this policy limits what may be reached.
    public var isRestricted: Bool { restrictsAddresses }

    /// The addresses `origin` may be reached at: empty when the policy does not restrict it,
    /// else every address its host resolves to, all of them public.
    ///
    /// - Throws: ``TransportFailure/addressNotAllowed(host:reason:)`` when the origin or one of
    ///   its addresses is not allowed, or the host cannot be resolved.
    package func check(_ origin: HTTPOrigin?) async throws(TransportFailure) -> [IPAddress] {
        guard restrictsAddresses else { return [] }
        guard let origin else {
            throw .addressNotAllowed(host: "", reason: "only http and https URLs with a host may be fetched")
        }
        if allowedOrigins.contains(origin) { return [] }
        let addresses: [IPAddress]
        if let literal = IPAddress(origin.host) {
            addresses = [literal]
        } else {
            addresses = await Self.resolve(origin.host)
            if addresses.isEmpty {
                throw .addressNotAllowed(host: origin.host, reason: "its name does not resolve to an address")
            }
        }
        if let refused = addresses.first(where: { !$0.isPublic }) {
            throw .addressNotAllowed(
                host: origin.host,
                reason: "it resolves to \(refused), which is not a public address"
            )
        }
        return addresses
    }

    /// The addresses `host` resolves to, looked up on a thread of its own: the system resolver
    /// blocks, and the cooperative pool's threads are shared by every task.
    static func resolve(_ host: String) async -> [IPAddress] {
        await withCheckedContinuation { continuation in
            resolverQueue.async {
                continuation.resume(returning: lookUp(host))
            }
        }
    }

    private static let resolverQueue = DispatchQueue(label: "TributaryHTTP.resolver", attributes: .concurrent)

    private static func lookUp(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr, let parsed = IPAddress(address) {
                if !addresses.contains(parsed) { addresses.append(parsed) }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}

/// An IPv4 or IPv6 address, and what kind of network it belongs to.
package enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    case v6([UInt8])

    /// Parses a literal address; IPv6 may stand in brackets.
    package init?(_ text: String) {
        var text = text
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
        } else {
            return nil
        }
    }

    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let value = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                $0.pointee.sin_addr.s_addr
            }
            self = .v4(UInt32(bigEndian: value))
        case AF_INET6:
            var value = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self = .v6(withUnsafeBytes(of: &value) { Array($0) })
        default:
            return nil
        }
    }

    /// Whether the address is a public unicast one: not loopback, unspecified, private,
    /// shared (carrier-grade NAT), link-local, unique-local, multicast, broadcast, reserved or
    /// set aside for documentation and benchmarks; an IPv6 address that embeds an IPv4 one is
    /// judged by it.
    package var isPublic: Bool {
        switch self {
        case .v4(let address):
            return !Self.nonPublicV4.contains { address & $0.mask == $0.network }
        case .v6(let bytes):
            if let embedded = Self.embeddedV4(bytes) { return IPAddress.v4(embedded).isPublic }
            let high = bytes.prefix(2).reduce(0) { UInt16($0) << 8 | UInt16($1) }
            if bytes.dropLast().allSatisfy({ $0 == 0 }) { return false }  // :: and ::1
            if high & 0xFE00 == 0xFC00 { return false }  // fc00::/7 unique local
            if high & 0xFFC0 == 0xFE80 || high & 0xFFC0 == 0xFEC0 { return false }  // link and site local
            if high & 0xFF00 == 0xFF00 { return false }  // multicast
            if high == 0x2001 && bytes[2] == 0x0D && bytes[3] == 0xB8 { return false }  // documentation
            if high == 0x0100 && bytes[2...7].allSatisfy({ $0 == 0 }) { return false }  // discard-only
            return high & 0xE000 == 0x2000  // global unicast is 2000::/3
        }
    }

    /// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible, NAT64
    /// (`64:ff9b::/96`) or 6to4 (`2002::/16`) address.
    private static func embeddedV4(_ bytes: [UInt8]) -> UInt32? {
        func v4(at offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let zeroPrefix = bytes[0..<10].allSatisfy { $0 == 0 }
        if zeroPrefix && bytes[10] == 0xFF && bytes[11] == 0xFF { return v4(at: 12) }
        if zeroPrefix && bytes[10] == 0 && bytes[11] == 0 && v4(at: 12) > 1 { return v4(at: 12) }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return v4(at: 12) }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return v4(at: 2) }
        return nil
    }

    private static let nonPublicV4: [(network: UInt32, mask: UInt32)] = [
        (0x0000_0000, 0xFF00_0000),  // 0.0.0.0/8, "this network", which reaches the local host
        (0x0A00_0000, 0xFF00_0000),  // 10.0.0.0/8
        (0x6440_0000, 0xFFC0_0000),  // 100.64.0.0/10, carrier-grade NAT
        (0x7F00_0000, 0xFF00_0000),  // 127.0.0.0/8
        (0xA9FE_0000, 0xFFFF_0000),  // 169.254.0.0/16, link local and cloud metadata
        (0xAC10_0000, 0xFFF0_0000),  // 172.16.0.0/12
        (0xC000_0000, 0xFFFF_FF00),  // 192.0.0.0/24, protocol assignments
        (0xC000_0200, 0xFFFF_FF00),  // 192.0.2.0/24, documentation
        (0xC0A8_0000, 0xFFFF_0000),  // 192.168.0.0/16
        (0xC612_0000, 0xFFFE_0000),  // 198.18.0.0/15, benchmarking
        (0xC633_6400, 0xFFFF_FF00),  // 198.51.100.0/24, documentation
        (0xCB00_7100, 0xFFFF_FF00),  // 203.0.113.0/24, documentation
        (0xE000_0000, 0xF000_0000),  // 224.0.0.0/4, multicast
        (0xF000_0000, 0xF000_0000),  // 240.0.0.0/4, reserved, and the broadcast address
    ]

    /// The address as it stands in a URL's host: IPv6 in brackets.
    package var urlHost: String {
        if case .v6 = self { return "[\(description)]" }
        return description
    }

    package var description: String {
        switch self {
        case .v4(let address):
            return [24, 16, 8, 0].map { String((address >> $0) & 0xFF) }.joined(separator: ".")
        case .v6(var bytes):
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            _ = inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count))
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
