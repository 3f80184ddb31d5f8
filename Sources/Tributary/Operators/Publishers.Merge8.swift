#if !canImport(Combine)
    public import OpenCombine

    /// Merging this publisher with seven others, where Combine is absent.
    extension Publisher {
        /// Combines elements from this publisher with those from seven other publishers,
        /// delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        ///   - e: The fifth publisher to merge.
        ///   - f: The sixth publisher to merge.
        ///   - g: The seventh publisher to merge.
        ///   - h: The eighth publisher to merge.
        /// - Returns: A publisher that emits an event when any upstream publisher emits an
        ///   event.
        @inlinable
        public func merge<
            B: Publisher,
            C: Publisher,
            D: Publisher,
            E: Publisher,
            F: Publisher,
            G: Publisher,
            H: Publisher
        >(
            with b: B,
            _ c: C,
            _ d: D,
            _ e: E,
            _ f: F,
            _ g: G,
            _ h: H
        ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
        where
            Failure == B.Failure, Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output,
            D.Failure == E.Failure, D.Output == E.Output,
            E.Failure == F.Failure, E.Output == F.Output,
            F.Failure == G.Failure, F.Output == G.Output,
            G.Failure == H.Failure, G.Output == H.Output
        {
            Publishers.Merge8(self, b, c, d, e, f, g, h)
        }
    }

    /// The publisher that merges eight publishers, where Combine is absent.
    extension Publishers {
        /// A publisher created by applying the merge function to eight upstream publishers.
        public struct Merge8<
            A: Publisher,
            B: Publisher,
            C: Publisher,
            D: Publisher,
            E: Publisher,
            F: Publisher,
            G: Publisher,
            H: Publisher
        >: Publisher
        where
            A.Failure == B.Failure, A.Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output,
            D.Failure == E.Failure, D.Output == E.Output,
            E.Failure == F.Failure, E.Output == F.Output,
            F.Failure == G.Failure, F.Output == G.Output,
            G.Failure == H.Failure, G.Output == H.Output
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
            /// The eighth upstream publisher.
            public let h: H

            /// Creates a publisher that merges the elements of eight publishers.
            @inlinable
            public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
                self.a = a
                self.b = b
                self.c = c
                self.d = d
                self.e = e
                self.f = f
                self.g = g
                self.h = h
            }

            @inlinable
            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: 8,
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
                h.subscribe(fanIn.side(7))
            }
        }
    }

    extension Publishers.Merge8: Equatable
    where
        A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable,
        H: Equatable
    {}
#endif
