import Foundation
import Testing
import TributaryStreams
import TributaryTestSupport

/// The weights that bound how deep a document may nest its nodes, measured: for every
/// operator, the deepest chain of it that a document may hold runs on a 512 KiB stack, a
/// secondary thread's on Apple platforms, values passing through every node.
@Suite(.unsanitized("it measures the stack on a thread of its own, whose stack the sanitizers do not follow"))
struct StackDepthTests {
    /// A chain of `count` nodes, each `make` applied to the one before, the first to `a`.
    static func document(_ count: Int, _ make: (String) -> String) throws(StreamError) -> StreamDocument {
        let nodes = (0..<count).map { index in
            #"{"id":"n\#(index)",\#(make(index == 0 ? "a" : "n\(index - 1)"))}"#
        }
        let json = #"""
            {"schemaVersion":1,"streams":[{"id":"a","items":[{"value":1},{"value":2},{"value":3}]}],
             "nodes":[\#(nodes.joined(separator: ","))]}
            """#
        return try StreamDocument.decode(Data(json.utf8))
    }

    static let operators: [(name: String, weight: Int, make: @Sendable (String) -> String)] = [
        ("map", 1, { #""operator":"map","input":"\#($0)","expression":"$0 + 1""# }),
        ("filter", 1, { #""operator":"filter","input":"\#($0)","expression":"true""# }),
        ("scan", 1, { #""operator":"scan","input":"\#($0)","initial":0,"expression":"acc + 1""# }),
        ("delay", 1, { #""operator":"delay","input":"\#($0)","seconds":0.001"# }),
        ("debounce", 1, { #""operator":"debounce","input":"\#($0)","seconds":0"# }),
        ("throttle", 1, { #""operator":"throttle","input":"\#($0)","seconds":0.001,"latest":true"# }),
        ("removeDuplicates", 1, { #""operator":"removeDuplicates","input":"\#($0)""# }),
        ("prefix", 1, { #""operator":"prefix","input":"\#($0)","count":5"# }),
        ("dropFirst", 1, { #""operator":"dropFirst","input":"\#($0)","count":0"# }),
        ("merge of 1", 3, { #""operator":"merge","inputs":["\#($0)"]"# }),
        ("merge of 2", 3, { #""operator":"merge","inputs":["\#($0)","a"]"# }),
        ("append of 1", 4, { #""operator":"append","inputs":["\#($0)"]"# }),
        ("append of 2", 4, { #""operator":"append","inputs":["\#($0)","a"]"# }),
        ("combineLatest of 1", 3, { #""operator":"combineLatest","inputs":["\#($0)"]"# }),
        ("combineLatest of 2", 4, { #""operator":"combineLatest","inputs":["\#($0)","a"]"# }),
        ("combineLatest of 3", 6, { #""operator":"combineLatest","inputs":["\#($0)","a","a"]"# }),
        ("zip of 1", 13, { #""operator":"zip","inputs":["\#($0)"]"# }),
        ("zip of 3", 13, { #""operator":"zip","inputs":["\#($0)","a","a"]"# }),
    ]

    /// The sanitizers make every frame larger, as many as four times.
    static let smallStack = (512 << 10) * (isSanitized ? 4 : 1)

    @Test(arguments: operators.map(\.name))
    func theDeepestChainOfAnOperatorRunsOnASmallStack(name: String) throws {
        let (_, weight, make) = try #require(Self.operators.first { $0.name == name })
        let count = StreamDocument.maximumDepth / weight
        let deepest = try Self.document(count, make)
        #expect(throws: StreamError.self) { try Self.document(count + 1, make) }
        // What a thread holds before its body runs (its thread-local storage) is not the run's.
        let used = stackUse { _ = try? StreamRunner().run(deepest, lanes: ["n\(count - 1)"]) } - stackUse {}
        #expect(used < Self.smallStack, "\(count) nodes of \(name) used \(used) bytes of stack")
    }

    /// A chain of `combineLatest`s of one input each, which the lab once refused only past
    /// 256 nodes and which overflowed its run thread's 8 MiB at 178, is refused when decoded.
    @Test func aLongChainOfOneInputJoinsIsRefused() {
        #expect {
            try Self.document(180) { #""operator":"combineLatest","inputs":["\#($0)"]"# }
        } throws: { error in
            guard let error = error as? StreamError, case .tooDeep("n80", limit: 240) = error.kind else {
                return false
            }
            return error.path == "$.nodes[80]"
        }
    }

    /// An `append` of thousands of inputs, or of inputs that are appends themselves, moves
    /// from one input to the next in a loop: it had nested a publisher for every input, and
    /// two thousand inputs overflowed the run thread's stack.
    @Test func anAppendOfThousandsOfInputsRunsOnASmallStack() throws {
        let wide = try StreamDocument.decode(
            Data(
                #"""
                {"schemaVersion":1,"streams":[{"id":"a","items":[{"value":1}]}],
                 "nodes":[{"id":"m","operator":"append","inputs":[\#(Array(repeating: "\"a\"", count: 5_000).joined(separator: ","))]}]}
                """#.utf8
            )
        )
        let count = Locked(0)
        let used =
            stackUse {
                let timeline = try? StreamRunner().run(wide, lanes: ["m"])
                count.withLock { $0 = timeline?.events.count ?? 0 }
            } - stackUse {}
        #expect(count.current == 5_001)
        #expect(used < Self.smallStack, "used \(used) bytes")
        let doubling = try Self.document(12) { #""operator":"append","inputs":["\#($0)","\#($0)"]"# }
        let doubled = Locked(0)
        let deep =
            stackUse {
                let timeline = try? StreamRunner().run(doubling, lanes: ["n11"])
                doubled.withLock { $0 = timeline?.events.count ?? 0 }
            } - stackUse {}
        #expect(doubled.current == 3 * 4_096 + 1)
        #expect(deep < Self.smallStack, "used \(deep) bytes")
    }

    /// Joins of one input nest each value one list deeper; past the limit the stream fails,
    /// naming the node, instead of making values nothing can print.
    @Test func aJoinThatWouldNestTooDeepFails() throws {
        let deep = try Self.document(40) { #""operator":"combineLatest","inputs":["\#($0)"]"# }
        let timeline = try StreamRunner().run(deep, lanes: ["n39"])
        let failure = StreamFailure(
            origin: "n31",
            message: "the list would nest more than 32 lists, one in another"
        )
        #expect(timeline.events.map(\.kind) == [.failure(failure.message)])
        let fits = try Self.document(5) { #""operator":"zip","inputs":["\#($0)"]"# }
        let values = try StreamRunner().run(fits, lanes: ["n4"]).events.compactMap { event -> Int? in
            guard case .value(let value) = event.kind else { return nil }
            return value.depth
        }
        #expect(values == [5, 5, 5])
    }

    /// A value that nests too many lists is refused as it is decoded, at once: nothing walks it.
    @Test func aValueNestedTooDeepIsRefusedWhenDecoded() throws {
        func item(_ depth: Int) -> String {
            String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        }
        func decode(_ depth: Int) throws(StreamError) -> StreamDocument {
            let json = #"{"schemaVersion":1,"streams":[{"id":"a","items":[{"value":\#(item(depth))}]}]}"#
            return try StreamDocument.decode(Data(json.utf8))
        }
        let deepest = try decode(StreamValue.maximumDepth)
        #expect(deepest.streams[0].items[0].value.depth == 32)
        #expect {
            try decode(StreamValue.maximumDepth + 1)
        } throws: { error in
            "\(error)".contains("A value nests more than 32 lists, one in another.")
        }
        #expect(throws: StreamError.self) { try decode(400) }
    }

    /// Whether this process runs under the thread or the address sanitizer, whose runtimes
    /// define `__tsan_init` and `__asan_init`.
    static let isSanitized: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(process) }
        return dlsym(process, "__tsan_init") != nil || dlsym(process, "__asan_init") != nil
    }()
}
