import Testing
import TributaryImages
import TributaryTestSupport

struct ImageCacheTests {
    /// A 10×10 bitmap costs 400 bytes.
    let image = Bitmap(width: 10, height: 10, fill: .init(red: 1, green: 2, blue: 3))

    func key(_ name: String) -> ImageCacheKey { ImageCacheKey(dataKey: name) }

    @Test func evictsTheLeastRecentlyUsedFirst() {
        let cache = ImageCache(costLimit: 4_000, entryCostRatio: 1)
        for name in ["a", "b", "c"] { cache.store(image, for: key(name)) }
        #expect(cache.image(for: key("a")) != nil)
        cache.store(image, for: key("d"))
        #expect(cache.keys.map(\.dataKey) == ["b", "c", "a", "d"])
        let limited = ImageCache(costLimit: 1_200, entryCostRatio: 1)
        for name in ["a", "b", "c"] { limited.store(image, for: key(name)) }
        _ = limited.image(for: key("a"))
        limited.store(image, for: key("d"))
        #expect(limited.keys.map(\.dataKey) == ["c", "a", "d"])
        #expect(limited.totalCost == 1_200)
    }

    @Test func countLimitEvicts() {
        let cache = ImageCache(costLimit: 1 << 30, countLimit: 2)
        for name in ["a", "b", "c"] { cache.store(image, for: key(name)) }
        #expect(cache.keys.map(\.dataKey) == ["b", "c"])
    }

    @Test func noEntryOverTenPercentOfTheLimit() {
        let cache = ImageCache(costLimit: 3_999)
        cache.store(image, for: key("big"))
        #expect(cache.image(for: key("big")) == nil)
        let roomy = ImageCache(costLimit: 4_000)
        roomy.store(image, for: key("fits"))
        #expect(roomy.image(for: key("fits")) == image)
    }

    @Test func processorsAreSeparateEntries() {
        let cache = ImageCache()
        cache.store(image, for: ImageCacheKey(dataKey: "u", processors: ["resize(1x1,fit)"]))
        #expect(cache.image(for: key("u")) == nil)
        #expect(cache.image(for: ImageCacheKey(dataKey: "u", processors: ["resize(1x1,fit)"])) == image)
    }

    @Test func entriesExpireAfterTheirTimeToLive() {
        let clock = Locked(ContinuousClock.now)
        let cache = ImageCache(timeToLive: .seconds(60), now: { clock.withLock { $0 } })
        cache.store(image, for: key("a"))
        clock.withLock { $0 = $0 + .seconds(59) }
        #expect(cache.image(for: key("a")) != nil)
        clock.withLock { $0 = $0 + .seconds(2) }
        #expect(cache.image(for: key("a")) == nil)
        #expect(cache.count == 0)
    }

    @Test func concurrentUseKeepsTheTotalsRight() async {
        let cache = ImageCache(costLimit: 40_000, entryCostRatio: 1)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<500 {
                        let name = "\(worker)-\(round % 150)"
                        if cache.image(for: key(name)) == nil { cache.store(image, for: key(name)) }
                        if round % 50 == 0 { cache.removeImage(for: key(name)) }
                    }
                }
            }
        }
        #expect(cache.totalCost == cache.count * 400)
        #expect(cache.totalCost <= 40_000)
    }
}
