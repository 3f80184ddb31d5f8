import Crypto
import Foundation
import Testing
import TributaryImages
import TributaryTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct DataCacheTests {
    let directory = FileManager.default.temporaryDirectory.appending(
        path: "DataCacheTests-\(UUID().uuidString)"
    )

    func bytes(_ count: Int, _ value: UInt8) -> Data { Data(repeating: value, count: count) }

    @Test func storesReadsAndPersists() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DataCache(directory: directory)
        cache.storeData(bytes(1_000, 7), for: "https://example.com/a.jpg")
        #expect(cache.cachedData(for: "https://example.com/a.jpg") == bytes(1_000, 7))
        #expect(cache.containsData(for: "https://example.com/a.jpg"))
        #expect(cache.cachedData(for: "https://example.com/b.jpg") == nil)
        cache.flush()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1 && files[0].count == 64)
        let reopened = try DataCache(directory: directory)
        reopened.flush()
        #expect(reopened.cachedData(for: "https://example.com/a.jpg") == bytes(1_000, 7))
        #expect(reopened.totalSize == 1_000)
    }

    @Test func evictsLeastRecentlyUsedBeyondTheSizeLimit() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DataCache(directory: directory, sizeLimit: 3_000)
        cache.flush()
        for (index, key) in ["a", "b", "c"].enumerated() {
            cache.storeData(bytes(1_000, UInt8(index)), for: key)
        }
        cache.flush()
        #expect(cache.cachedData(for: "a") != nil)
        cache.storeData(bytes(1_000, 9), for: "d")
        cache.flush()
        #expect(cache.cachedData(for: "b") == nil)
        for key in ["a", "c", "d"] { #expect(cache.cachedData(for: key) != nil) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 3)
        #expect(cache.totalSize == 3_000)
    }

    @Test func dataLargerThanTheLimitEvictsNothing() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DataCache(directory: directory, sizeLimit: 3_000)
        cache.storeData(bytes(1_000, 1), for: "a")
        cache.storeData(bytes(1_000, 2), for: "b")
        cache.storeData(bytes(3_001, 3), for: "huge")
        cache.flush()
        #expect(cache.cachedData(for: "huge") == nil)
        #expect(
            cache.cachedData(for: "a") == bytes(1_000, 1) && cache.cachedData(for: "b") == bytes(1_000, 2)
        )
        // Newer data for a key that is too large to keep leaves no stale copy behind.
        cache.storeData(bytes(3_001, 4), for: "a")
        cache.flush()
        #expect(cache.cachedData(for: "a") == nil)
        #expect(cache.totalSize == 1_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
    }

    @Test func removeAndRemoveAll() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DataCache(directory: directory)
        cache.storeData(bytes(10, 1), for: "a")
        cache.storeData(bytes(10, 2), for: "b")
        cache.removeData(for: "a")
        #expect(cache.cachedData(for: "a") == nil)
        cache.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == 1)
        cache.removeAll()
        cache.flush()
        #expect(cache.cachedData(for: "b") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A cache reopened over many entries reads its index in the background; what is removed
    /// meanwhile stays removed, on disk too, and what is stored meanwhile stays.
    @Test(arguments: [false, true])
    func removalsWhileTheIndexIsReadHold(removingAll: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = (0..<1_000).map { "https://example.com/\($0).jpg" }
        let cache = try DataCache(directory: directory)
        for key in keys { cache.storeData(bytes(100, 1), for: key) }
        cache.flush()

        let reopened = try DataCache(directory: directory)
        if removingAll {
            reopened.removeAll()
        } else {
            keys.suffix(10).forEach(reopened.removeData)
        }
        reopened.storeData(bytes(50, 2), for: "stored meanwhile")
        #expect(reopened.cachedData(for: keys[999]) == nil && !reopened.containsData(for: keys[999]))
        reopened.flush()
        let kept = removingAll ? [] : keys.prefix(990)
        for opened in [reopened, try DataCache(directory: directory)] {
            opened.flush()
            #expect(opened.cachedData(for: keys[999]) == nil)
            #expect(opened.cachedData(for: keys[0]) == (removingAll ? nil : bytes(100, 1)))
            #expect(opened.cachedData(for: "stored meanwhile") == bytes(50, 2))
            #expect(opened.totalSize == kept.count * 100 + 50)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).count == kept.count + 1)
    }

    @Test func damagedFilesAreNeverServed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DataCache(directory: directory)
        cache.storeData(bytes(5_000, 3), for: "a")
        cache.flush()
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        let url = directory.appending(path: file)
        try Data(try Data(contentsOf: url).prefix(2_000)).write(to: url)
        let reopened = try DataCache(directory: directory)
        reopened.flush()
        #expect(reopened.cachedData(for: "a") == nil)
        reopened.flush()
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    /// Kills a writing process at random moments; whatever the cache serves afterwards is whole.
    @Test(.timeLimit(.minutes(5))) func processKilledMidWriteLeavesNoCorruptEntry() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try #require(Self.writerExecutable(), "DataCacheWriter is built with the tests")
        var served = 0
        for round in 0..<10 {
            let process = try Spawned(writer, arguments: [directory.path, "\(round + 1)"])
            // Killed once it has flushed a few times, in the middle of whatever write follows.
            let flushes = 1 + round % 4
            #expect(await Self.lines(from: process.standardOutput, count: flushes) == flushes)
            process.signal(SIGKILL)
            #expect(process.wait() == .signal(SIGKILL))

            let cache = try DataCache(directory: directory, sizeLimit: 8 << 20)
            cache.flush()
            for index in 0..<40 {
                let key = "entry-\(index)"
                guard let data = cache.cachedData(for: key) else { continue }
                served += 1
                let newline = try #require(data.firstIndex(of: 0x0A))
                let header = String(decoding: data[..<newline], as: UTF8.self).split(separator: "|")
                let body = data[(newline + 1)...]
                #expect(header.first.map(String.init) == key)
                #expect(
                    header.last.map(String.init)
                        == SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
                )
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.hasPrefix(".tmp-")
            }
            #expect(leftovers.isEmpty, "temporary files are cleaned when the cache opens")
        }
        #expect(served > 0, "the writer got entries onto the disk")
    }

    /// Reads `handle` until it has given `count` lines or ends; returns the lines read. The
    /// reads block, so they run on a thread of their own.
    static func lines(from handle: FileHandle, count: Int) async -> Int {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var lines = 0
                while lines < count {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    lines += data.count(where: { $0 == 0x0A })
                }
                continuation.resume(returning: min(lines, count))
            }
        }
    }

    /// Stores, reads and removes one key from many threads at once: every read gives nil or
    /// one whole value that was stored, and the thread sanitizer watches the cache's state.
    @Test(.timeLimit(.minutes(5))) func oneKeyStoredReadAndRemovedAtOnce() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DataCache(directory: directory)
        let values = (0..<4).map { bytes(2_000 + $0 * 500, UInt8($0 + 1)) }
        let key = "https://example.com/contended.jpg"
        let torn = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var torn = 0
                    for round in 0..<300 {
                        switch (worker + round) % 3 {
                        case 0: cache.storeData(values[worker], for: key)
                        case 1: cache.removeData(for: key)
                        default:
                            if let data = cache.cachedData(for: key), !values.contains(data) { torn += 1 }
                        }
                        if round % 50 == 0 { cache.flush() }
                    }
                    return torn
                }
            }
            return await group.reduce(0, +)
        }
        #expect(torn == 0)
        cache.storeData(values[2], for: key)
        cache.flush()
        #expect(cache.cachedData(for: key) == values[2])
        let reopened = try DataCache(directory: directory)
        reopened.flush()
        #expect(reopened.cachedData(for: key) == values[2])
    }

    static func writerExecutable() -> URL? {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        if let main = Bundle.main.executableURL { directory = main.deletingLastPathComponent() }
        for _ in 0..<4 {
            let candidate = directory.appending(path: "DataCacheWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}
