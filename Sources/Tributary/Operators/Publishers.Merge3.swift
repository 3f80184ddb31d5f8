#if !canImport(Combine)
    public import OpenCombine

    /// Merging this publisher with two others, where Combine is absent.
    extension Publisher {
        /// Combines elements from this publisher with those from two other publishers,
        /// delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - b: The second publisher to merge.
        ///   - c: The third publisher to merge.
        /// - Returns: A publisher that emits an event when any upstream publisher emits an
        ///   event.
        @inlinable
        public func merge<B: Publisher, C: Publisher>(
            with b: B,
            _ c: C
        ) -> Publishers.Merge3<Self, B, C>
        where
            Failure == B.Failure, Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output
        {
            Publishers.Merge3(self, b, c)
        }
    }

    /// The publisher that merges three publishers, where Combine is absent.
    extension Publishers {
        /// A publisher created by applying the merge function to three upstream publishers.
        public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
        where
            A.Failure == B.Failure, A.Output == B.Output,
            B.Failure == C.Failure, B.Output == C.Output
        {
            public typealias Output = A.Output
            public typealias Failure = A.Failure

            /// The first upstream publisher.
            public let a: A
            /// The second upstream publisher.
            public let b: B
            /// The third upstream publisher.
            public let c: C

            /// Creates a publisher that merges the elements of three publishers.
            @inlinable
            public init(_ a: A, _ b: B, _ c: C) {
                self.a = a
                self.b = b
                self.c = c
            }

            @inlinable
            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: 3,
                    buffering: .everyValue,
                    description: "Merge"
                )
                a.subscribe(fanIn.side(0))
                b.subscribe(fanIn.side(1))
                c.subscribe(fanIn.side(2))
            }

            /// Combines elements from this publisher with those from another publisher.
            ///
            /// - Parameter other: Another publisher to merge.
            /// - Returns: A publisher that merges four publishers.
            @inlinable
            public func merge<P: Publisher>(
                with other: P
            ) -> Publishers.Merge4<A, B, C, P>
            where C.Failure == P.Failure, C.Output == P.Output {
                Publishers.Merge4(a, b, c, other)
            }

            /// Combines elements from this publisher with those from two other publishers.
            ///
            /// - Parameters:
            ///   - z: The fourth publisher to merge.
            ///   - y: The fifth publisher to merge.
            /// - Returns: A publisher that merges five publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher>(
                with z: Z,
                _ y: Y
            ) -> Publishers.Merge5<A, B, C, Z, Y>
            where
                C.Failure == Z.Failure, C.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output
            {
                Publishers.Merge5(a, b, c, z, y)
            }

            /// Combines elements from this publisher with those from three other publishers.
            ///
            /// - Parameters:
            ///   - z: The fourth publisher to merge.
            ///   - y: The fifth publisher to merge.
            ///   - x: The sixth publisher to merge.
            /// - Returns: A publisher that merges six publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X
            ) -> Publishers.Merge6<A, B, C, Z, Y, X>
            where
                C.Failure == Z.Failure, C.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output
            {
                Publishers.Merge6(a, b, c, z, y, x)
            }

            /// Combines elements from this publisher with those from four other publishers.
            ///
            /// - Parameters:
            ///   - z: The fourth publisher to merge.
            ///   - y: The fifth publisher to merge.
            ///   - x: The sixth publisher to merge.
            ///   - w: The seventh publisher to merge.
            /// - Returns: A publisher that merges seven publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X,
                _ w: W
            ) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
            where
                C.Failure == Z.Failure, C.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output,
                X.Failure == W.Failure, X.Output == W.Output
            {
                Publishers.Merge7(a, b, c, z, y, x, w)
            }

            /// Combines elements from this publisher with those from five other publishers.
            ///
            /// - Parameters:
            ///   - z: The fourth publisher to merge.
            ///   - y: The fifth publisher to merge.
            ///   - x: The sixth publisher to merge.
            ///   - w: The seventh publisher to merge.
            ///   - v: The eighth publisher to merge.
            /// - Returns: A publisher that merges eight publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X,
                _ w: W,
                _ v: V
            ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
            where
                C.Failure == Z.Failure, C.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output,
                X.Failure == W.Failure, X.Output == W.Output,
                W.Failure == V.Failure, W.Output == V.Output
            {
                Publishers.Merge8(a, b, c, z, y, x, w, v)
            }
        }
    }

    extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
#endif
