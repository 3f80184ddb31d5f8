public import Foundation
import TributaryHTTP

extension ImagePipeline {
    /// Why the pipeline could not produce an image, with the stage it failed in, the URL, and
    /// the underlying error.
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The stage of the pipeline that failed.
        public enum Stage: String, Sendable, Hashable {
            /// Fetching the data, from the disk cache or the data loader.
            case loading
            /// Turning the data into a bitmap.
            case decoding
            /// Applying the request's processors.
            case processing
        }

        /// What went wrong.
        public enum Reason: Sendable {
            /// The data loader failed; for the default loader, an `APIError` with the status and
            /// the server's message.
            case loadingFailed(any Swift.Error)
            /// The server answered with no data.
            case emptyData
            /// The request allowed only cached data and there was none.
            case notCached
            /// The data is not an image that can be decoded.
            case decodingFailed(ImageDecodingError)
            /// A processor refused the image.
            case processingFailed(processor: String, any Swift.Error)
            /// Every caller that wanted the image went away.
            case cancelled
        }

        /// The stage of the pipeline that failed.
        public var stage: Stage
        /// The URL of the image.
        public var url: URL
        /// What went wrong.
        public var reason: Reason

        /// Creates an error.
        ///
        /// - Parameters:
        ///   - stage: The stage of the pipeline that failed.
        ///   - url: The URL of the image.
        ///   - reason: What went wrong.
        public init(stage: Stage, url: URL, reason: Reason) {
            self.stage = stage
            self.url = url
            self.reason = reason
        }

        /// The error underneath, if another layer reported it.
        public var underlyingError: (any Swift.Error)? {
            switch reason {
            case .loadingFailed(let error), .processingFailed(_, let error): error
            case .decodingFailed(let error): error
            case .emptyData, .notCached, .cancelled: nil
            }
        }

        /// Whether the failure was a cancellation rather than a problem with the image.
        public var isCancellation: Bool {
            if case .cancelled = reason { return true }
            return false
        }

        public var description: String {
            let what: String
            switch reason {
            case .loadingFailed(let error as APIError):
                if case .transport(let failure) = error.kind {
                    what = "cannot be reached: \(failure)."
                } else {
                    what = "could not be loaded: \(error)"
                }
            case .loadingFailed(let error): what = "could not be loaded: \(error)"
            case .emptyData: what = "could not be loaded: the server sent no data."
            case .notCached: what = "is not in the cache, and the request allowed nothing else."
            case .decodingFailed(let error): what = "could not be decoded: \(error)"
            case .processingFailed(let processor, let error):
                what = "could not be processed by \(processor): \(error)"
            case .cancelled: what = "was cancelled."
            }
            return "The image at \(url.absoluteString) \(what)"
        }
    }
}
