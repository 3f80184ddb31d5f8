import NewsAPI
import Testing

struct NewsQueryTests {
    @Test(arguments: [
        "", "   ", "swift", "swift rust", "\"exact phrase\"", "+swift -rust",
        "crypto AND (ethereum OR litecoin) NOT bitcoin",
        "NOT bitcoin", "covid-19", "a OR (b AND (c OR d))", "swift!!!",
    ])
    func acceptsWhatNewsAPISearches(_ query: String) {
        #expect(NewsQuery.issue(in: query) == nil)
    }

    @Test(arguments: [
        ("swift OR", "Finish the query after OR."),
        ("swift AND ", "Finish the query after AND."),
        ("swift NOT", "Finish the query after NOT."),
        ("swift -", "Finish the query after -."),
        ("\"open phrase", "Close the quotation mark."),
        ("(swift OR rust", "Close the parenthesis."),
        ("(swift OR", "Finish the query after OR."),
    ])
    func waitsForAQueryStillBeingWritten(_ query: String, words: String) {
        #expect(NewsQuery.issue(in: query) == .unfinished(words))
    }

    @Test(arguments: [
        ("swift)", "the “)” closes no parenthesis"),
        ("OR swift", "the query cannot start with OR"),
        ("swift AND OR rust", "AND is followed by OR where a word should be"),
        ("(AND swift)", "a parenthesis cannot start with AND"),
        ("swift ()", "the parentheses hold no words"),
        ("\"\" swift", "the quotation marks hold no words"),
    ])
    func namesInPlainWordsWhatNoMoreTypingMends(_ query: String, words: String) {
        #expect(NewsQuery.issue(in: query) == .invalid(words))
    }

    @Test func anEndpointWithABrokenQueryIsNotSent() {
        #expect(throws: NewsError.self) {
            try NewsEndpoint.everything(query: "swift OR", paging: .init()).validate()
        }
        let error = #expect(throws: NewsError.self) {
            try NewsEndpoint.everything(query: "swift)", paging: .init()).validate()
        }
        #expect(error?.alertMessage == "This search cannot be made: the “)” closes no parenthesis.")
    }
}

extension NewsQueryTests {
    /// Every text on the way to a finished query, typed a character at a time, has an answer.
    @Test(arguments: [#"compiler "open phrase" OR (swift AND -rust) NOT "x""#, "a OR (b AND (c OR d))"])
    func readsEveryPrefixOfAQueryAsItIsTyped(_ query: String) {
        var text = ""
        for character in query {
            text.append(character)
            _ = NewsQuery.issue(in: text)
        }
        #expect(NewsQuery.issue(in: text) == nil)
    }
}
