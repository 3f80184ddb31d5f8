import Foundation
import Hummingbird
import NIOCore
import TributaryImages
import TributaryTestSupport

/// An image server on a loopback port chosen by the system, counting every request.
///
/// - `/img/N.jpg`: a 64×48 JPEG, different for each N.
/// - `/slow/N.jpg`: the same image, a byte every 20 ms until the test opens ``Log/held`` (at
///   the latest when the test ends), then the rest at once; the log notes when the client goes
///   away before the end.
/// - `/held/N.jpg`: the same image, sent once the test opens ``Log/held``.
/// - `/missing.jpg`: 404 with a JSON message. `/corrupt.jpg`: not an image.
struct ImageServer {
    final class Log: Sendable {
        private let state = Locked<(arrivals: [String], aborted: Set<String>)>(([], []))
        /// Where `/held/` responses wait, and what ends the trickle of `/slow/` ones.
        let held = Gate()

        func hit(_ path: String) {
            state.withLock { $0.arrivals.append(path) }
        }

        /// Every request's path, in the order the server received them.
        var arrivals: [String] { state.withLock { $0.arrivals } }

        func abort(_ path: String) {
            _ = state.withLock { $0.aborted.insert(path) }
        }

        func count(_ path: String) -> Int { state.withLock { $0.arrivals.count(where: { $0 == path }) } }
        var total: Int { state.withLock { $0.arrivals.count } }
        func wasAborted(_ path: String) -> Bool { state.withLock { $0.aborted.contains(path) } }
    }

    /// The pixels served at `/img/N.jpg`.
    static func bitmap(_ number: Int) -> Bitmap {
        var bitmap = Bitmap(
            width: 64,
            height: 48,
            fill: .init(red: UInt8(number % 256), green: 90, blue: 200)
        )
        for x in 0..<64 { bitmap[x, 24] = .init(red: 255, green: 255, blue: 255) }
        return bitmap
    }

    static func jpeg(_ number: Int) -> Data { try! bitmap(number).jpegData(quality: 90) }

    static func run<Result: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (URL, Log) async throws -> Result
    ) async throws -> Result {
        let log = Log()
        return try await withLoopbackServer(router(log)) { url in
            defer { log.held.open() }
            return try await body(url, log)
        }
    }

    private static func number(_ context: BasicRequestContext) -> Int {
        Int(context.parameters.get("name")?.split(separator: ".").first ?? "") ?? 0
    }

    private static func router(_ log: Log) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("img/:name") { request, context in
            log.hit(request.uri.path)
            return Response(
                status: .ok,
                headers: [.contentType: "image/jpeg"],
                body: .init(byteBuffer: ByteBuffer(bytes: jpeg(number(context))))
            )
        }
        router.get("slow/:name") { request, context in
            let path = request.uri.path
            log.hit(path)
            let data = jpeg(number(context))
            return Response(
                status: .ok,
                headers: [.contentType: "image/jpeg", .contentLength: "\(data.count)"],
                body: ResponseBody { writer in
                    do {
                        // Writing is how the server learns that the client went away.
                        var sent = 0
                        while !log.held.isOpen && sent < data.count - 1 {
                            try await writer.write(ByteBuffer(bytes: [data[data.startIndex + sent]]))
                            sent += 1
                            try await Task.sleep(for: .milliseconds(20))
                        }
                        await log.held.wait()
                        try await writer.write(ByteBuffer(bytes: data.dropFirst(sent)))
                        try await writer.finish(nil)
                    } catch {
                        log.abort(path)
                        throw error
                    }
                }
            )
        }
        router.get("held/:name") { request, context in
            log.hit(request.uri.path)
            await log.held.wait()
            return Response(
                status: .ok,
                headers: [.contentType: "image/jpeg"],
                body: .init(byteBuffer: ByteBuffer(bytes: jpeg(number(context))))
            )
        }
        router.get("missing.jpg") { request, _ in
            log.hit(request.uri.path)
            return Response(
                status: .notFound,
                headers: [.contentType: "application/json"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: #"{"status":"error","code":"imageNotFound","message":"No such image."}"#
                    )
                )
            )
        }
        router.get("corrupt.jpg") { request, _ in
            log.hit(request.uri.path)
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "this is not an image")))
        }
        return router
    }
}
