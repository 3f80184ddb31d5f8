import NIOCore
import NIOHTTP1

extension RequestFraming {
    /// What ``RequestFraming`` decides, without a channel: each request part read, answer part
    /// written or parser error is an event, and each event returns the one action the handler
    /// performs. Tested alone, event by event (`RequestFramingStateMachineTests`).
    struct StateMachine {
        enum Mode: Equatable {
            /// Requests answered one after another.
            case requests
            /// A WebSocket handshake passed on, not yet answered.
            case upgrading
            /// Upgraded: what passes is no longer HTTP.
            case upgraded
            /// The answer being written is the connection's last; nothing more is read.
            case closing
            /// The last answer is written; nothing more is read or written.
            case closed
        }

        /// A request read and not yet answered.
        private struct Unanswered {
            /// Whether its body has been read to the end.
            var isRead = false
            /// Whether the connection may stay open after its answer.
            var keepsAlive: Bool
            /// Whether it waits for `100 Continue` before it sends its body.
            var waitsToContinue = false
        }

        private(set) var mode = Mode.requests
        /// Why a route declined the WebSocket handshake being answered, to be said in place of
        /// the empty `400` Hummingbird answers every declined handshake with.
        private var refusal: (head: HTTPResponseHead, body: ByteBuffer)?
        /// Whether a request's head carries a credential the lab takes: only such a request is
        /// asked for its body with `100 Continue`.
        private let mayContinue: (HTTPHeaders) -> Bool

        init(mayContinue: @escaping (HTTPHeaders) -> Bool = { _ in true }) {
            self.mayContinue = mayContinue
        }

        /// How what passes is to be taken, before it is read as HTTP: once a connection is
        /// upgraded its bytes are a WebSocket's, which no event of this machine describes.
        enum Passage: Equatable {
            /// Pass it on as it is.
            case through
            /// Let it go: reads dropped, writes failed.
            case stopped
            /// Read it as HTTP and ask the machine.
            case asHTTP
        }

        /// How what is read passes now.
        var reading: Passage {
            switch mode {
            case .upgrading, .upgraded: .through
            case .closing, .closed: .stopped
            case .requests: .asHTTP
            }
        }

        /// How what is written passes now.
        var writing: Passage {
            switch mode {
            case .upgraded: .through
            case .closed: .stopped
            case .requests, .upgrading, .closing: .asHTTP
            }
        }
        private var hasRead = false
        /// Oldest first: Hummingbird answers in the order requests arrive.
        private var unanswered = CircularBuffer<Unanswered>()

        // MARK: Reading

        enum ReadAction: Equatable {
            /// Pass `part` on to Hummingbird.
            case forward(HTTPServerRequestPart)
            /// Send `100 Continue`, then pass `part` on.
            case continueAndForward(HTTPServerRequestPart)
            /// Answer with `head` alone, the connection's only answer, and close it.
            case answerAndClose(HTTPResponseHead)
            /// Read nothing more.
            case drop
        }

        /// What to do with a part of a request the decoder read.
        mutating func read(_ part: HTTPServerRequestPart) -> ReadAction {
            switch mode {
            case .upgrading, .upgraded: return .forward(part)
            case .closing, .closed: return .drop
            case .requests: break
            }
            switch part {
            case .head(let head): return readHead(head)
            case .body: return .forward(part)
            case .end:
                if !unanswered.isEmpty {
                    unanswered[unanswered.index(before: unanswered.endIndex)].isRead = true
                }
                return .forward(part)
            }
        }

        /// The most requests of a connection waiting for their answers at once.
        static let mostUnanswered = 32

