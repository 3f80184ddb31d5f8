#if !canImport(Combine)
    public import OpenCombine

    /// Merging this publisher with three others, where Combine is absent.
    extension Publisher {
        /// Combines elements from this publisher with those from three other publishers,
        /// delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        ///   - d: The fourth publisher to merge.
        /// - Returns: A publisher that emits an event when any upstream publisher emits an
        ///   event.
        @inlinable
        public func merge<B: Publisher, C: Publisher, D: Publisher>(
            with b: B,
            _ c: C,
            _ d: D
        ) -> Publishers.Merge4<Self, B, C, D>
        where
            Failure == B.Failure, Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output
        {
            Publishers.Merge4(self, b, c, d)
        }
    }

    /// The publisher that merges four publishers, where Combine is absent.
    extension Publishers {
        /// A publisher created by applying the merge function to four upstream publishers.
        public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
        where
            A.Failure == B.Failure, A.Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output,
            C.Failure == D.Failure, C.Output == D.Output
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

            /// Creates a publisher that merges the elements of four publishers.
            @inlinable
            public init(_ a: A, _ b: B, _ c: C, _ d: D) {
                self.a = a
                self.b = b
                self.c = c
                self.d = d
            }

            @inlinable
            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: 4,
                    buffering: .everyValue,
                    description: "Merge"
                )
                a.subscribe(fanIn.side(0))
                b.subscribe(fanIn.side(1))
                c.subscribe(fanIn.side(2))
                d.subscribe(fanIn.side(3))
            }

            /// Combines elements from this publisher with those from another publisher.
            ///
            /// - Parameter other: Another publisher to merge.
            /// - Returns: A publisher that merges five publishers.
            @inlinable
            public func merge<P: Publisher>(
                with other: P
            ) -> Publishers.Merge5<A, B, C, D, P>
            where D.Failure == P.Failure, D.Output == P.Output {
                Publishers.Merge5(a, b, c, d, other)
            }

            /// Combines elements from this publisher with those from two other publishers.
            ///
            /// - Parameters:
            ///   - z: The fifth publisher to merge.
            ///   - y: The sixth publisher to merge.
            /// - Returns: A publisher that merges six publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher>(
                with z: Z,
                _ y: Y
            ) -> Publishers.Merge6<A, B, C, D, Z, Y>
            where
                D.Failure == Z.Failure, D.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output
            {
                Publishers.Merge6(a, b, c, d, z, y)
            }

            /// Combines elements from this publisher with those from three other publishers.
            ///
            /// - Parameters:
            ///   - z: The fifth publisher to merge.
            ///   - y: The sixth publisher to merge.
            ///   - x: The seventh publisher to merge.
            /// - Returns: A publisher that merges seven publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X
            ) -> Publishers.Merge7<A, B, C, D, Z, Y, X>
            where
                D.Failure == Z.Failure, D.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output
            {
                Publishers.Merge7(a, b, c, d, z, y, x)
            }

            /// Combines elements from this publisher with those from four other publishers.
            ///
            /// - Parameters:
            ///   - z: The fifth publisher to merge.
            ///   - y: The sixth publisher to merge.
            ///   - x: The seventh publisher to merge.
            ///   - w: The eighth publisher to merge.
            /// - Returns: A publisher that merges eight publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X,
                _ w: W
            ) -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
            where
                D.Failure == Z.Failure, D.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output,
                X.Failure == W.Failure, X.Output == W.Output
            {
                Publishers.Merge8(a, b, c, d, z, y, x, w)
            }
        }
    }

    extension Publishers.Merge4: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
#endif
