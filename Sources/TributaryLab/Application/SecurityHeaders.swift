import HTTPTypes
import Hummingbird

/// Adds to every answer, errors included, the headers that keep a page to itself: a content
/// security policy that runs only the lab's own scripts, no sniffing of content types, no
/// referrer to other sites and no framing — except under `/embed/`, the diagrams made to be
/// put in other sites' pages, which any page may frame.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        let path = request.uri.path
        let fields =
            path.hasPrefix("/embed/")
            ? SecurityFields.embeddable
            : path.hasPrefix("/docs/") ? SecurityFields.documentation : SecurityFields.all
        for field in fields { response.headers[field.name] = field.value }
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
}

/// The header fields ``SecurityHeaders`` adds, made once.
enum SecurityFields {
    static var policy: ContentSecurityPolicy { policy(framedBy: .none) }

    static func policy(framedBy ancestors: ContentSecurityPolicy.URIRestrictionValue) -> ContentSecurityPolicy
    {
        [
            .defaultSrc(.self), .scriptSrc(.self), .styleSrc(.self),
            .imgSrc(.self, .scheme(.init(rawValue: "blob:")), .scheme(.init(rawValue: "data:"))),
            .connectSrc(.self), .fontSrc(.self), .objectSrc(.none), .baseURI(.none),
            .frameAncestors(ancestors),
            .formAction(.self),
        ]
    }

    static let all: HTTPFields = [
        .contentSecurityPolicy: policy.description,
        .xContentTypeOptions: "nosniff",
        .referrerPolicy: "same-origin",
        .xFrameOptions: "DENY",
    ]

    /// For `/docs/`, DocC's pages: its one inline script, which says where the documentation
    /// is, by its hash, and the inline styles its renderer sets; otherwise as closed as the rest.
    static let documentation: HTTPFields = [
        .contentSecurityPolicy:
            ([
                .defaultSrc(.self),
                .scriptSrc(.self, .hash(.sha256, base64: DocumentationMiddleware.baseURLScriptHash)),
                .styleSrc(.self, .unsafeInline),
                .imgSrc(.self, .scheme(.init(rawValue: "data:"))), .connectSrc(.self), .fontSrc(.self),
                .objectSrc(.none), .baseURI(.none), .frameAncestors(.none), .formAction(.self),
            ] as ContentSecurityPolicy).description,
        .xContentTypeOptions: "nosniff",
        .referrerPolicy: "same-origin",
        .xFrameOptions: "DENY",
    ]

    /// For `/embed/`: framed by any page, otherwise as closed as the rest.
    static let embeddable: HTTPFields = [
        .contentSecurityPolicy: policy(framedBy: "*").description,
        .xContentTypeOptions: "nosniff",
        .referrerPolicy: "same-origin",
    ]
}
