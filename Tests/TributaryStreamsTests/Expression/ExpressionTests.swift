import Foundation
import PropertyBased
import Testing
import TributaryStreams

@Suite struct ExpressionTests {
    @Test(arguments: [
        ("$0 * 2 + 1 > 10 && $0 % 3 != 0", StreamValue.integer(7), StreamValue.boolean(true)),
        ("$0 * 2 + 1 > 10 && $0 % 3 != 0", 6, false),
        ("$0 * 2 + 1 > 10 && $0 % 3 != 0", 4, false),
        ("1 + 2 * 3 - 4 / 2", 0, 5),
        ("(1 + 2) * 3", 0, 9),
        ("7 / 2", 0, 3),
        ("-7 % 3", 0, -1),
        ("7.0 / 2", 0, 3.5),
        ("1 + 0.5", 0, 1.5),
        ("5.5 % 2", 0, 1.5),
        ("-$0", 4, -4),
        ("!($0 > 3)", 4, false),
        ("$0 > 3 ? \"big\" : \"small\"", 4, "big"),
        ("$0 > 3 ? \"big\" : $0 > 1 ? \"medium\" : \"small\"", 2, "medium"),
        ("\"n=\" + $0", 4, "n=4"),
        ("$0 + \"!\"", "hi", "hi!"),
        ("len($0) * 2", "héllo", 10),
        ("upper($0) + lower(\"ABC\")", "ab", "ABabc"),
        ("abs(-3) + abs(-1.5)", 0, 4.5),
        ("min(3, $0, 5)", 1, 1),
        ("max(3, $0, 5)", 9, 9),
        ("max(\"pear\", \"apple\")", 0, "pear"),
        ("round(2.5) + round(-2.5)", 0, 0),
        ("round($0)", 2.4, 2),
        ("$0 == 2.0", 2, true),
        ("\"a\" < \"b\" || false", 0, true),
        ("$0 != \"x\"", 3, true),
        ("true == true && 1 == 1.0", 0, true),
        ("1e3 + .5", 0, 1000.5),
        ("'single' + \"\\\"q\\\"\"", 0, "single\"q\""),
    ])
    func evaluates(source: String, input: StreamValue, expected: StreamValue) throws {
        #expect(try StreamExpression(source).evaluate(input) == expected)
    }

    @Test func readsTheAccumulatorInScan() throws {
        let sum = try StreamExpression("acc + $0")
        #expect(try sum.evaluate(3, accumulator: 4) == 7)
        #expect(throws: ExpressionError(.noAccumulator, line: 1, column: 1)) { try sum.evaluate(3) }
    }

    @Test func shortCircuitsBooleanOperators() throws {
        #expect(try StreamExpression("false && 1 / 0 == 1").evaluate(0) == false)
        #expect(try StreamExpression("true || 1 / 0 == 1").evaluate(0) == true)
        #expect(try StreamExpression("$0 > 0 ? 10 / $0 : 0").evaluate(0) == 0)
    }

    @Test(arguments: [
        ("1 +", 1, 4, "the expression ends too early"),
        ("1 + * 2", 1, 5, "unexpected \"*"),
        ("(1 + 2", 1, 7, "expected \")\""),
        ("1 2", 1, 3, "unexpected \"2\""),
        ("$0 >\n  foo", 2, 3, "unknown name \"foo\""),
        ("\"open", 1, 1, "the string is never closed"),
        ("1.2.3", 1, 1, "is not a number"),
        ("12abc", 1, 1, "is not a number"),
        ("$0 ? 1", 1, 7, "expected \":\""),
        ("@", 1, 1, "unexpected \"@\""),
        ("99999999999999999999", 1, 1, "decimal"),
    ])
    func reportsSyntaxErrorsWhereTheyAre(source: String, line: Int, column: Int, message: String) {
        do {
            let expression = try StreamExpression(source)
            if message == "decimal" {
                #expect(try expression.evaluate(0) == .decimal(1e20))
                return
            }
            Issue.record("\(source) parsed")
        } catch {
            guard case .syntax(let text) = error.kind else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            #expect(text.contains(message), "\(text)")
            #expect((error.line, error.column) == (line, column), "\(error)")
            #expect(error.description.hasPrefix("Syntax error at line \(line), column \(column): "))
        }
    }