        private mutating func readHead(_ given: HTTPRequestHead) -> ReadAction {
            var head = given
            let isFirst = !hasRead
            hasRead = true
            // After a CONNECT the decoder reads what follows as the tunnel's, not as requests.
            var keepsAlive = head.isKeepAlive && head.method != .CONNECT
            if let authority = Self.authority(ofAbsoluteTarget: head.uri) {
                head.headers.replaceOrAdd(name: "host", value: authority)
            }
            if head.headers.contains(name: "upgrade") {
                let asksForWebSocket = head.headers.has("websocket", in: "upgrade")
                if isFirst, asksForWebSocket {
                    if let refusal = Self.refusal(ofHandshake: head) {
                        return .answerAndClose(lastAnswer(refusal))
                    }
                    mode = .upgrading
                    return .forward(.head(head))
                }
                // Hummingbird answers a later WebSocket handshake with a redirect to a new
                // connection; no other protocol is offered. Either way the decoder reads no
                // further request after a head that asks to upgrade.
                if !asksForWebSocket { head.headers.remove(name: "upgrade") }
                keepsAlive = false
            }
            // A client that has sent more requests than this without reading their answers is
            // answered the oldest and closed, and nothing more of it is read: each request it
            // pipelines is work done and an answer kept for a client that may never read, which
            // thousands of pipelined requests on a few connections made a stall of every
            // other client's. NIO's decoder reads whatever arrives, and Hummingbird answers it.
            guard unanswered.count < Self.mostUnanswered else {
                mode = .closing
                return .drop
            }
            var request = Unanswered(keepsAlive: keepsAlive)
            request.waitsToContinue =
                head.version == .http1_1 && head.headers.has("100-continue", in: "expect")
                && mayContinue(head.headers)
            // Continued at once when nothing is before it; otherwise once the answer before it is out.
            let continuesNow = request.waitsToContinue && unanswered.isEmpty
            if continuesNow { request.waitsToContinue = false }
            unanswered.append(request)
            return continuesNow ? .continueAndForward(.head(head)) : .forward(.head(head))
        }

        // MARK: Writing

        enum WriteAction: Equatable {
            /// Write `part`.
            case write(HTTPServerResponsePart)
            /// Write `part`, the end of an answer, then `100 Continue` for the request after it.
            case writeAndContinue(HTTPServerResponsePart)
            /// Write and flush `part`, the end of the connection's last answer, then close;
            /// `lingering` when its request's body is still coming in, so that the client reads
            /// the answer rather than a reset.
            case writeAndClose(HTTPServerResponsePart, lingering: Bool)
            /// Write `head` and then `body`, in place of the part given.
            case writeWithBody(HTTPResponseHead, ByteBuffer)
            /// Write nothing: the connection is closed.
            case fail
        }

        /// A route declined the handshake being answered, saying why with `status` and the JSON
        /// `body`: what the client is told instead of an empty `400`.
        mutating func refuseUpgrade(status: HTTPResponseStatus, body: ByteBuffer) {
            guard mode == .upgrading else { return }
            var head = HTTPResponseHead(version: .http1_1, status: status)
            head.headers.add(name: "content-type", value: "application/json; charset=utf-8")
            head.headers.add(name: "content-length", value: String(body.readableBytes))
            head.headers.add(name: "connection", value: "close")
            refusal = (head, body)
        }

        /// What to do with a part of an answer Hummingbird wrote.
        mutating func write(_ part: HTTPServerResponsePart) -> WriteAction {
            switch mode {
            case .upgraded: return .write(part)
            case .closed: return .fail
            case .requests, .upgrading, .closing: break
            }
            switch part {
            case .head(var head):
                if mode == .upgrading {
                    guard head.status != .switchingProtocols else {
                        mode = .upgraded
                        return .write(part)
                    }
                    // A handshake the lab declined: Hummingbird answers it and is done.
                    mode = .closing
                    if let refusal {
                        self.refusal = nil
                        return .writeWithBody(refusal.head, refusal.body)
                    }
                } else if head.status.code < 200 {
                    return .write(part)
                } else if let oldest = unanswered.first, !oldest.isRead || !oldest.keepsAlive {
                    mode = .closing
                }
                guard mode == .closing else { return .write(part) }
                head.headers.replaceOrAdd(name: "connection", value: "close")
                return .write(.head(head))
            case .body:
                return .write(part)
            case .end:
                let answered = unanswered.isEmpty ? nil : unanswered.removeFirst()
                guard mode == .closing else {
                    // The next request's 100 Continue waited for this answer.
                    if let next = unanswered.first, next.waitsToContinue, !next.isRead {
                        unanswered[unanswered.startIndex].waitsToContinue = false
                        return .writeAndContinue(part)
                    }
                    return .write(part)
                }
                mode = .closed
                return .writeAndClose(part, lingering: answered.map { !$0.isRead } ?? false)
            }
        }

