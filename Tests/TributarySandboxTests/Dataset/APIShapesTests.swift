import Foundation
import Testing
import TributarySandbox

/// The Hacker News and TMDb datasets hold the shapes the real APIs send, read as raw JSON.
struct APIShapesTests {
    private let day = Date(timeIntervalSince1970: 1_768_478_400)

    private func object(_ data: Data?) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data ?? Data()) as? [String: Any])
    }

    @Test func hackerNewsHasDeadDeletedPollsAndPreformattedText() throws {
        let hn = HNDataset(seed: 1, day: day)
        let ids = try #require(
            try JSONSerialization.jsonObject(with: hn.answer("newstories.json") ?? Data()) as? [Int]
        )
        let items = try ids.compactMap { id -> [String: Any]? in
            try JSONSerialization.jsonObject(
                with: hn.answer("item/\(id).json") ?? Data(),
                options: .fragmentsAllowed
            )
                as? [String: Any]
        }
        #expect(items.contains { $0["dead"] as? Bool == true && $0["title"] == nil })
        #expect(items.contains { $0["dead"] as? Bool == true && $0["title"] != nil })
        #expect(items.contains { $0["deleted"] as? Bool == true && $0["by"] == nil && $0["title"] == nil })
        let poll = try #require(items.first { $0["type"] as? String == "poll" })
        let parts = try #require(poll["parts"] as? [Int])
        for part in parts {
            let option = try object(hn.answer("item/\(part).json"))
            #expect(option["type"] as? String == "pollopt" && option["poll"] as? Int == poll["id"] as? Int)
            #expect(option["score"] is Int && option["text"] is String)
        }
        let jobs = try #require(
            try JSONSerialization.jsonObject(with: hn.answer("jobstories.json") ?? Data()) as? [Int]
        )
        let texts = try jobs.compactMap {
            try JSONSerialization.jsonObject(
                with: hn.answer("item/\($0).json") ?? Data(),
                options: .fragmentsAllowed
            )
                as? [String: Any]
        }
        #expect(
            texts.contains {
                $0["url"] as? String == "" && ($0["text"] as? String)?.contains("<pre><code>") == true
            }
        )
        // The ranked lists leave dead and deleted stories out.
        let top = try #require(
            try JSONSerialization.jsonObject(with: hn.answer("topstories.json") ?? Data()) as? [Int]
        )
        let gone = Set(
            items.filter { $0["dead"] != nil || $0["deleted"] != nil }.compactMap { $0["id"] as? Int }
        )
        #expect(!gone.isEmpty && gone.isDisjoint(with: top))
    }

    @Test func tmdbHasUnratedUpcomingMoviesNullCharactersAndOriginalTitles() throws {
        let tmdb = TMDbDataset(seed: 1, day: day)
        let upcoming = try object(tmdb.answer("movie/upcoming", query: [:], imageBaseURL: "").body)
        let dates = try #require(upcoming["dates"] as? [String: String])
        #expect(dates["minimum"] != nil && dates["maximum"] != nil)
        let movies = try #require(upcoming["results"] as? [[String: Any]])
        #expect(!movies.isEmpty && movies.allSatisfy { $0["vote_count"] as? Int == 0 })
        #expect(
            try object(tmdb.answer("movie/now_playing", query: [:], imageBaseURL: "").body)["dates"] != nil
        )
        #expect(try object(tmdb.answer("movie/popular", query: [:], imageBaseURL: "").body)["dates"] == nil)
        var sawNull = false
        var sawEmpty = false
        var sawJapanese = false
        var sawUnknownRuntime = false
        for id in TMDbDataset.firstID..<(TMDbDataset.firstID + tmdb.movieCount) {
            let query = ["append_to_response": "credits", "language": "ja-JP"]
            let details = try object(tmdb.answer("movie/\(id)", query: query, imageBaseURL: "").body)
            let credits = try #require(details["credits"] as? [String: Any])
            let cast = try #require(credits["cast"] as? [[String: Any]])
            sawNull = sawNull || cast.contains { $0["character"] is NSNull }
            sawEmpty = sawEmpty || cast.contains { $0["character"] as? String == "" }
            sawUnknownRuntime =
                sawUnknownRuntime || (details["runtime"] as? Int == 0 && details["imdb_id"] is NSNull)
            if details["original_language"] as? String == "ja" {
                sawJapanese = true
                #expect(details["title"] as? String == details["original_title"] as? String)
            }
            #expect(details["belongs_to_collection"] is NSNull && details.keys.contains("poster_path"))
        }
        #expect(sawNull && sawEmpty && sawJapanese && sawUnknownRuntime)
    }
}
