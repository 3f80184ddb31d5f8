#if !canImport(Combine)
    public import OpenCombine

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

    extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

    extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

    extension Publishers.Merge4: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

    extension Publishers.Merge5: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}

    extension Publishers.Merge6: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}

    extension Publishers.Merge7: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}

    extension Publishers.Merge8: Equatable
    where
        A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable,
        H: Equatable
    {}

    extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
#endif
