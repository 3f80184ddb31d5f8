import Foundation
import TMDb
import Testing
import TributaryHTTP
import TributaryImages
import TributarySandbox

/// The code of `TMDb`'s Getting Started article, as it is written there, against a sandbox:
/// the client is made with the sandbox's address and key, and everything after it is the
/// article's.
@Suite(.timeLimit(.minutes(2)))
struct TMDbGettingStartedTests {
    @Test func theArticlesCodeRuns() async throws {
        try await Sandbox.withRunning { baseURL in
            let base = baseURL.deletingLastPathComponent().appending(path: "tmdb/3")
            let key = Sandbox.demoKey

            // Make a client
            let tmdb = TMDbClient(credential: .apiKey(key), baseURL: base, transport: URLSessionTransport())

            // List and search
            let popular = try await tmdb.movies(.popular)  // 20 a page, up to page 500
            let found = try await tmdb.search("glass")  // `year:` narrows it to one year
            let details = try await tmdb.movie(found.results[0].id)  // with cast and crew
            print(details.directors, details.credits?.cast.prefix(3).map(\.name) ?? [])
            #expect(popular.results.count == 20)
            #expect(found.results.allSatisfy { $0.title.lowercased().contains("glass") })
            #expect(details.movie.id == found.results[0].id)
            #expect(!details.directors.isEmpty)

            // A bad key fails with TMDb's own message.
            let stranger = TMDbClient(
                credential: .apiKey("not-a-key"),
                baseURL: base,
                transport: URLSessionTransport()
            )
            let refused = await #expect(throws: APIError.self) { try await stranger.movies(.popular) }
            #expect(refused?.serverError?.message.isEmpty == false)

            // Show posters
            let images = try await tmdb.images()
            var shown: Bitmap?
            if let request = images.request(poster: details.movie.posterPath, width: 342) {
                let poster = try await ImagePipeline.shared.image(for: request)
                shown = poster
            }
            #expect((shown?.width ?? 0) > 0)
        }
    }
}
