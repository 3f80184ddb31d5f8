public import CombineSchedulers
public import Foundation
public import NewsAPI
public import Tributary
public import TributaryHTTP
public import TributaryImages

/// What the lab's news reader reads with: a NewsAPI client, an image pipeline for thumbnails,
/// and where its view models wait.
///
/// The pages never talk to NewsAPI or to image hosts: the lab holds the key, and its `/img`
/// route fetches only the pictures it has itself put on a page, or those of `imageHosts`.
public struct LabNews: Sendable {
    /// Where articles and sources come from.
    public var client: NewsClient
    /// Fetches, caches and resizes thumbnails.
    public var images: ImagePipeline
    /// Hosts whose pictures `/img` fetches even when no page was given them.
    public var imageHosts: Set<String>
    /// Where the view models debounce and publish; the main queue unless a test passes another.
    public var scheduler: AnySchedulerOf<DispatchQueue>
    /// How long typing must pause before a search is sent.
    public var debounce: Duration
    /// RSS and Atom feeds the reader's feed tab offers to start from.
    public var suggestedFeeds: [URL] = []
    /// The pictures handed to pages, which `/img` may fetch.
    let handedOut = HandedOut(capacity: 20_000)
    /// Encoded thumbnails, so that a repeated request costs a lookup.
    let thumbnails = ThumbnailCache(capacity: 32 << 20)

    /// The news the lab's pages read: articles through `client`, pictures through `images` (those
    /// on pages, and any from `imageHosts`), on `scheduler`, with searches debounced by
    /// `debounce`.
    public init(
        client: NewsClient,
        images: ImagePipeline,
        imageHosts: Set<String> = [],
        scheduler: AnySchedulerOf<DispatchQueue> = .main,
        debounce: Duration = .milliseconds(300)
    ) {
        self.client = client
        self.images = images
        self.imageHosts = imageHosts
        self.scheduler = scheduler
        self.debounce = debounce
    }

    /// ``debounce`` as the view models take it.
    var debounceStride: DispatchQueue.SchedulerTimeType.Stride {
        .nanoseconds(
            Int(debounce.components.seconds * 1_000_000_000 + debounce.components.attoseconds / 1_000_000_000)
        )
    }

    /// The `/img` address of `url` at `width` pixels, which a page may then load.
    func thumbnail(of url: URL, width: Int = 320) -> String {
        handedOut.insert(url.absoluteString)
        var components = URLComponents()
        components.path = "/img"
        components.queryItems = [
            .init(name: "url", value: url.absoluteString), .init(name: "w", value: "\(width)"),
        ]
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(
            of: "+",
            with: "%2B"
        )
        return components.string ?? "/img"
    }

    /// Whether `/img` may fetch `url`.
    func mayFetch(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return false
        }
        return handedOut.contains(url.absoluteString)
            || url.host.map { imageHosts.contains($0.lowercased()) } == true
    }
}

extension LabNews {
    /// A news reader on the NewsAPI server at `baseURL`, whose RSS feeds and thumbnails — whose
    /// addresses come from outside — reach only public addresses and the origins in `trusted`,
    /// such as an in-process sandbox.
    ///
    /// - Parameters:
    ///   - baseURL: The NewsAPI server, or any that speaks its protocol.
    ///   - apiKey: Its key; it stays on the server, and never reaches a page.
    ///   - transport: What carries every exchange.
    ///   - trusted: Origins reached whatever their address.
    ///   - imageCache: A folder for the originals of thumbnails; nil keeps them in memory only.
    public static func reading(
        baseURL: URL,
        apiKey: String?,
        transport: any HTTPTransporting,
        trusted: Set<HTTPOrigin> = [],
        imageCache: URL? = nil
    ) throws -> LabNews {
        let policy = AddressPolicy.publicOnly(allowing: trusted)
        var client = NewsClient(apiKey: apiKey, baseURL: baseURL, transport: transport)
        client.feedAPI.addressPolicy = policy
        let images = APIClient(
            baseURL: baseURL,
            transport: transport,
            retryPolicy: .never,
            addressPolicy: policy
        )
        let pipeline = ImagePipeline(
            configuration: .init(
                dataLoader: DataLoader(client: images, maximumDataSize: 20 << 20),
                imageCache: ImageCache(),
                dataCache: try imageCache.map { try DataCache(directory: $0, sizeLimit: 200 << 20) }
            )
        )
        var news = LabNews(client: client, images: pipeline, imageHosts: [])
        // A trusted server is a sandbox of this project, which serves a feed a category.
        if let origin = HTTPOrigin(baseURL), trusted.contains(origin) {
            let root = baseURL.lastPathComponent == "v2" ? baseURL.deletingLastPathComponent() : baseURL
            news.suggestedFeeds = ["technology.rss", "business.atom", "science.rss", "sports.atom"].map {
                root.appending(path: "feeds/\($0)")
            }
        }
        return news
    }
}
