/// A recorder that keeps every event in memory, for tests and for looking at a pipeline by hand.
///
/// ```swift
/// let memory = LaneMemory()
/// let cancellable = subject.lane("typed", recorder: memory).sink { _ in }
/// subject.send("s"); subject.send(completion: .finished)
/// memory.marbles(lane: "typed", frame: .milliseconds(10))   // "(s|)"
/// ```
public final class LaneMemory: LaneRecording {
    private let recorded = Protected<[LaneEvent]>([])

    /// When the recorder was made; event times count from here.
    public let began: ContinuousClock.Instant

    /// Creates an empty recorder whose event times count from now.
    public init() {
        began = ContinuousClock.now
    }

    public func record(_ event: LaneEvent) {
        recorded.withLock { $0.append(event) }
    }

    /// Every event recorded so far, in the order recorded.
    public var events: [LaneEvent] {
        recorded.withLock { $0 }
    }

    /// The events of the lanes named `lane`.
    public func events(lane: String) -> [LaneEvent] {
        recorded.withLock { $0.filter { $0.lane == lane } }
    }

    /// Forgets every event recorded so far.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }

    /// One subscription of a lane as an RxJS marble diagram: a `-` per quiet frame, a value as its
    /// own character, `|` when it finished, `#` when it failed, and events of one frame grouped
    /// as `(ab)`.
    ///
    /// Frame zero is when the subscription began. When any value of the lane is not one plain
    /// character, every value is written as a letter instead, and ``marbleValues(lane:)`` says
    /// which letter stands for which value. A group takes as many frames as it has characters,
    /// as in RxJS, so an event that falls inside a group's width is written just after it.
    ///
    /// - Parameters:
    ///   - lane: The lane's name.
    ///   - frame: How much time one character stands for.
    ///   - subscription: Which subscription; the lane's first when `nil`.
    /// - Returns: The diagram; empty when the lane recorded nothing.
    public func marbles(lane: String, frame: Duration, subscription: Int? = nil) -> String {
        precondition(frame > .zero, "A frame lasts longer than zero.")
        let laneEvents = events(lane: lane)
        guard let chosen = subscription ?? laneEvents.first?.subscription else { return "" }
        let symbols = MarbleSymbols(values: laneEvents)
        let own = laneEvents.filter { $0.subscription == chosen }
        guard let origin = own.first?.time else { return "" }

        var framed: [(frame: Int, symbol: Character)] = []
        for event in own {
            let symbol: Character
            switch event.kind {
            case .value(let value): symbol = symbols.symbol(for: value)
            case .finished: symbol = "|"
            case .failed: symbol = "#"
            case .subscribed, .requested, .cancelled: continue
            }
            framed.append((Int((event.time - origin) / frame), symbol))
        }

        var diagram = ""
        var cursor = 0
        var index = framed.startIndex
        while index < framed.endIndex {
            let at = framed[index].frame
            var group: [Character] = []
            while index < framed.endIndex, framed[index].frame == at {
                group.append(framed[index].symbol)
                index += 1
            }
            let start = max(at, cursor)
            diagram += String(repeating: "-", count: start - cursor)
            if group.count == 1 {
                diagram.append(group[0])
                cursor = start + 1
            } else {
                diagram += "(" + String(group) + ")"
                cursor = start + group.count + 2
            }
        }
        return diagram
    }

    /// Which letter stands for which value in ``marbles(lane:frame:subscription:)``; empty when
    /// every value is written as itself.
    public func marbleValues(lane: String) -> [Character: String] {
        MarbleSymbols(values: events(lane: lane)).letters
    }
}

/// How a lane's values are written in a marble diagram.
private struct MarbleSymbols {
    private static let reserved: Set<Character> = ["-", " ", "|", "#", "(", ")", "^", "!"]
    private(set) var letters: [Character: String] = [:]
    private var symbols: [String: Character] = [:]

    init(values events: [LaneEvent]) {
        let values = events.compactMap { event -> String? in
            if case .value(let value) = event.kind { return value }
            return nil
        }
        let plain = values.allSatisfy { $0.count == 1 && !Self.reserved.contains($0.first!) }
        guard !plain else { return }
        for value in values where symbols[value] == nil {
            let letter = Self.letter(symbols.count)
            symbols[value] = letter
            letters[letter] = value
        }
    }

    func symbol(for value: String) -> Character {
        symbols[value] ?? value.first!
    }

    /// a…z, A…Z, then CJK ideographs and the planes above, single characters no marble syntax uses.
    private static func letter(_ index: Int) -> Character {
        let scalar: UInt32 =
            switch index {
            case 0..<26: 0x61 + UInt32(index)
            case 26..<52: 0x41 + UInt32(index - 26)
            case 52..<20_044: 0x4E00 + UInt32(index - 52)
            default: 0x20000 + UInt32(index - 20_044)
            }
        return Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")
    }
}
