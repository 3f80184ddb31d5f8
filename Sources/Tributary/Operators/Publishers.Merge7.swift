#if !canImport(Combine)
    public import OpenCombine

    /// Merging this publisher with six others, where Combine is absent.
    extension Publisher {
        /// Combines elements from this publisher with those from six other publishers,
        /// delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        ///   - e: The fifth publisher to merge.
        ///   - f: The sixth publisher to merge.
        ///   - g: The seventh publisher to merge.
        /// - Returns: A publisher that emits an event when any upstream publisher emits an
        ///   event.
        @inlinable
        public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
            with b: B,
            _ c: C,
            _ d: D,
            _ e: E,
            _ f: F,
            _ g: G
        ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
        where
            Failure == B.Failure, Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output,
            D.Failure == E.Failure, D.Output == E.Output,
            E.Failure == F.Failure, E.Output == F.Output,
            F.Failure == G.Failure, F.Output == G.Output
        {
            Publishers.Merge7(self, b, c, d, e, f, g)
        }
    }

    /// The publisher that merges seven publishers, where Combine is absent.
    extension Publishers {
        /// A publisher created by applying the merge function to seven upstream publishers.
        public struct Merge7<
            A: Publisher,
            B: Publisher,
            C: Publisher,
            D: Publisher,
            E: Publisher,
            F: Publisher,
            G: Publisher
        >: Publisher
        where
            A.Failure == B.Failure, A.Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output,
            D.Failure == E.Failure, D.Output == E.Output,
            E.Failure == F.Failure, E.Output == F.Output,
            F.Failure == G.Failure, F.Output == G.Output
        {
            public typealias Output = A.Output
            public typealias Failure = A.Failure

            /// The first upstream publisher.
            public let a: A
            /// The second upstream publisher.
            public let b: B
            /// The third upstream publisher.
            public let c: C
            /// The fourth upstream publisher.
            public let d: D
            /// The fifth upstream publisher.
            public let e: E
            /// The sixth upstream publisher.
            public let f: F
            /// The seventh upstream publisher.
            public let g: G

            /// Creates a publisher that merges the elements of seven publishers.
            @inlinable
            public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
                self.a = a
                self.b = b
                self.c = c
                self.d = d
                self.e = e
                self.f = f
                self.g = g
            }

            @inlinable
            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: 7,
                    buffering: .everyValue,
                    description: "Merge"
                )
                a.subscribe(fanIn.side(0))
                b.subscribe(fanIn.side(1))
                c.subscribe(fanIn.side(2))
                d.subscribe(fanIn.side(3))
                e.subscribe(fanIn.side(4))
                f.subscribe(fanIn.side(5))
                g.subscribe(fanIn.side(6))
            }

            /// Combines elements from this publisher with those from another publisher.
            ///
            /// - Parameter other: Another publisher to merge.
            /// - Returns: A publisher that merges eight publishers.
            @inlinable
            public func merge<P: Publisher>(
                with other: P
            ) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
            where G.Failure == P.Failure, G.Output == P.Output {
                Publishers.Merge8(a, b, c, d, e, f, g, other)
            }
        }
    }

    extension Publishers.Merge7: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}
#endif
