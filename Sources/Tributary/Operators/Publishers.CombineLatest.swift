#if !canImport(Combine)
    public import OpenCombine

    /// Combining the latest values of this publisher and up to three others, where Combine is absent.
    extension Publisher {
        /// Subscribes to an additional publisher and publishes a tuple upon receiving output
        /// from either publisher.
        ///
        /// Nothing is published until both publishers have produced a value; after that,
        /// every new value from either one is published with the latest value of the other.
        /// The result finishes when both upstreams have finished, and fails with the first
        /// failure, cancelling the other upstream.
        ///
        /// ```swift
        /// let name = PassthroughSubject<String, Never>()
        /// let age = PassthroughSubject<Int, Never>()
        /// let cancellable = name.combineLatest(age).sink { print($0) }
        /// name.send("Ada")   // nothing yet
        /// age.send(36)       // ("Ada", 36)
        /// name.send("Grace") // ("Grace", 36)
        /// ```
        ///
        /// - Parameter other: Another publisher to combine with this one.
        /// - Returns: A publisher that receives and combines elements from this and another
        ///   publisher.
        @inlinable
        public func combineLatest<P: Publisher>(
            _ other: P
        ) -> Publishers.CombineLatest<Self, P> where Failure == P.Failure {
            Publishers.CombineLatest(self, other)
        }

        /// Subscribes to an additional publisher and invokes a closure upon receiving output
        /// from either publisher.
        ///
        /// ```swift
        /// let total = price.combineLatest(quantity) { $0 * Double($1) }
        /// ```
        ///
        /// - Parameters:
        ///   - other: Another publisher to combine with this one.
        ///   - transform: A closure that receives the most-recent value from each publisher
        ///     and returns a new value to publish.
        /// - Returns: A publisher that receives and combines elements from this and another
        ///   publisher.
        @inlinable
        public func combineLatest<P: Publisher, T>(
            _ other: P,
            _ transform: @escaping (Output, P.Output) -> T
        ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
            Publishers.Map(upstream: Publishers.CombineLatest(self, other), transform: transform)
        }

        /// Subscribes to two additional publishers and publishes a tuple upon receiving output
        /// from any of the publishers.
        ///
        /// - Parameters:
        ///   - publisher1: A second publisher to combine with the first publisher.
        ///   - publisher2: A third publisher to combine with the first publisher.
        /// - Returns: A publisher that receives and combines elements from this publisher and
        ///   two other publishers.
        @inlinable
        public func combineLatest<P: Publisher, Q: Publisher>(
            _ publisher1: P,
            _ publisher2: Q
        ) -> Publishers.CombineLatest3<Self, P, Q>
        where Failure == P.Failure, P.Failure == Q.Failure {
            Publishers.CombineLatest3(self, publisher1, publisher2)
        }

        /// Subscribes to two additional publishers and invokes a closure upon receiving output
        /// from any of the publishers.
        ///
        /// - Parameters:
        ///   - publisher1: A second publisher to combine with the first publisher.
        ///   - publisher2: A third publisher to combine with the first publisher.
        ///   - transform: A closure that receives the most-recent value from each publisher
        ///     and returns a new value to publish.
        /// - Returns: A publisher that receives and combines elements from this publisher and
        ///   two other publishers.
        @inlinable
        public func combineLatest<P: Publisher, Q: Publisher, T>(
            _ publisher1: P,
            _ publisher2: Q,
            _ transform: @escaping (Output, P.Output, Q.Output) -> T
        ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
        where Failure == P.Failure, P.Failure == Q.Failure {
            Publishers.Map(
                upstream: Publishers.CombineLatest3(self, publisher1, publisher2),
                transform: transform
            )
        }

        /// Subscribes to three additional publishers and publishes a tuple upon receiving
        /// output from any of the publishers.
        ///
        /// - Parameters:
        ///   - publisher1: A second publisher to combine with the first publisher.
        ///   - publisher2: A third publisher to combine with the first publisher.
        ///   - publisher3: A fourth publisher to combine with the first publisher.
        /// - Returns: A publisher that receives and combines elements from this publisher and
        ///   three other publishers.
        @inlinable
        public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
            _ publisher1: P,
            _ publisher2: Q,
            _ publisher3: R
        ) -> Publishers.CombineLatest4<Self, P, Q, R>
        where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
            Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
        }

        /// Subscribes to three additional publishers and invokes a closure upon receiving
        /// output from any of the publishers.
        ///
        /// - Parameters:
        ///   - publisher1: A second publisher to combine with the first publisher.
        ///   - publisher2: A third publisher to combine with the first publisher.
        ///   - publisher3: A fourth publisher to combine with the first publisher.
        ///   - transform: A closure that receives the most-recent value from each publisher
        ///     and returns a new value to publish.
        /// - Returns: A publisher that receives and combines elements from this publisher and
        ///   three other publishers.
        @inlinable
        public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
            _ publisher1: P,
            _ publisher2: Q,
            _ publisher3: R,
            _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
        ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
        where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
            Publishers.Map(
                upstream: Publishers.CombineLatest4(self, publisher1, publisher2, publisher3),
                transform: transform
            )
        }
    }

    /// The publishers that combine the latest values of two, three and four publishers, where
    /// Combine is absent.
    extension Publishers {
        /// A publisher that receives and combines the latest elements from two publishers.
        ///
        /// Downstream demand is passed on to both upstreams, and a demand of N yields at most
        /// N values. A combination that arrives while no demand is outstanding replaces any
        /// earlier one still waiting, and is delivered when demand arrives.
        public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
        where A.Failure == B.Failure {
            public typealias Output = (A.Output, B.Output)
            public typealias Failure = A.Failure

            /// The first upstream publisher.
            public let a: A
            /// The second upstream publisher.
            public let b: B

            /// Creates a publisher that combines the latest elements of two publishers.
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
                    buffering: .latestOnly,
                    description: "CombineLatest"
                )
                let sideA = fanIn.latestSide(0, A.Output.self)
                let sideB = fanIn.latestSide(1, B.Output.self)
                fanIn.setCombination {
                    guard let a = sideA.latest, let b = sideB.latest else { return nil }
                    return (a, b)
                }
                a.subscribe(sideA)
                b.subscribe(sideB)
            }
        }

        /// A publisher that receives and combines the latest elements from three publishers.
        public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
        where A.Failure == B.Failure, B.Failure == C.Failure {
            public typealias Output = (A.Output, B.Output, C.Output)
            public typealias Failure = A.Failure

            /// The first upstream publisher.
            public let a: A
            /// The second upstream publisher.
            public let b: B
            /// The third upstream publisher.
            public let c: C

            /// Creates a publisher that combines the latest elements of three publishers.
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
                    buffering: .latestOnly,
                    description: "CombineLatest3"
                )
                let sideA = fanIn.latestSide(0, A.Output.self)
                let sideB = fanIn.latestSide(1, B.Output.self)
                let sideC = fanIn.latestSide(2, C.Output.self)
                fanIn.setCombination {
                    guard let a = sideA.latest, let b = sideB.latest, let c = sideC.latest else {
                        return nil
                    }
                    return (a, b, c)
                }
                a.subscribe(sideA)
                b.subscribe(sideB)
                c.subscribe(sideC)
            }
        }

        /// A publisher that receives and combines the latest elements from four publishers.
        public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>:
            Publisher
        where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
            public typealias Output = (A.Output, B.Output, C.Output, D.Output)
            public typealias Failure = A.Failure

            /// The first upstream publisher.
            public let a: A
            /// The second upstream publisher.
            public let b: B
            /// The third upstream publisher.
            public let c: C
            /// The fourth upstream publisher.
            public let d: D

            /// Creates a publisher that combines the latest elements of four publishers.
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
                    buffering: .latestOnly,
                    description: "CombineLatest4"
                )
                let sideA = fanIn.latestSide(0, A.Output.self)
                let sideB = fanIn.latestSide(1, B.Output.self)
                let sideC = fanIn.latestSide(2, C.Output.self)
                let sideD = fanIn.latestSide(3, D.Output.self)
                fanIn.setCombination {
                    guard let a = sideA.latest, let b = sideB.latest, let c = sideC.latest,
                        let d = sideD.latest
                    else {
                        return nil
                    }
                    return (a, b, c, d)
                }
                a.subscribe(sideA)
                b.subscribe(sideB)
                c.subscribe(sideC)
                d.subscribe(sideD)
            }
        }
    }

    extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

    extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

    extension Publishers.CombineLatest4: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
#endif
