#if !canImport(Combine)
    public import OpenCombine

    /// Merging this publisher with five others, where Combine is absent.
    extension Publisher {
        /// Combines elements from this publisher with those from five other publishers,
        /// delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        ///   - e: The fifth publisher to merge.
        ///   - f: The sixth publisher to merge.
        /// - Returns: A publisher that emits an event when any upstream publisher emits an
        ///   event.
        @inlinable
        public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
            with b: B,
            _ c: C,
            _ d: D,
            _ e: E,
            _ f: F
        ) -> Publishers.Merge6<Self, B, C, D, E, F>
        where
            Failure == B.Failure, Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output,
            D.Failure == E.Failure, D.Output == E.Output,
            E.Failure == F.Failure, E.Output == F.Output
        {
            Publishers.Merge6(self, b, c, d, e, f)
        }
    }

    /// The publisher that merges six publishers, where Combine is absent.
    extension Publishers {
        /// A publisher created by applying the merge function to six upstream publishers.
        public struct Merge6<
            A: Publisher,
            B: Publisher,
            C: Publisher,
            D: Publisher,
            E: Publisher,
            F: Publisher
        >: Publisher
        where
            A.Failure == B.Failure, A.Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output,
            D.Failure == E.Failure, D.Output == E.Output,
            E.Failure == F.Failure, E.Output == F.Output
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

            /// Creates a publisher that merges the elements of six publishers.
            @inlinable
            public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
                self.a = a
                self.b = b
                self.c = c
                self.d = d
                self.e = e
                self.f = f
            }

            @inlinable
            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: 6,
                    buffering: .everyValue,
                    description: "Merge"
                )
                a.subscribe(fanIn.side(0))
                b.subscribe(fanIn.side(1))
                c.subscribe(fanIn.side(2))
                d.subscribe(fanIn.side(3))
                e.subscribe(fanIn.side(4))
                f.subscribe(fanIn.side(5))
            }

            /// Combines elements from this publisher with those from another publisher.
            ///
            /// - Parameter other: Another publisher to merge.
            /// - Returns: A publisher that merges seven publishers.
            @inlinable
            public func merge<P: Publisher>(
                with other: P
            ) -> Publishers.Merge7<A, B, C, D, E, F, P>
            where F.Failure == P.Failure, F.Output == P.Output {
                Publishers.Merge7(a, b, c, d, e, f, other)
            }

            /// Combines elements from this publisher with those from two other publishers.
            ///
            /// - Parameters:
            ///   - z: The seventh publisher to merge.
            ///   - y: The eighth publisher to merge.
            /// - Returns: A publisher that merges eight publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher>(
                with z: Z,
                _ y: Y
            ) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
            where
                F.Failure == Z.Failure, F.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output
            {
                Publishers.Merge8(a, b, c, d, e, f, z, y)
            }
        }
    }

    extension Publishers.Merge6: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
#endif
