import Foundation
import TMDb
import Testing

/// TMDb's answers in the shapes the API reference gives, with the `null`s and empty strings
/// the live API sends for what it does not know.
struct MovieDetailsTests {
    /// `movie/{id}?append_to_response=credits` for a movie still in production.
    static let details = #"""
        {"adult":false,"backdrop_path":null,"belongs_to_collection":null,"budget":0,
         "genres":[{"id":28,"name":"Action"},{"id":878,"name":"Science Fiction"}],
         "homepage":"","id":399579,"imdb_id":null,"original_language":"ja","original_title":"銃夢",
         "overview":"","popularity":12.5,"poster_path":"/xRWht48C2V8XNfzvPehyClOvDni.jpg",
         "production_companies":[],"release_date":"2027-02-14","revenue":0,"runtime":0,
         "spoken_languages":[],"status":"Post Production","tagline":"","title":"Battle Angel",
         "video":false,"vote_average":0.0,"vote_count":0,
         "credits":{
           "cast":[
             {"adult":false,"gender":1,"id":1,"known_for_department":"Acting","name":"Rosa Salazar",
              "original_name":"Rosa Salazar","popularity":9.1,"profile_path":null,"cast_id":2,
              "character":"Alita","credit_id":"5a1","order":0},
             {"adult":false,"gender":2,"id":2,"known_for_department":"Acting","name":"Christoph Waltz",
              "original_name":"Christoph Waltz","popularity":8.0,"profile_path":"/p.jpg","cast_id":3,
              "character":null,"credit_id":"5a2","order":1},
             {"adult":false,"gender":0,"id":3,"known_for_department":"Acting","name":"Extra One",
              "original_name":"Extra One","popularity":0.6,"profile_path":null,"cast_id":9,
              "character":"","credit_id":"5a3","order":2},
             {"id":"not a number","name":"Broken Row"}
           ],
           "crew":[
             {"adult":false,"gender":2,"id":10,"known_for_department":"Directing","name":"Robert Rodriguez",
              "original_name":"Robert Rodriguez","popularity":4.0,"profile_path":null,"credit_id":"c1",
              "department":"Directing","job":"Director"},
             {"adult":false,"gender":0,"id":11,"known_for_department":"Crew","name":"Someone",
              "original_name":"Someone","popularity":0.1,"profile_path":null,"credit_id":"c2",
              "department":null,"job":null},
             {"id":12,"name":"Someone Else","credit_id":"c3","department":"Crew","job":""}
           ]
         }}
        """#

    @Test func readsNullAndEmptyFieldsAsUnknownWithoutFailingTheMovie() throws {
        let details = try JSONDecoder().decode(MovieDetails.self, from: Data(Self.details.utf8))
        #expect(details.movie.title == "Battle Angel" && details.movie.distinctOriginalTitle == "銃夢")
        #expect(details.runtime == nil && details.tagline == nil && details.imdbID == nil)
        #expect(details.status == "Post Production" && details.movie.overview.isEmpty)
        #expect(details.movie.rating == nil && details.movie.backdropPath == nil)
        #expect(details.movie.year == 2027)
        let cast = try #require(details.credits?.cast)
        #expect(cast.map(\.name) == ["Rosa Salazar", "Christoph Waltz", "Extra One"])
        #expect(cast.map(\.character) == ["Alita", nil, nil])
        let crew = try #require(details.credits?.crew)
        #expect(crew.map(\.job) == ["Director", nil, nil] && crew[1].department == nil)
        #expect(details.directors == ["Robert Rodriguez"])
        // What decodes encodes back to the same movie.
        let again = try JSONDecoder().decode(MovieDetails.self, from: JSONEncoder().encode(details))
        #expect(again == details)
    }

    /// A rated movie has a rating; zero votes is unrated, not rated zero.
    @Test func tellsUnratedFromRatedZero() throws {
        let decoder = JSONDecoder()
        let rated = try decoder.decode(
            Movie.self,
            from: Data(#"{"id":1,"title":"A","vote_average":0.0,"vote_count":3}"#.utf8)
        )
        #expect(rated.rating == 0)
        let unrated = try decoder.decode(
            Movie.self,
            from: Data(#"{"id":2,"title":"B","vote_average":0.0,"vote_count":0}"#.utf8)
        )
        #expect(unrated.rating == nil)
        let missing = try decoder.decode(
            Movie.self,
            from: Data(#"{"id":3,"title":null,"overview":null}"#.utf8)
        )
        #expect(missing.rating == nil && missing.title.isEmpty && missing.overview.isEmpty)
    }

    /// `movie/now_playing`: the page carries its window; one odd row is left out and counted.
    @Test func readsAListPageWithItsDatesAndSkipsAnOddRow() throws {
        let json = #"""
            {"dates":{"maximum":"2026-12-02","minimum":"2026-10-21"},"page":1,
             "results":[
               {"adult":false,"backdrop_path":"/b.jpg","genre_ids":[16],"id":502356,"original_language":"en",
                "original_title":"The Super Mario Bros. Movie","overview":"Plumbers.","popularity":6572.6,
                "poster_path":"/p.jpg","release_date":"2026-11-05","title":"The Super Mario Bros. Movie",
                "video":false,"vote_average":7.5,"vote_count":1456},
               {"id":null,"title":"No id"}
             ],
             "total_pages":1,"total_results":2}
            """#
        let page = try JSONDecoder().decode(TMDbPage<Movie>.self, from: Data(json.utf8))
        #expect(page.results.map(\.id) == [502356] && page.skippedCount == 1)
        #expect(page.dates == TMDbPage<Movie>.DateWindow(minimum: "2026-10-21", maximum: "2026-12-02"))
        #expect(page.dates?.start == Date(timeIntervalSince1970: 1_792_540_800))
        #expect(page.totalResults == 2 && !page.hasMore)
    }
}
