#if !canImport(Combine)
    public import OpenCombine

    /// Merging this publisher with four others, where Combine is absent.
    extension Publisher {
        /// Combines elements from this publisher with those from four other publishers,
        /// delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        ///   - e: The fifth publisher to merge.
        /// - Returns: A publisher that emits an event when any upstream publisher emits an
        ///   event.
        @inlinable
        public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
            with b: B,
            _ c: C,
            _ d: D,
            _ e: E
        ) -> Publishers.Merge5<Self, B, C, D, E>
        where
            Failure == B.Failure, Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output,
            D.Failure == E.Failure, D.Output == E.Output
        {
            Publishers.Merge5(self, b, c, d, e)
        }
    }

    /// The publisher that merges five publishers, where Combine is absent.
    extension Publishers {
        /// A publisher created by applying the merge function to five upstream publishers.
        public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
        where
            A.Failure == B.Failure, A.Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output,
            D.Failure == E.Failure, D.Output == E.Output
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

            /// Creates a publisher that merges the elements of five publishers.
            @inlinable
            public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
                self.a = a
                self.b = b
                self.c = c
                self.d = d
                self.e = e
            }

            @inlinable
            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: 5,
                    buffering: .everyValue,
                    description: "Merge"
                )
                a.subscribe(fanIn.side(0))
                b.subscribe(fanIn.side(1))
                c.subscribe(fanIn.side(2))
                d.subscribe(fanIn.side(3))
                e.subscribe(fanIn.side(4))
            }

            /// Combines elements from this publisher with those from another publisher.
            ///
            /// - Parameter other: Another publisher to merge.
            /// - Returns: A publisher that merges six publishers.
            @inlinable
            public func merge<P: Publisher>(
                with other: P
            ) -> Publishers.Merge6<A, B, C, D, E, P>
            where E.Failure == P.Failure, E.Output == P.Output {
                Publishers.Merge6(a, b, c, d, e, other)
            }

            /// Combines elements from this publisher with those from two other publishers.
            ///
            /// - Parameters:
            ///   - z: The sixth publisher to merge.
            ///   - y: The seventh publisher to merge.
            /// - Returns: A publisher that merges seven publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher>(
                with z: Z,
                _ y: Y
            ) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
            where
                E.Failure == Z.Failure, E.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output
            {
                Publishers.Merge7(a, b, c, d, e, z, y)
            }

            /// Combines elements from this publisher with those from three other publishers.
            ///
            /// - Parameters:
            ///   - z: The sixth publisher to merge.
            ///   - y: The seventh publisher to merge.
            ///   - x: The eighth publisher to merge.
            /// - Returns: A publisher that merges eight publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X
            ) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
            where
                E.Failure == Z.Failure, E.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output
            {
                Publishers.Merge8(a, b, c, d, e, z, y, x)
            }
        }
    }

    extension Publishers.Merge5: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
#endif