        // MARK: Errors

        enum ErrorAction: Equatable {
            /// Pass the error on: Hummingbird answers the requests before it, then `400`.
            case forward
            /// Answer with `head` alone and close.
            case answerAndClose(HTTPResponseHead)
            /// Close without an answer.
            case close
            /// Nothing more to do: the connection is closing.
            case ignore
        }

        /// What to do when the decoder cannot read what came; `headerOverflow` when a head is
        /// larger than it reads.
        mutating func failedToDecode(headerOverflow: Bool) -> ErrorAction {
            switch mode {
            case .requests where hasRead:
                return .forward
            case .requests:
                // A first head that cannot be read: the WebSocket upgrade's pipeline would
                // otherwise wait for a request that never comes.
                let status: HTTPResponseStatus = headerOverflow ? .requestHeaderFieldsTooLarge : .badRequest
                return .answerAndClose(lastAnswer(HTTPResponseHead(version: .http1_1, status: status)))
            case .upgrading, .upgraded:
                return .close
            case .closing, .closed:
                return .ignore
            }
        }

        /// `head` as the connection's only answer: no body, and the connection closed after it.
        private mutating func lastAnswer(_ given: HTTPResponseHead) -> HTTPResponseHead {
            mode = .closed
            var head = given
            head.headers.replaceOrAdd(name: "content-length", value: "0")
            head.headers.replaceOrAdd(name: "connection", value: "close")
            return head
        }

        // MARK: Reading heads

        /// The authority of a request target in absolute form (`http://host:port/path`), which
        /// is the request's host whatever its Host header says; `nil` for a path.
        static func authority(ofAbsoluteTarget target: String) -> String? {
            guard !target.hasPrefix("/"), let colon = target.firstIndex(of: ":"),
                target[colon...].hasPrefix("://")
            else { return nil }
            let rest = target[colon...].dropFirst(3)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return authority.isEmpty ? nil : String(authority)
        }

        /// Why a WebSocket handshake cannot be completed, as its answer; `nil` when it can.
        static func refusal(ofHandshake head: HTTPRequestHead) -> HTTPResponseHead? {
            let hasBody =
                head.headers.contains(name: "transfer-encoding")
                || head.headers["content-length"].contains { $0.filter { $0 != " " } != "0" }
            // The key is 16 random bytes in base64: 22 characters and `==`.
            let key = head.headers["sec-websocket-key"]
            let isComplete =
                head.method == .GET && head.version == .http1_1 && !hasBody && key.count == 1
                && key[0].utf8.count == 24 && key[0].hasSuffix("==")
                && key[0].utf8.dropLast(2).allSatisfy(Self.isBase64)
                && head.headers.has("upgrade", in: "connection")
            guard head.headers["sec-websocket-version"] == ["13"] else {
                return HTTPResponseHead(
                    version: .http1_1,
                    status: .upgradeRequired,
                    headers: ["Sec-WebSocket-Version": "13"]
                )
            }
            return isComplete ? nil : HTTPResponseHead(version: .http1_1, status: .badRequest)
        }

        private static func isBase64(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                true
            default: false
            }
        }
    }
}

extension HTTPHeaders {
    /// Whether the comma-separated field `name` lists `token`, in any case.
    func has(_ token: String, in name: String) -> Bool {
        self[canonicalForm: name].contains { $0.lowercased() == token }
    }
}
