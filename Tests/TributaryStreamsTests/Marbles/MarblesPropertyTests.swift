import Foundation
import PropertyBased
import Testing
import TributaryStreams
import TributaryTestSupport

/// Printing and reading agree: a printed timeline reads back as the same events, and a diagram
/// printed again means what it meant.
@Suite(
    .unsanitized("CPU-bound; its logic runs in the plain pass")
)
struct MarblesPropertyTests {
    static let values: [StreamValue] = [
        0, 7, 12, "a", "x", "s", "m", "7", "hello", "🙈", ".", 2.5, true, .list(["a", 1]),
    ]
    static let frames = [1, 0.5, 0.1, 0.001]
    /// Gaps between frames with events: short ones drawn as dashes, long ones as time spans.
    static let gaps = [0, 1, 2, 3, 0, 1, 25, 999, 5_000]

    /// Timelines whose events stand on whole frames, each frame far enough from the one
    /// before for a group to fit, as any timeline read from marbles does.
    @Test(.timeLimit(.minutes(5)))
    func printedTimelinesReadBackAsTheSameEvents() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 0...(Self.gaps.count - 1)).array(of: 1...12),
            Gen.int(in: 1...3).array(of: 1...12),
            Gen.int(in: 0...(Self.values.count - 1)).array(of: 1...36),
            Gen.int(in: 0...3),
            Gen.int(in: 0...(Self.frames.count - 1))
        ) { gaps, sizes, picks, end, framePick in
            let frame = Self.frames[framePick]
            var frameIndex = 0
            var kinds: [(Int, Timeline.Kind)] = []
            var next = 0
            for (step, gap) in gaps.enumerated() {
                frameIndex += Self.gaps[gap]
                let size = sizes[step % sizes.count]
                for _ in 0..<size {
                    kinds.append((frameIndex, .value(Self.values[picks[next % picks.count]])))
                    next += 1
                }
                frameIndex += size == 1 ? 1 : size + 2
            }
            // An end joins the values of the last frame, or comes on a frame of its own.
            switch end {
            case 1: kinds.append((kinds.last?.0 ?? 0, .finished))
            case 2: kinds.append((frameIndex, .failure("boom")))
            case 3: kinds.append((frameIndex, .finished))
            default: break
            }
            let events = kinds.map { Timeline.Event(time: Double($0.0) * frame, lane: "s", kind: $0.1) }
            do {
                let printed = try Marbles.print(events, frame: frame)
                let read = try Marbles.read(printed.marbles, frame: frame, values: printed.values)
                #expect(read.map(\.kind) == events.map(\.kind), "\(printed.marbles)")
                #expect(
                    read.map { ($0.time / frame).rounded() } == kinds.map { Double($0.0) },
                    "\(printed.marbles)"
                )
            } catch {
                Issue.record("\(events): \(error)")
            }
        }
    }

    static let pieces = [
        "-", "-", "a", "7", "🙈", "(bc)", "(1q)", " 3ms ", " 1s ", " ", "x", "--",
        String(repeating: "-", count: 30),
    ]
    static let endings = ["", "|", "#", "(z|)", "|--", "# 5ms "]

    /// Diagrams built from every kind of piece: read, printed, and read again, they give the
    /// same events.
    @Test(.timeLimit(.minutes(5)))
    func printedDiagramsMeanWhatTheyMeant() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...30),
            Gen.int(in: 0...(Self.endings.count - 1))
        ) { picks, ending in
            let marbles = picks.map { Self.pieces[$0] }.joined() + Self.endings[ending]
            do {
                let events = try Marbles.read(marbles, frame: 0.001)
                let printed = try Marbles.print(
                    events.map { Timeline.Event(time: $0.time, lane: "s", kind: $0.kind) },
                    frame: 0.001
                )
                let again = try Marbles.read(printed.marbles, frame: 0.001, values: printed.values)
                #expect(again == events, "\"\(marbles)\" printed as \"\(printed.marbles)\"")
            } catch {
                Issue.record("\"\(marbles)\": \(error)")
            }
        }
    }
}
