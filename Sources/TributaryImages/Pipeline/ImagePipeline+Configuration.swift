public import Foundation

extension ImagePipeline {
    /// What the pipeline loads with, caches in, decodes with, and how much it does at once.
    public struct Configuration: Sendable {
        /// Fetches original data; by default over URLSession through TributaryHTTP.
        public var dataLoader: any DataLoading
        /// Decoded, processed images; nil keeps none.
        public var imageCache: (any ImageCaching)?
        /// Original data on disk; nil keeps none.
        public var dataCache: (any DataCaching)?
        /// Turns data into bitmaps.
        public var decoder: any ImageDecoding
        /// The most downloads in flight at once; more wait their turn, by priority.
        public var maximumConcurrentDownloads: Int
        /// The most decodes and processing steps at once.
        public var maximumConcurrentDecodes: Int

        /// Creates a configuration; by default data is loaded over URLSession, decoded images
        /// are kept in memory and nothing is kept on disk.
        ///
        /// - Parameters:
        ///   - dataLoader: Fetches original data.
        ///   - imageCache: Decoded, processed images; nil keeps none.
        ///   - dataCache: Original data on disk; nil keeps none.
        ///   - decoder: Turns data into bitmaps.
        ///   - maximumConcurrentDownloads: The most downloads in flight at once; at least 1.
        ///   - maximumConcurrentDecodes: The most decodes and processing steps at once; at least
        ///     1. By default, one for each active processor.
        public init(
            dataLoader: any DataLoading = DataLoader(),
            imageCache: (any ImageCaching)? = ImageCache(),
            dataCache: (any DataCaching)? = nil,
            decoder: any ImageDecoding = ImageDecoder(),
            maximumConcurrentDownloads: Int = 6,
            maximumConcurrentDecodes: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
        ) {
            precondition(
                maximumConcurrentDownloads > 0 && maximumConcurrentDecodes > 0,
                "limits must be positive"
            )
            self.dataLoader = dataLoader
            self.imageCache = imageCache
            self.dataCache = dataCache
            self.decoder = decoder
            self.maximumConcurrentDownloads = maximumConcurrentDownloads
            self.maximumConcurrentDecodes = maximumConcurrentDecodes
        }
    }
}
