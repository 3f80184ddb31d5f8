import NIOCore
import Testing
import TributaryLabWire

@testable import TributaryLab

/// The encoded documents kept for reads are bounded in bytes, the least recently read leaving
/// first.
struct DocumentBodiesTests {
    @Test func keepsNoMoreBytesThanItsCapacity() {
        let bodies = DocumentBodies(capacity: 1_000)
        let body = ByteBuffer(repeating: 0x41, count: 400)
        for index in 0..<10 { bodies.keep(body, of: .named("d\(index)"), version: 1) }
        #expect(bodies.bytes <= 1_000)
        #expect(
            bodies.body(of: .named("d9"), version: 1) != nil
                && bodies.body(of: .named("d0"), version: 1) == nil
        )
        // Reading one makes it the last to go.
        _ = bodies.body(of: .named("d8"), version: 1)
        bodies.keep(body, of: .named("d10"), version: 1)
        #expect(
            bodies.body(of: .named("d8"), version: 1) != nil
                && bodies.body(of: .named("d9"), version: 1) == nil
        )
        // A body larger than the whole capacity is not kept at all.
        bodies.keep(ByteBuffer(repeating: 0x41, count: 2_000), of: .named("huge"), version: 1)
        #expect(bodies.body(of: .named("huge"), version: 1) == nil && bodies.bytes <= 1_000)
        // An older version never replaces a newer one.
        bodies.keep(ByteBuffer(repeating: 0x42, count: 10), of: .named("d10"), version: 2)
        bodies.keep(body, of: .named("d10"), version: 1)
        #expect(bodies.body(of: .named("d10"), version: 2)?.readableBytes == 10)
    }
}