    @Test func knowsItsFunctionsAndTheirArguments() {
        #expect(throws: ExpressionError(.unknownFunction("sqrt"), line: 1, column: 3)) {
            try StreamExpression("1+sqrt(4)")
        }
        #expect(
            throws: ExpressionError(
                .wrongArgumentCount(function: "abs", expected: "1 argument", found: 2),
                line: 1,
                column: 1
            )
        ) { try StreamExpression("abs(1, 2)") }
        #expect(
            throws: ExpressionError(
                .wrongArgumentCount(function: "min", expected: "2 to 16 arguments", found: 1),
                line: 1,
                column: 1
            )
        ) { try StreamExpression("min(1)") }
    }

    @Test(arguments: [
        ("$0 + true", ExpressionError.Kind.typeMismatch("+ needs numbers, not an integer and a boolean")),
        ("!$0", .typeMismatch("! needs a boolean, not an integer")),
        ("$0 && true", .typeMismatch("&& needs booleans, not an integer")),
        ("$0 < \"a\"", .typeMismatch("< compares two numbers or two strings, not an integer and a string")),
        ("len($0)", .typeMismatch("len needs a string or a list, not an integer")),
        ("$0 / 0", .divisionByZero),
        ("$0 % 0", .divisionByZero),
        ("$0 / 0.0", .divisionByZero),
        ("$0 * 9223372036854775807", .overflow),
        ("-$0 - 9223372036854775807 - 2", .overflow),
        ("abs(-9223372036854775807 - 1)", .overflow),
        ("round(1e300)", .overflow),
        // A decimal past a Double's range is an overflow too, never an infinity, which JSON
        // cannot write and which made a result answered as an empty object.
        ("$0 * 1e308", .overflow),
        ("-1e308 - 1e308", .overflow),
        ("1e308 * 10 - 1e308 * 10", .overflow),
    ])
    func reportsEvaluationErrorsAsTypedErrors(source: String, kind: ExpressionError.Kind) throws {
        let expression = try StreamExpression(source)
        do {
            let value = try expression.evaluate(2)
            Issue.record("\(source) gave \(value)")
        } catch {
            #expect(error.kind == kind)
        }
    }

    @Test func enforcesTheLengthAndNestingLimits() throws {
        let long = String(repeating: "1+", count: 2_048) + "1"
        #expect(throws: ExpressionError(.tooLong(limit: 4_096), line: 1, column: 1)) {
            try StreamExpression(long)
        }
        _ = try StreamExpression(String(repeating: "(", count: 60) + "1" + String(repeating: ")", count: 60))
        do {
            _ = try StreamExpression(
                String(repeating: "(", count: 70) + "1" + String(repeating: ")", count: 70)
            )
            Issue.record("70 levels parsed")
        } catch {
            #expect(error.kind == .tooDeep(limit: 64))
        }
        do {
            _ = try StreamExpression(String(repeating: "-", count: 100) + "1")
            Issue.record("100 unary minuses parsed")
        } catch {
            #expect(error.kind == .tooDeep(limit: 64))
        }
        let flat = String(repeating: "1+", count: 1_000) + "1"
        #expect(try StreamExpression(flat).evaluate(0) == 1_001)
    }

    /// A string an expression makes stops at 64 KB, so that `acc + acc` in a scan cannot double
    /// one without end.
    @Test func limitsTheStringsItMakes() throws {
        let doubling = try StreamExpression("acc + acc")
        var accumulator: StreamValue = "x"
        var steps = 0
        do {
            while true {
                accumulator = try doubling.evaluate(0, accumulator: accumulator)
                steps += 1
            }
        } catch {
            #expect(error == ExpressionError(.stringTooLong(limit: 65_536), line: 1, column: 5))
        }
        #expect(steps == 16)
        #expect(accumulator.byteCount == 65_536)

        let append = try StreamExpression("$0 + 7")
        let almost = String(repeating: "a", count: 65_535)
        #expect(try append.evaluate(.string(almost)) == .string(almost + "7"))
        #expect(throws: ExpressionError.self) { try append.evaluate(.string(almost + "a")) }
        let list = StreamValue.list([1, "ab", .list([true, 2.5])])
        #expect(list.byteCount == list.description.utf8.count)
        #expect(try StreamExpression("'' + $0").evaluate(list) == .string("[1, ab, [true, 2.5]]"))

        // Upper case can lengthen text: "ΐ" is 2 bytes, and "Ϊ́" 6.
        let upper = try StreamExpression("upper($0)")
        #expect(try upper.evaluate(.string(String(repeating: "ΐ", count: 10_000))).byteCount == 60_000)
        #expect(throws: ExpressionError.self) {
            try upper.evaluate(.string(String(repeating: "ΐ", count: 11_000)))
        }
    }

    @Test func codesAsItsText() throws {
        let expression = try StreamExpression("$0 * 2")
        let data = try JSONEncoder().encode(["map": expression])
        #expect(String(decoding: data, as: UTF8.self) == #"{"map":"$0 * 2"}"#)
        #expect(try JSONDecoder().decode([String: StreamExpression].self, from: data) == ["map": expression])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([String: StreamExpression].self, from: Data(#"{"map":"$0 *"}"#.utf8))
        }
    }

    @Test func survivesRandomText() {
        var generator = Xoshiro(seed: (0x5EED, 13, 14, 15))
        let alphabet = Array("$0acc+-*/%<>=!&|?:()\"' .,0123456789eabsminroundlenupper\n\\x")
        for _ in 0..<5_000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            if let expression = try? StreamExpression(text) {
                _ = try? expression.evaluate(
                    .integer(Int.random(in: -5...5, using: &generator)),
                    accumulator: .decimal(1.5)
                )
                _ = try? expression.evaluate(.string("s"))
            }
        }
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? StreamExpression(String(decoding: bytes, as: UTF8.self))
        }
    }
}
