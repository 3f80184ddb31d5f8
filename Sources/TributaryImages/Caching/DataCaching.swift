public import Foundation

/// The ability to keep original image data on disk across launches.
public protocol DataCaching: Sendable {
    /// The data stored for `key`, or nil; reading counts as a use.
    func cachedData(for key: String) -> Data?
    /// Whether data is stored for `key`, without reading it.
    func containsData(for key: String) -> Bool
    /// Stores `data` for `key`. The call returns at once; the write happens in the background,
    /// and reads see the data meanwhile.
    func storeData(_ data: Data, for key: String)
    /// Forgets the data for `key`.
    func removeData(for key: String)
    /// Forgets everything.
    func removeAll()
}
