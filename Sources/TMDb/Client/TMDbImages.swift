public import Foundation
public import TributaryImages

/// Image URLs built as TMDb's `configuration` says: its base URL, a size, and the image's path.
///
/// ```swift
/// let images = try await tmdb.images()
/// let poster = images.request(poster: movie.posterPath, width: 342)   // an ImageRequest
/// let image = try await ImagePipeline.shared.image(for: poster!)
/// ```
///
/// A width picks the smallest size TMDb has that is at least that wide, or `original`.
public struct TMDbImages: Sendable, Hashable {
    /// What the configuration says about images.
    public var configuration: TMDbConfiguration.Images
    /// Whether to use the HTTPS base URL; TMDb's own is.
    public var secure: Bool

    /// Creates image URLs from what the configuration says about images.
    ///
    /// - Parameters:
    ///   - configuration: What the configuration says about images.
    ///   - secure: Whether to use the HTTPS base URL.
    public init(_ configuration: TMDbConfiguration.Images, secure: Bool = true) {
        self.configuration = configuration
        self.secure = secure
    }

    /// The URL of a poster at least `width` pixels wide.
    public func url(poster path: String?, width: Int) -> URL? {
        url(path, size: size(width, among: configuration.posterSizes))
    }

    /// The URL of a backdrop at least `width` pixels wide.
    public func url(backdrop path: String?, width: Int) -> URL? {
        url(path, size: size(width, among: configuration.backdropSizes))
    }

    /// The URL of a profile picture at least `width` pixels wide.
    public func url(profile path: String?, width: Int) -> URL? {
        url(path, size: size(width, among: configuration.profileSizes))
    }

    /// A request for the poster, scaled to fit `width` on the device, for an `ImagePipeline`.
    public func request(poster path: String?, width: Int) -> ImageRequest? {
        url(poster: path, width: width).map {
            ImageRequest(url: $0, processors: [ImageProcessors.Resize(maximumPixelSize: width)])
        }
    }

    /// A request for the backdrop, scaled to fit `width`.
    public func request(backdrop path: String?, width: Int) -> ImageRequest? {
        url(backdrop: path, width: width).map {
            ImageRequest(url: $0, processors: [ImageProcessors.Resize(maximumPixelSize: width)])
        }
    }

    /// `w92`…`w780` style sizes: the smallest at least `width` wide, else `original`.
    func size(_ width: Int, among sizes: [String]) -> String {
        let widths = sizes.compactMap { size -> (String, Int)? in
            guard size.hasPrefix("w"), let value = Int(size.dropFirst()) else { return nil }
            return (size, value)
        }
        return widths.filter { $0.1 >= width }.min { $0.1 < $1.1 }?.0 ?? "original"
    }

    private func url(_ path: String?, size: String) -> URL? {
        guard let path, path.hasPrefix("/"), !path.contains("..") else { return nil }
        var base = secure ? configuration.secureBaseURL : configuration.baseURL
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + size + path)
    }
}
