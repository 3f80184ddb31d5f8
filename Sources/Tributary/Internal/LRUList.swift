/// Entries in recency order with O(1) lookup, insertion, promotion and removal: a doubly linked
/// list threaded through an array of slots, with a dictionary from key to slot.
///
/// Not thread-safe; the caches of every module keep it behind a lock.
package struct LRUList<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        /// Towards the most recently used end.
        var newer: Int
        /// Towards the least recently used end.
        var older: Int
    }

    private var slots: [Node?] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    /// The most recently used slot, or -1.
    private var newest = -1
    /// The least recently used slot, or -1.
    private var oldest = -1

    /// The sum of the entries' costs.
    package private(set) var totalCost = 0

    package init() {}

    package var count: Int { index.count }

    /// The value for `key`, which becomes the most recently used.
    package mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        promote(slot)
        return slots[slot]!.value
    }

    /// The value for `key`, leaving the order alone.
    package func peek(_ key: Key) -> Value? {
        index[key].map { slots[$0]!.value }
    }

    package func contains(_ key: Key) -> Bool { index[key] != nil }

    /// Adds or replaces the entry for `key` as the most recently used.
    package mutating func set(_ value: Value, for key: Key, cost: Int) {
        if let slot = index[key] {
            totalCost += cost - slots[slot]!.cost
            slots[slot]!.value = value
            slots[slot]!.cost = cost
            promote(slot)
            return
        }
        let node = Node(key: key, value: value, cost: cost, newer: -1, older: newest)
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot] = node
        } else {
            slot = slots.count
            slots.append(node)
        }
        if newest >= 0 { slots[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        index[key] = slot
        totalCost += cost
    }

    @discardableResult
    package mutating func remove(_ key: Key) -> Value? {
        guard let slot = index.removeValue(forKey: key) else { return nil }
        return unlink(slot).value
    }

    /// Removes and returns the least recently used entry.
    package mutating func removeOldest() -> (key: Key, value: Value, cost: Int)? {
        guard oldest >= 0 else { return nil }
        let key = slots[oldest]!.key
        index[key] = nil
        let node = unlink(oldest)
        return (node.key, node.value, node.cost)
    }

    package mutating func removeAll() {
        self = LRUList()
    }

    /// The keys from least to most recently used.
    package var keysFromOldest: [Key] {
        var keys: [Key] = []
        var slot = oldest
        while slot >= 0 {
            keys.append(slots[slot]!.key)
            slot = slots[slot]!.newer
        }
        return keys
    }

    private mutating func promote(_ slot: Int) {
        guard slot != newest else { return }
        let node = unlink(slot, free: false)
        slots[slot] = Node(key: node.key, value: node.value, cost: node.cost, newer: -1, older: newest)
        totalCost += node.cost
        if newest >= 0 { slots[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int, free: Bool = true) -> Node {
        let node = slots[slot]!
        if node.newer >= 0 { slots[node.newer]!.older = node.older } else { newest = node.older }
        if node.older >= 0 { slots[node.older]!.newer = node.newer } else { oldest = node.newer }
        totalCost -= node.cost
        if free {
            slots[slot] = nil
            freeSlots.append(slot)
        }
        return node
    }
}
