import Crypto
public import Foundation
import Tributary

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A disk cache of original image data: one file per key, named by the key's SHA-256, with a
/// total-size limit enforced least recently used first.
///
/// - An in-memory index answers misses and tracks recency; the directory is scanned once, in
///   the background, when the cache is created. What is stored or removed meanwhile holds.
/// - Writes happen on a background queue, never on the caller's path: the data is written to
///   a temporary file, which is then renamed over the entry. A process killed at any moment
///   leaves either the old entry, the new one, or none — never a partial one. Each file ends
///   with a trailer stating the payload's length, so a file damaged by anything else is
///   detected and removed instead of served.
///
/// ```swift
/// let cache = try DataCache(directory: cachesURL.appending(path: "images"), sizeLimit: 200 << 20)
/// cache.storeData(jpeg, for: url.absoluteString)
/// let again = cache.cachedData(for: url.absoluteString)
/// ```
public final class DataCache: DataCaching {
    /// Where the files are.
    public let directory: URL
    /// The most bytes of payload kept.
    public let sizeLimit: Int

    private struct State {
        /// File name → payload size, in recency order.
        var index = LRUList<String, Int>()
        /// Data stored but not yet written, by file name, with the write's number.
        var pending: [String: (data: Data, write: Int)] = [:]
        /// When each file's modification date was last brought up to date after a read.
        var touched: [String: ContinuousClock.Instant] = [:]
        var writes = 0
        var indexLoaded = false
        /// While the index is being read: whether everything was removed, and what was removed
        /// since, so that the files the directory scan finds do not bring them back.
        var clearedBeforeLoad = false
        var removedBeforeLoad: Set<String> = []

        /// Whether an entry the index does not know yet was removed while it was being read.
        func isRemovedBeforeLoad(_ name: String) -> Bool {
            !indexLoaded && !index.contains(name) && (clearedBeforeLoad || removedBeforeLoad.contains(name))
        }

        mutating func remove(_ name: String) {
            index.remove(name)
            pending[name] = nil
            touched[name] = nil
            if !indexLoaded { removedBeforeLoad.insert(name) }
        }

        mutating func removeAll() {
            index.removeAll()
            pending.removeAll()
            touched.removeAll()
            if !indexLoaded {
                clearedBeforeLoad = true
                removedBeforeLoad.removeAll()
            }
        }
    }

    private let state = Protected(State())
    private let queue = DispatchQueue(label: "TributaryImages.DataCache", qos: .utility)
    /// The directory's path with a trailing slash, for building file paths cheaply.
    private let directoryPath: String

    /// Opens (creating if needed) a cache in `directory`.
    ///
    /// - Parameters:
    ///   - directory: The cache's own directory; files it does not recognise are left alone.
    ///   - sizeLimit: The most bytes kept; 150 MiB by default.
    /// - Throws: The file system's error when the directory cannot be created.
    public init(directory: URL, sizeLimit: Int = 150 << 20) throws {
        self.directory = directory
        self.sizeLimit = sizeLimit
        directoryPath = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        queue.async { [self] in loadIndex() }
    }

    /// A cache in the user's caches directory, under `name`.
    public convenience init(name: String, sizeLimit: Int = 150 << 20) throws {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        try self.init(
            directory: caches.appending(path: name, directoryHint: .isDirectory),
            sizeLimit: sizeLimit
        )
    }

    // MARK: Reading

    public func cachedData(for key: String) -> Data? {
        let name = Self.fileName(for: key)
        enum Lookup { case pending(Data), onDisk(touch: Bool), missing }
        let now = ContinuousClock.now
        let lookup = state.withLock { state -> Lookup in
            if let pending = state.pending[name] { return .pending(pending.data) }
            if state.indexLoaded {
                guard state.index.value(for: name) != nil else { return .missing }
            } else if state.isRemovedBeforeLoad(name) {
                return .missing
            }
            guard state.touched[name].map({ now - $0 > Self.touchInterval }) ?? true else {
                return .onDisk(touch: false)
            }
            state.touched[name] = now
            return .onDisk(touch: true)
        }
        let touch: Bool
        switch lookup {
        case .pending(let data): return data
        case .missing: return nil
        case .onDisk(let stale): touch = stale
        }
        let path = directoryPath + name
        guard let contents = Self.readFile(path), let payload = Self.payload(of: contents) else {
            // Missing, or damaged by something other than this cache: never serve it.
            forget(name, deletingFile: FileManager.default.fileExists(atPath: path))
            return nil
        }
        if touch { queue.async { [self] in self.touch(name) } }
        return payload
    }

