import Foundation
import HTTPTypes
import Testing
import TributaryHTTP

@Suite struct ErrorsTests {
    @Test func redactsSecretQueryItemsAndCredentials() {
        let url = URL(string: "https://user:pass@newsapi.org/v2/everything?q=swift&apiKey=s3cret&Token=abc")!
        let redacted = Redaction.standard.redact(url)
        #expect(redacted == "https://newsapi.org/v2/everything?q=swift&apiKey=<redacted>&Token=<redacted>")
        #expect(!redacted.contains("s3cret") && !redacted.contains("pass"))
    }

    @Test func redactsSecretHeaderFields() {
        let fields: HTTPFields = [
            .authorization: "Bearer t0ken", .init("X-Api-Key")!: "k3y", .accept: "application/json",
        ]
        let redacted = Redaction.standard.redact(fields)
        #expect(redacted[.authorization] == Redaction.placeholder)
        #expect(redacted[.init("x-api-key")!] == Redaction.placeholder)
        #expect(redacted[.accept] == "application/json")
    }

    @Test(arguments: [
        (
            #"{"status":"error","code":"apiKeyInvalid","message":"Your API key is invalid."}"#,
            "apiKeyInvalid", "Your API key is invalid."
        ),
        (#"{"success":false,"status_code":7,"status_message":"Invalid API key."}"#, "7", "Invalid API key."),
        (#"{"error":{"code":"rate_limit","message":"Slow down."}}"#, "rate_limit", "Slow down."),
        (#"{"error":"invalid_grant","error_description":"The code expired."}"#, nil, "The code expired."),
        (
            #"{"type":"about:blank","title":"Bad Request","detail":"page must be positive"}"#, "about:blank",
            "page must be positive"
        ),
        (#"{"message":"Not Found"}"#, nil, "Not Found"),
    ])
    func readsTheCommonErrorBodies(body: String, code: String?, message: String) {
        let error = ServerErrorDecoder.standard.serverError(
            in: HTTPResponse(status: .badRequest),
            body: Data(body.utf8)
        )
        #expect(error == ServerError(code: code, message: message))
    }

    @Test func readsNothingFromBodiesThatAreNotErrors() {
        for body in ["<html>oops</html>", "", "[1,2]", #"{"status":"ok"}"#] {
            #expect(
                ServerErrorDecoder.standard.serverError(
                    in: HTTPResponse(status: .badRequest),
                    body: Data(body.utf8)
                ) == nil
            )
        }
        #expect(
            ServerErrorDecoder.tmdb.serverError(
                in: HTTPResponse(status: .badRequest),
                body: Data(#"{"message":"x"}"#.utf8)
            ) == nil
        )
    }

    @Test func describesEachKindInOneSentence() {
        let url = "https://newsapi.org/v2/everything?apiKey=<redacted>"
        func describe(_ kind: APIError.Kind) -> String {
            APIError(kind, method: .get, url: url).description
        }
        let request = "GET \(url)"
        #expect(
            describe(.invalidRequest(reason: "its page is 0"))
                == "\(request) was not sent because its page is 0."
        )
        #expect(
            describe(.transport(URLError(.cannotConnectToHost))).hasPrefix(
                "\(request) could not reach the server: "
            )
        )
        #expect(describe(.timedOut(after: .seconds(10))) == "\(request) timed out after 10 seconds.")
        #expect(describe(.timedOut(after: .seconds(1))) == "\(request) timed out after 1 second.")
        #expect(describe(.cancelled) == "\(request) was cancelled.")
        #expect(
            describe(
                .unacceptableStatus(
                    HTTPResponse(status: .tooManyRequests),
                    body: Data(),
                    serverError: ServerError(code: "rateLimited", message: "You have been rate limited.")
                )
            )
                == "\(request) failed with HTTP 429 Too Many Requests: You have been rate limited. [rateLimited]."
        )
        #expect(
            describe(.unacceptableStatus(HTTPResponse(status: .badGateway), body: Data(), serverError: nil))
                == "\(request) failed with HTTP 502 Bad Gateway."
        )
        #expect(
            describe(.undecodable(codingPath: "articles[2].title", reason: "expected String.", snippet: "{…"))
                == "The response to \(request) could not be decoded at articles[2].title: expected String. The body begins: {…"
        )
        #expect(
            describe(.bodyTooLarge(limit: 10 << 20))
                == "The response to \(request) is larger than the 10 MiB limit."
        )
        #expect(
            describe(.bodyTooLarge(limit: 5_000))
                == "The response to \(request) is larger than the 5000-byte limit."
        )
    }

    @Test func capsTheSnippetOfALongBody() {
        let body = Data(String(repeating: "x", count: 1_000).utf8)
        let error = APIError(
            .unacceptableStatus(HTTPResponse(status: .badRequest), body: body, serverError: nil),
            method: .get,
            url: "u"
        )
        #expect(error.description.count < 300)
        #expect(error.description.hasSuffix("…"))
    }
}
