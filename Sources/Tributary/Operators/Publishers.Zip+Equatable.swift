#if !canImport(Combine)
    public import OpenCombine

    // Combine's zip publishers compare equal when their upstreams do; OpenCombine's lack it.

    /// Zips of two publishers compare equal when their upstreams do.
    extension Publishers.Zip: @retroactive Equatable
    where UpstreamA: Equatable, UpstreamB: Equatable {
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.a == rhs.a && lhs.b == rhs.b
        }
    }

    /// Zips of three publishers compare equal when their upstreams do.
    extension Publishers.Zip3: @retroactive Equatable
    where UpstreamA: Equatable, UpstreamB: Equatable, UpstreamC: Equatable {
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c
        }
    }

    /// Zips of four publishers compare equal when their upstreams do.
    extension Publishers.Zip4: @retroactive Equatable
    where UpstreamA: Equatable, UpstreamB: Equatable, UpstreamC: Equatable, UpstreamD: Equatable {
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d
        }
    }
#endif