    /// The whole file at `path`, read with one allocation and no zero-filling.
    private static func readFile(_ path: String) -> Data? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= 0 else { return nil }
        let size = Int(status.st_size)
        guard let buffer = malloc(max(size, 1)) else { return nil }
        var offset = 0
        while offset < size {
            let count = read(descriptor, buffer + offset, size - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                free(buffer)
                return nil
            }
            offset += count
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .free)
    }

    public func containsData(for key: String) -> Bool {
        let name = Self.fileName(for: key)
        let known: Bool? = state.withLock { state in
            if state.pending[name] != nil { return true }
            if state.isRemovedBeforeLoad(name) { return false }
            return state.indexLoaded ? state.index.contains(name) : nil
        }
        return known ?? FileManager.default.fileExists(atPath: fileURL(name).path)
    }

    /// The payload's size in bytes kept, as the index knows it.
    public var totalSize: Int { state.withLock { $0.index.totalCost } }

    /// The keys' file names from least to most recently used.
    public var fileNames: [String] { state.withLock { $0.index.keysFromOldest } }

    // MARK: Writing

    /// Keeps `data` under `key`, in the background. Data larger than ``sizeLimit`` is not
    /// kept, and replaces what the key held with nothing: making room for it would evict every
    /// other entry, only for it to be evicted too.
    public func storeData(_ data: Data, for key: String) {
        guard data.count <= sizeLimit else { return removeData(for: key) }
        let name = Self.fileName(for: key)
        let (number, evicted) = state.withLock { state -> (Int, [String]) in
            state.writes += 1
            state.pending[name] = (data, state.writes)
            state.index.set(data.count, for: name, cost: data.count)
            return (state.writes, Self.trim(&state, to: sizeLimit))
        }
        queue.async { [self] in
            write(data, to: name, number: number)
            evicted.forEach(deleteFile)
        }
    }

    public func removeData(for key: String) {
        forget(Self.fileName(for: key), deletingFile: true)
    }

    public func removeAll() {
        state.withLock { $0.removeAll() }
        queue.async { [self] in
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            where Self.isEntryName(name) || name.hasPrefix(Self.temporaryPrefix) {
                deleteFile(name)
            }
        }
    }

    /// Waits until every write and deletion asked for so far has reached the disk.
    public func flush() {
        queue.sync {}
    }

    // MARK: File format

    /// The file name for `key`: its SHA-256 in hex.
    static func fileName(for key: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let digest = SHA256.hash(data: Data(key.utf8))
        return String(unsafeUninitializedCapacity: 64) { buffer in
            for (index, byte) in digest.enumerated() {
                buffer[index * 2] = digits[Int(byte >> 4)]
                buffer[index * 2 + 1] = digits[Int(byte & 0x0F)]
            }
            return 64
        }
    }

    static let temporaryPrefix = ".tmp-"
    private static let magic: [UInt8] = Array("TRC1".utf8)
    private static let trailerSize = 12

    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The payload of a file whose trailer is intact: "TRC1" and the payload's length.
    static func payload(of contents: Data) -> Data? {
        let count = contents.count
        guard count >= trailerSize else { return nil }
        let intact = contents.withUnsafeBytes { bytes -> Bool in
            let trailer = count - trailerSize
            guard bytes[trailer] == magic[0], bytes[trailer + 1] == magic[1], bytes[trailer + 2] == magic[2],
                bytes[trailer + 3] == magic[3]
            else { return false }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: trailer + 4, as: UInt64.self))
                == UInt64(trailer)
        }
        return intact ? contents.prefix(count - trailerSize) : nil
    }

    static func encoded(_ payload: Data) -> Data {
        var contents = payload
        contents.append(contentsOf: magic)
        withUnsafeBytes(of: UInt64(payload.count).littleEndian) { contents.append(contentsOf: $0) }
        return contents
    }

    // MARK: Background work

    private func fileURL(_ name: String) -> URL {
        directory.appending(path: name, directoryHint: .notDirectory)
    }

    private func forget(_ name: String, deletingFile: Bool) {
        state.withLock { $0.remove(name) }
        if deletingFile { queue.async { [self] in deleteFile(name) } }
    }

    /// Evicts least recently used entries until the total fits; returns their file names.
    private static func trim(_ state: inout State, to limit: Int) -> [String] {
        var evicted: [String] = []
        while state.index.totalCost > limit, let oldest = state.index.removeOldest() {
            state.remove(oldest.key)
            evicted.append(oldest.key)
        }
        return evicted
    }

    private func write(_ data: Data, to name: String, number: Int) {
        let stillWanted = state.withLock { $0.pending[name]?.write == number }
        guard stillWanted else { return }
        let temporary = directory.appending(
            path: Self.temporaryPrefix + UUID().uuidString,
            directoryHint: .notDirectory
        )
        do {
            try Self.encoded(data).write(to: temporary)
            guard rename(temporary.path, fileURL(name).path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return forget(name, deletingFile: false)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return forget(name, deletingFile: false)
        }
        let removedMeanwhile = state.withLock { state -> Bool in
            if state.pending[name]?.write == number { state.pending[name] = nil }
            return !state.index.contains(name)
        }
        if removedMeanwhile { deleteFile(name) }
    }

    private func deleteFile(_ name: String) {
        let stillWanted = state.withLock { $0.index.contains(name) }
        if !stillWanted { unlink(fileURL(name).path) }
    }

    /// How often a file read again and again has its modification date refreshed.
    private static let touchInterval = Duration.seconds(60)

    /// Keeps recency across launches: the index is rebuilt from modification dates.
    private func touch(_ name: String) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: fileURL(name).path)
    }

    private func loadIndex() {
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        var found: [(name: String, size: Int, date: Date)] = []
        for name in names {
            let path = fileURL(name).path
            if name.hasPrefix(Self.temporaryPrefix) {
                // Left behind by a process that stopped mid-write.
                try? manager.removeItem(atPath: path)
                continue
            }
            guard Self.isEntryName(name), let attributes = try? manager.attributesOfItem(atPath: path),
                let size = (attributes[.size] as? NSNumber)?.intValue, size >= Self.trailerSize
            else { continue }
            found.append(
                (name, size - Self.trailerSize, attributes[.modificationDate] as? Date ?? .distantPast)
            )
        }
        found.sort { $0.date < $1.date }
        let evicted = state.withLock { state -> [String] in
            let newer = state.index
            var index = LRUList<String, Int>()
            for entry in found where !state.isRemovedBeforeLoad(entry.name) {
                index.set(entry.size, for: entry.name, cost: entry.size)
            }
            for name in newer.keysFromOldest {
                let size = newer.peek(name) ?? 0
                index.set(size, for: name, cost: size)
            }
            state.index = index
            state.indexLoaded = true
            state.clearedBeforeLoad = false
            state.removedBeforeLoad = []
            return Self.trim(&state, to: sizeLimit)
        }
        evicted.forEach(deleteFile)
    }
}
