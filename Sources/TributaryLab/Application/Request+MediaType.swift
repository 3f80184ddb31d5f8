import Foundation
import Hummingbird

extension Request {
    /// The media type the body is declared as, lowercased and without its parameters
    /// (`application/json` of `Application/JSON; charset=utf-8`); nil without `Content-Type`.
    var mediaType: String? {
        headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
