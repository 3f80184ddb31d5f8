#if canImport(Glibc)
    import Glibc

    /// Runs `body` on a thread of its own with a stack of `size` bytes, painted with a pattern
    /// first, and returns how many bytes of the stack `body` used at most: the deepest point
    /// the pattern was overwritten from the top. The stack grows down, so the untouched
    /// pattern is what is left at its low end.
    public func stackUse(size: Int = 64 << 20, _ body: @escaping @Sendable () -> Void) -> Int {
        let pattern: UInt8 = 0xA5
        let stack = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1 << 14)
        defer { stack.deallocate() }
        stack.initializeMemory(as: UInt8.self, repeating: pattern, count: size)
        let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
        defer { attributes.deallocate() }
        pthread_attr_init(attributes)
        defer { pthread_attr_destroy(attributes) }
        pthread_attr_setstack(attributes, stack, size)
        final class Job {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread,
            attributes,
            { argument in
                Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            },
            job
        )
        precondition(created == 0, "pthread_create failed with \(created)")
        pthread_join(thread, nil)
        let bytes = stack.assumingMemoryBound(to: UInt8.self)
        var untouched = 0
        while untouched < size, bytes[untouched] == pattern { untouched += 1 }
        return size - untouched
    }
#endif
