import TributaryHTTP

/// The block of addresses a caller's address belongs to, as the lab's per-caller limits count
/// callers: an IPv4 address's /24 and an IPv6 address's /64 (an IPv4-mapped one as IPv4), since
/// one party commonly holds a whole such block and could otherwise take a limit once per address.
enum AddressBlock {
    static func of(_ host: String) -> String {
        switch IPAddress(host) {
        case .v4(let address)?:
            return v4(address)
        case .v6(let bytes)?
        where bytes[..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF:
            return v4(bytes[12...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        case .v6(let bytes)?:
            let groups = stride(from: 0, to: 8, by: 2).map {
                String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
            }
            return groups.joined(separator: ":") + "::/64"
        case nil:
            return host
        }
    }

    private static func v4(_ address: UInt32) -> String {
        "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).0/24"
    }
}
