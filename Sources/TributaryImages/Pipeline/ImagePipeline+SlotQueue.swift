import DequeModule

extension ImagePipeline.Coordinator {
    enum Slot { case download, decode }

    struct Waiter {
        let job: Int
        let order: Int
        let continuation: CheckedContinuation<Void, any Swift.Error>
    }

    /// Slots in use and the work waiting for one: by priority, then first come first served.
    struct SlotQueue {
        let limit: Int
        var running = 0
        private var waiting: [ImageRequest.Priority: Deque<Waiter>] = [:]
        /// The priority each waiting job is filed under.
        private var filed: [Int: ImageRequest.Priority] = [:]

        init(limit: Int) {
            self.limit = limit
        }

        /// The priority of each job waiting for a slot.
        var waitingPriorities: [ImageRequest.Priority] { Array(filed.values) }

        mutating func append(_ waiter: Waiter, priority: ImageRequest.Priority) {
            waiting[priority, default: []].append(waiter)
            filed[waiter.job] = priority
        }

        /// The first waiter of the highest priority.
        mutating func popNext() -> Waiter? {
            for priority in ImageRequest.Priority.allCases.reversed() {
                if let waiter = waiting[priority]?.popFirst() {
                    filed[waiter.job] = nil
                    return waiter
                }
            }
            return nil
        }

        mutating func remove(job: Int) -> Waiter? {
            guard let priority = filed.removeValue(forKey: job),
                let index = waiting[priority]?.firstIndex(where: { $0.job == job })
            else { return nil }
            return waiting[priority]?.remove(at: index)
        }

        /// Refiles a waiting job under a new priority, keeping its place by arrival.
        mutating func move(job: Int, to priority: ImageRequest.Priority) {
            guard filed[job] != priority, let waiter = remove(job: job) else { return }
            var bucket = waiting[priority, default: []]
            let index = bucket.firstIndex { $0.order > waiter.order } ?? bucket.endIndex
            bucket.insert(waiter, at: index)
            waiting[priority] = bucket
            filed[job] = priority
        }
    }
}
