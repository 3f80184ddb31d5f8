#if !canImport(Combine)
    public import OpenCombine

    /// The publisher that merges any number of publishers of one type, where Combine is absent.
    extension Publishers {
        /// A publisher created by applying the merge function to an arbitrary number of
        /// upstream publishers of one type.
        public struct MergeMany<Upstream: Publisher>: Publisher {
            public typealias Output = Upstream.Output
            public typealias Failure = Upstream.Failure

            /// The publishers that this publisher receives elements from.
            public let publishers: [Upstream]

            /// Creates a publisher that merges the given publishers.
            @inlinable
            public init(_ upstream: Upstream...) {
                publishers = upstream
            }

            /// Creates a publisher that merges the publishers of a sequence.
            @inlinable
            public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
                publishers = Array(upstream)
            }

            @inlinable
            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                guard !publishers.isEmpty else {
                    Empty<Output, Failure>().subscribe(subscriber)
                    return
                }
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: publishers.count,
                    buffering: .everyValue,
                    description: "Merge"
                )
                for (index, publisher) in publishers.enumerated() {
                    publisher.subscribe(fanIn.side(index))
                }
            }

            /// Adds a publisher to the ones this publisher merges.
            ///
            /// - Parameter other: Another publisher of the same type.
            /// - Returns: A publisher that merges all of these publishers.
            @inlinable
            public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
                Publishers.MergeMany(publishers + [other])
            }
        }
    }

    extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
#endif
