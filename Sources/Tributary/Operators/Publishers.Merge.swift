#if !canImport(Combine)
    public import OpenCombine

    /// Merging this publisher with another, where Combine is absent.
    extension Publisher {
        /// Combines elements from this publisher with those from another publisher of the
        /// same type, delivering an interleaved sequence of elements.
        ///
        /// Values are delivered in the order they arrive; the result finishes after every
        /// upstream has finished and fails with the first failure.
        ///
        /// ```swift
        /// let taps = PassthroughSubject<String, Never>()
        /// let keys = PassthroughSubject<String, Never>()
        /// let cancellable = taps.merge(with: keys).sink { print($0) }
        /// taps.send("tap")  // tap
        /// keys.send("key")  // key
        /// ```
        ///
        /// - Parameter other: Another publisher.
        /// - Returns: A publisher that emits an event when either upstream publisher emits
        ///   an event.
        @inlinable
        public func merge<P: Publisher>(
            with other: P
        ) -> Publishers.Merge<Self, P>
        where Failure == P.Failure, Output == P.Output {
            Publishers.Merge(self, other)
        }
    }

    /// The publisher that merges two publishers, where Combine is absent.
    extension Publishers {
        /// A publisher created by applying the merge function to two upstream publishers.
        ///
        /// Downstream demand is passed on to every upstream, and a demand of N yields at
        /// most N values; values that arrive beyond the demand wait, in arrival order,
        /// until more is requested.
        public struct Merge<A: Publisher, B: Publisher>: Publisher
        where A.Failure == B.Failure, A.Output == B.Output {
            public typealias Output = A.Output
            public typealias Failure = A.Failure

            /// The first upstream publisher.
            public let a: A
            /// The second upstream publisher.
            public let b: B

            /// Creates a publisher that merges the elements of two publishers.
            @inlinable
            public init(_ a: A, _ b: B) {
                self.a = a
                self.b = b
            }

            @inlinable
            public func receive<S: Subscriber>(subscriber: S)
            where Failure == S.Failure, Output == S.Input {
                let fanIn = FanIn(
                    downstream: subscriber,
                    upstreamCount: 2,
                    buffering: .everyValue,
                    description: "Merge"
                )
                a.subscribe(fanIn.side(0))
                b.subscribe(fanIn.side(1))
            }

            /// Combines elements from this publisher with those from another publisher.
            ///
            /// - Parameter other: Another publisher to merge.
            /// - Returns: A publisher that merges three publishers.
            @inlinable
            public func merge<P: Publisher>(
                with other: P
            ) -> Publishers.Merge3<A, B, P>
            where B.Failure == P.Failure, B.Output == P.Output {
                Publishers.Merge3(a, b, other)
            }

            /// Combines elements from this publisher with those from two other publishers.
            ///
            /// - Parameters:
            ///   - z: The third publisher to merge.
            ///   - y: The fourth publisher to merge.
            /// - Returns: A publisher that merges four publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher>(
                with z: Z,
                _ y: Y
            ) -> Publishers.Merge4<A, B, Z, Y>
            where
                B.Failure == Z.Failure, B.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output
            {
                Publishers.Merge4(a, b, z, y)
            }

            /// Combines elements from this publisher with those from three other publishers.
            ///
            /// - Parameters:
            ///   - z: The third publisher to merge.
            ///   - y: The fourth publisher to merge.
            ///   - x: The fifth publisher to merge.
            /// - Returns: A publisher that merges five publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X
            ) -> Publishers.Merge5<A, B, Z, Y, X>
            where
                B.Failure == Z.Failure, B.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output
            {
                Publishers.Merge5(a, b, z, y, x)
            }

            /// Combines elements from this publisher with those from four other publishers.
            ///
            /// - Parameters:
            ///   - z: The third publisher to merge.
            ///   - y: The fourth publisher to merge.
            ///   - x: The fifth publisher to merge.
            ///   - w: The sixth publisher to merge.
            /// - Returns: A publisher that merges six publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X,
                _ w: W
            ) -> Publishers.Merge6<A, B, Z, Y, X, W>
            where
                B.Failure == Z.Failure, B.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output,
                X.Failure == W.Failure, X.Output == W.Output
            {
                Publishers.Merge6(a, b, z, y, x, w)
            }

            /// Combines elements from this publisher with those from five other publishers.
            ///
            /// - Parameters:
            ///   - z: The third publisher to merge.
            ///   - y: The fourth publisher to merge.
            ///   - x: The fifth publisher to merge.
            ///   - w: The sixth publisher to merge.
            ///   - v: The seventh publisher to merge.
            /// - Returns: A publisher that merges seven publishers.
            @inlinable
            public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
                with z: Z,
                _ y: Y,
                _ x: X,
                _ w: W,
                _ v: V
            ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
            where
                B.Failure == Z.Failure, B.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output,
                X.Failure == W.Failure, X.Output == W.Output,
                W.Failure == V.Failure, W.Output == V.Output
            {
                Publishers.Merge7(a, b, z, y, x, w, v)
            }

            /// Combines elements from this publisher with those from six other publishers.
            ///
            /// - Parameters:
            ///   - z: The third publisher to merge.
            ///   - y: The fourth publisher to merge.
            ///   - x: The fifth publisher to merge.
            ///   - w: The sixth publisher to merge.
            ///   - v: The seventh publisher to merge.
            ///   - u: The eighth publisher to merge.
            /// - Returns: A publisher that merges eight publishers.
            @inlinable
            public func merge<
                Z: Publisher,
                Y: Publisher,
                X: Publisher,
                W: Publisher,
                V: Publisher,
                U: Publisher
            >(
                with z: Z,
                _ y: Y,
                _ x: X,
                _ w: W,
                _ v: V,
                _ u: U
            ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
            where
                B.Failure == Z.Failure, B.Output == Z.Output,
                Z.Failure == Y.Failure, Z.Output == Y.Output,
                Y.Failure == X.Failure, Y.Output == X.Output,
                X.Failure == W.Failure, X.Output == W.Output,
                W.Failure == V.Failure, W.Output == V.Output,
                V.Failure == U.Failure, V.Output == U.Output
            {
                Publishers.Merge8(a, b, z, y, x, w, v, u)
            }
        }
    }

    extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
#endif
