import NIOCore
import Testing

@testable import TributaryLab

/// What a viewer's outbox holds for it: every viewer's messages up to the outbox's limit, and
/// answers made for it alone up to a smaller one.
@Suite struct OutboxTests {
    @Test func answersToAViewersOwnMessagesHaveALimitOfTheirOwn() {
        let outbox = Outbox(limit: 10_000, replyLimit: 1_000)
        let reply = ByteBuffer(repeating: 0x61, count: 400)
        #expect(outbox.deliver(reply, isReply: true))
        #expect(outbox.deliver(reply, isReply: true))
        // Shared messages still fit; a third answer would pass the answers' limit.
        #expect(outbox.deliver(ByteBuffer(repeating: 0x62, count: 5_000)))
        #expect(!outbox.deliver(reply, isReply: true))
        #expect(outbox.overflowed)
        #expect(!outbox.deliver(ByteBuffer(repeating: 0x62, count: 10)))
    }

    @Test func withoutAReplyLimitAnswersCountAsAnyMessage() {
        let outbox = Outbox(limit: 1_000)
        #expect(outbox.deliver(ByteBuffer(repeating: 0x61, count: 900), isReply: true))
        #expect(!outbox.deliver(ByteBuffer(repeating: 0x61, count: 200), isReply: true))
    }

    /// A snapshot is sent again at the viewer's asking once a gap at most.
    @Test func resendsASnapshotOnceAGap() {
        let outbox = Outbox(limit: 1_000)
        let start = ContinuousClock.now
        #expect(outbox.mayResend(at: start))
        #expect(!outbox.mayResend(at: start + .milliseconds(10)))
        #expect(!outbox.mayResend(at: start + Outbox.resendGap - .milliseconds(1)))
        #expect(outbox.mayResend(at: start + Outbox.resendGap))
        #expect(!outbox.mayResend(at: start + Outbox.resendGap + .milliseconds(500)))
    }

    /// An echoed text is cut to its bytes, at a character, however many marks a character has.
    @Test func anEchoIsCutInBytesAtACharacter() {
        let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 31), count: 64)
        #expect(heavy.count == 64 && heavy.utf8.count == 64 * 63)
        #expect(heavy.prefixOfUTF8(64).utf8.count == 63)
        #expect(("a" + String(repeating: "\u{301}", count: 1_000)).prefixOfUTF8(64).isEmpty)
        #expect("hello".prefixOfUTF8(64) == "hello")
        #expect("héllo".prefixOfUTF8(2) == "h")
    }
}
