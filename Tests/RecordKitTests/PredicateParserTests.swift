import Testing

@testable import RecordKit

/// One row of the table of predicates that parse: the text and the AST it must give.
struct PredicateParseCase: Sendable, CustomTestStringConvertible {
    var text: String
    var expected: Predicate
    var testDescription: String { text }

    init(_ text: String, _ expected: Predicate) {
        self.text = text
        self.expected = expected
    }
}

/// One row of the table of malformed predicates: where the error must point and what it says.
struct PredicateFailureCase: Sendable, CustomTestStringConvertible {
    var text: String
    var code: RecordError.Code
    var line: Int
    var column: Int
    var fragment: String
    var testDescription: String { text.count > 60 ? "\(text.prefix(60))… (\(text.count) characters)" : text }

    init(_ text: String, code: RecordError.Code = .invalidArguments, line: Int = 1, _ column: Int, _ fragment: String) {
        self.text = text
        self.code = code
        self.line = line
        self.column = column
        self.fragment = fragment
    }
}

private func key(_ name: String, _ op: Predicate.ComparisonOperator, _ literal: Predicate.Literal) -> Predicate {
    .compare(key: name, op, literal)
}

private let milk = key("name", .equal, "Milk")
private let a1 = key("a", .equal, 1)
private let b2 = key("b", .equal, 2)
private let c3 = key("c", .equal, 3)
private let berlin = Location(latitude: 52.52, longitude: 13.405)

let wellFormedPredicates: [PredicateParseCase] = [
    // Comparison operators and their aliases.
    PredicateParseCase("name == 'Milk'", milk),
    PredicateParseCase("name = 'Milk'", milk),
    PredicateParseCase("name != 'Milk'", key("name", .notEqual, "Milk")),
    PredicateParseCase("name <> 'Milk'", key("name", .notEqual, "Milk")),
    PredicateParseCase("number < 5", key("number", .less, 5)),
    PredicateParseCase("number <= 5", key("number", .lessOrEqual, 5)),
    PredicateParseCase("number =< 5", key("number", .lessOrEqual, 5)),
    PredicateParseCase("number > 5", key("number", .greater, 5)),
    PredicateParseCase("number >= 5", key("number", .greaterOrEqual, 5)),
    PredicateParseCase("number => 5", key("number", .greaterOrEqual, 5)),
    PredicateParseCase("name==[c]'milk'", .compare(key: "name", .equal, "milk", caseInsensitive: true)),
    // A literal on the left flips the operator.
    PredicateParseCase("5 < number", key("number", .greater, 5)),
    PredicateParseCase("5 >= number", key("number", .lessOrEqual, 5)),
    PredicateParseCase("'Milk' == name", milk),
    PredicateParseCase("2.5 != price", key("price", .notEqual, 2.5)),
    // String operators and options.
    PredicateParseCase("name BEGINSWITH 'Mi'", .beginsWith(key: "name", "Mi")),
    PredicateParseCase("name beginswith[c] 'mi'", .beginsWith(key: "name", "mi", caseInsensitive: true)),
    PredicateParseCase("name CONTAINS[C] 'ILK'", .contains(key: "name", "ILK", caseInsensitive: true)),
    PredicateParseCase("tags CONTAINS 'dairy'", .contains(key: "tags", "dairy")),
    PredicateParseCase("sizes contains 3", .contains(key: "sizes", 3)),
    // IN, BETWEEN.
    PredicateParseCase("name IN {'Milk', 'Eggs'}", .in(key: "name", ["Milk", "Eggs"])),
    PredicateParseCase("name in[c] {'milk'}", .in(key: "name", ["milk"], caseInsensitive: true)),
    PredicateParseCase("number IN {}", .in(key: "number", [])),
    PredicateParseCase("number IN {1, 2.5, TRUE}", .in(key: "number", [1, 2.5, true])),
    PredicateParseCase("'dairy' IN tags", .contains(key: "tags", "dairy")),
    PredicateParseCase("'dairy' IN[c] tags", .contains(key: "tags", "dairy", caseInsensitive: true)),
    PredicateParseCase("number BETWEEN {1, 10}", .between(key: "number", lower: 1, upper: 10)),
    PredicateParseCase("price between {-1.5, 2e3}", .between(key: "price", lower: -1.5, upper: 2000.0)),
    // Numbers and booleans.
    PredicateParseCase("number == -9223372036854775808", key("number", .equal, .integer(.min))),
    PredicateParseCase("number == 9223372036854775807", key("number", .equal, .integer(.max))),
    PredicateParseCase("number == 007", key("number", .equal, 7)),
    PredicateParseCase("price == 1.25e-3", key("price", .equal, 0.00125)),
    PredicateParseCase("price == 1E+2", key("price", .equal, 100.0)),
    PredicateParseCase("price == -0.5", key("price", .equal, -0.5)),
    PredicateParseCase("done == TRUE", key("done", .equal, true)),
    PredicateParseCase("done == yes", key("done", .equal, true)),
    PredicateParseCase("done == False", key("done", .equal, false)),
    PredicateParseCase("done == NO", key("done", .equal, false)),
    // nil.
    PredicateParseCase("list == nil", .isNull(key: "list")),
    PredicateParseCase("list != NULL", .not(.isNull(key: "list"))),
    PredicateParseCase("nil == list", .isNull(key: "list")),
    PredicateParseCase("NIL <> list", .not(.isNull(key: "list"))),
    // Constant predicates.
    PredicateParseCase("TRUEPREDICATE", .all),
    PredicateParseCase("falsepredicate", .not(.all)),
    // Precedence: NOT > AND > OR; parentheses; chains flatten, groups stay nodes.
    PredicateParseCase("a == 1 AND b == 2 OR c == 3", .or([.and([a1, b2]), c3])),
    PredicateParseCase("a == 1 OR b == 2 AND c == 3", .or([a1, .and([b2, c3])])),
    PredicateParseCase("NOT a == 1 AND b == 2", .and([.not(a1), b2])),
    PredicateParseCase("NOT (a == 1 AND b == 2)", .not(.and([a1, b2]))),
    PredicateParseCase("a == 1 && (b == 2 || c == 3)", .and([a1, .or([b2, c3])])),
    PredicateParseCase("!a == 1 || ! b == 2", .or([.not(a1), .not(b2)])),
    PredicateParseCase("a == 1 and not b == 2 or c == 3", .or([.and([a1, .not(b2)]), c3])),
    PredicateParseCase("a == 1 AND b == 2 AND c == 3", .and([a1, b2, c3])),
    PredicateParseCase("(a == 1 AND b == 2) AND c == 3", .and([.and([a1, b2]), c3])),
    PredicateParseCase("((a == 1))", a1),
    PredicateParseCase("NOT NOT a == 1", .not(.not(a1))),
    PredicateParseCase("TRUEPREDICATE AND NOT FALSEPREDICATE", .and([.all, .not(.not(.all))])),
    PredicateParseCase("list == 'L1' AND number >= 2", .and([key("list", .equal, "L1"), key("number", .greaterOrEqual, 2)])),
    // Escapes, Unicode and 4-byte UTF-8.
    PredicateParseCase(#"name == 'It\'s'"#, key("name", .equal, "It's")),
    PredicateParseCase(#"name == "say \"hi\"""#, key("name", .equal, "say \"hi\"")),
    PredicateParseCase(#"name == "it's""#, key("name", .equal, "it's")),
    PredicateParseCase(#"name == 'back\\slash'"#, key("name", .equal, "back\\slash")),
    PredicateParseCase(#"name == 'line\nbreak\ttab\rreturn\0nul'"#, key("name", .equal, "line\nbreak\ttab\rreturn\0nul")),
    PredicateParseCase(#"name == 'caf\u00e9'"#, key("name", .equal, "café")),
    PredicateParseCase(#"name == '\uD83D\uDED2'"#, key("name", .equal, "🛒")),
    PredicateParseCase("name == '🛒 Einkauf 日本語 𝄞'", key("name", .equal, "🛒 Einkauf 日本語 𝄞")),
    PredicateParseCase("name == ''", key("name", .equal, "")),
    // Keys: shape, # escapes, whitespace.
    PredicateParseCase("#IN == 1", key("IN", .equal, 1)),
    PredicateParseCase("#name == 'Milk'", milk),
    PredicateParseCase("#self CONTAINS 'x'", .contains(key: "self", "x")),
    PredicateParseCase("_private == 1", key("_private", .equal, 1)),
    PredicateParseCase("  name\n==\t'Milk'\r\n", milk),
    // Full-text search.
    PredicateParseCase("self CONTAINS 'organic milk'", .textSearch("organic milk")),
    PredicateParseCase("SELF contains[c] 'Milk'", .textSearch("Milk")),
    // distanceToLocation:fromLocation: in every accepted form.
    PredicateParseCase(
        "distanceToLocation:fromLocation:(location, 52.52, 13.405) < 5",
        .distance(key: "location", from: berlin, .less, kilometres: 5)),
    PredicateParseCase(
        "distanceToLocation:fromLocation:(location, <52.52, 13.405>) <= 2.5",
        .distance(key: "location", from: berlin, .lessOrEqual, kilometres: 2.5)),
    PredicateParseCase(
        "distanceToLocation:fromLocation:(location, {-33.86, 151.2}) > 10",
        .distance(key: "location", from: Location(latitude: -33.86, longitude: 151.2), .greater, kilometres: 10)),
    PredicateParseCase(
        "DISTANCETOLOCATION:FROMLOCATION:(#in, CLLocation(0, 0)) < 1",
        .distance(key: "in", from: Location(latitude: 0, longitude: 0), .less, kilometres: 1)),
    PredicateParseCase(
        "10 > distanceToLocation:fromLocation:(location, 52.52, 13.405)",
        .distance(key: "location", from: berlin, .less, kilometres: 10)),
]

let malformedPredicates: [PredicateFailureCase] = [
    PredicateFailureCase("", 1, "expected a comparison such as name == 'value', found end of input"),
    PredicateFailureCase("name == 'Milk", 9, "unterminated string: expected a closing '"),
    PredicateFailureCase(#"name == "Milk\""#, 9, "unterminated string: expected a closing \""),
    PredicateFailureCase("name ==", 8, "expected a value after '==', found end of input"),
    PredicateFailureCase("== 5", 1, "expected a comparison such as name == 'value', found '=='"),
    PredicateFailureCase("a == 1 AND", 11, "found end of input"),
    PredicateFailureCase("name", 5, "expected an operator (==, !=, <, <=, >, >=, BEGINSWITH, CONTAINS, IN or BETWEEN)"),
    PredicateFailureCase("name IN 'a'", 9, "expected a list in braces after IN, like IN {'a', 'b'}, found the string 'a'"),
    PredicateFailureCase("name IN ('a', 'b')", 9, "expected a list in braces after IN"),
    PredicateFailureCase("n IN {1,}", 9, "expected a value after ',', found '}'"),
    PredicateFailureCase("n IN {1 2}", 9, "expected ',' or '}' in the list opened at 1:6, found the number 2"),
    PredicateFailureCase("n IN {nil}", 7, "expected a value or '}', found 'nil'"),
    PredicateFailureCase("n BETWEEN {1}", 13, "BETWEEN expects exactly two values {lower, upper}, found 1"),
    PredicateFailureCase("n BETWEEN {}", 12, "found 0"),
    PredicateFailureCase("n BETWEEN {1, 2, 3}", 18, "found 3"),
    PredicateFailureCase("n BETWEEN 1 AND 5", 11, "expected two values in braces after BETWEEN"),
    PredicateFailureCase("n BETWEEN[c] {'a', 'b'}", 10, "BETWEEN takes no options"),
    PredicateFailureCase("5 BETWEEN {1, 2}", 1, "expected a field name before BETWEEN, found the number 5"),
    PredicateFailureCase("name ~= 'x'", 6, "unexpected character '~'"),
    PredicateFailureCase(
        "name FOO 'x'", 6,
        "expected an operator (==, !=, <, <=, >, >=, BEGINSWITH, CONTAINS, IN or BETWEEN) after the field name 'name', found 'FOO'"
    ),
    PredicateFailureCase("name LIKE 'x*'", 6, "LIKE is not supported"),
    PredicateFailureCase("name endsWith 'x'", 6, "ENDSWITH is not supported"),
    PredicateFailureCase("ANY tags == 'x'", 1, "ANY is not supported"),
    PredicateFailureCase("a == 1)", 7, "expected AND, OR or the end of the predicate, found ')'"),
    PredicateFailureCase("(a == 1", 8, "expected ')' to close the '(' at 1:1, found end of input"),
    PredicateFailureCase("()", 2, "found ')'"),
    PredicateFailureCase("number == 9223372036854775808", 11, "the integer 9223372036854775808 is outside the INT64 range"),
    PredicateFailureCase("number == -9223372036854775809", 11, "outside the INT64 range"),
    PredicateFailureCase("number == 99999999999999999999999999999999999999", 11, "outside the INT64 range"),
    PredicateFailureCase("price == 1e400", 10, "too large for a DOUBLE"),
    PredicateFailureCase("price == 1.", 12, "expected digits after the decimal point"),
    PredicateFailureCase("price == 1e+", 13, "expected digits in the exponent"),
    PredicateFailureCase("number == 12abc", 13, "unexpected 'a' after the number 12"),
    PredicateFailureCase("number == - 5", 11, "expected a number after '-'"),
    PredicateFailureCase(String(repeating: "(", count: 65) + "a == 1" + String(repeating: ")", count: 65), code: .limitExceeded, 65, "more than 64 levels"),
    PredicateFailureCase(String(repeating: "NOT ", count: 65) + "a == 1", code: .limitExceeded, 257, "more than 64 levels"),
    PredicateFailureCase(String(repeating: "!(", count: 40) + "a == 1" + String(repeating: ")", count: 40), code: .limitExceeded, 65, "more than 64 levels"),
    PredicateFailureCase("name == '" + String(repeating: "x", count: 10_000) + "'", code: .limitExceeded, 10_001, "longer than 10000 characters"),
    PredicateFailureCase("a == 1 AND\nb ==", line: 2, 5, "expected a value after '=='"),
    PredicateFailureCase("a == 1\r\nAND b == 'x", line: 2, 10, "unterminated string"),
    PredicateFailureCase("name == 'x'; DROP TABLE Items; --", 12, "unexpected character ';'"),
    PredicateFailureCase("name == 'x' -- comment", 13, "expected a number after '-'"),
    PredicateFailureCase("name == 'x' OR 1=1", 16, "expected a field name on one side of ==, found the number 1"),
    PredicateFailureCase("name == 'a'\0", 12, "unexpected character U+0000"),
    PredicateFailureCase("naïve == 1", 3, "unexpected character 'ï' (U+00EF)"),
    PredicateFailureCase("'🛒' == x AND 🛒", 14, "unexpected character '🛒' (U+1F6D2)"),
    PredicateFailureCase("a == 1 & b == 2", 8, "expected '&&', found a single '&'"),
    PredicateFailureCase("name ==[d] 'x'", 9, "diacritic-insensitive matching ([d]) is not supported"),
    PredicateFailureCase("name ==[cd] 'x'", 9, "[d]"),
    PredicateFailureCase("name ==[n] 'x'", 9, "unknown option 'n'"),
    PredicateFailureCase("name ==[c 'x'", 11, "expected ']' to close the options"),
    PredicateFailureCase("number ==[c] 5", 10, "[c] applies to strings only, not to the number 5"),
    PredicateFailureCase("n IN[c] {'a', 2}", 15, "[c] applies to strings only"),
    PredicateFailureCase(#"name == 'bad \q escape'"#, 14, #"unknown escape '\q'"#),
    PredicateFailureCase(#"name == '\u12'"#, 10, "expected four hexadecimal digits after \\u"),
    PredicateFailureCase(#"name == '\uD83D'"#, 10, "unpaired UTF-16 surrogate \\uD83D"),
    PredicateFailureCase(#"name == '\uDE00'"#, 10, "unpaired UTF-16 surrogate \\uDE00"),
    PredicateFailureCase("a == b", 6, "expected a value, found the field name 'b'; comparing two fields is not supported"),
    PredicateFailureCase("5 == 6", 1, "expected a field name on one side of ==, found the number 5"),
    PredicateFailureCase("name < nil", 8, "nil can only be compared with == or !="),
    PredicateFailureCase("name BEGINSWITH 5", 17, "expected a string after BEGINSWITH, found the number 5"),
    PredicateFailureCase("'x' BEGINSWITH name", 1, "expected a field name before BEGINSWITH, found a string"),
    PredicateFailureCase("nil IN tags", 1, "expected a field name or a value before IN, found nil"),
    PredicateFailureCase("'x' IN 'y'", 8, "expected a LIST field name after IN, found a string"),
    PredicateFailureCase("in == 1", 1, "found the keyword 'in'; a field of that name is written #in"),
    PredicateFailureCase("self == 'x'", 1, "self is only supported as self CONTAINS 'words'"),
    PredicateFailureCase("name == $value", 9, "substitution variables ($name) are not supported"),
    PredicateFailureCase("name == %@", 9, "format specifiers (%@, %K) are not supported"),
    PredicateFailureCase("# == 1", 2, "expected a field name after '#', found ' '"),
    PredicateFailureCase("foo:bar:(x) < 1", 1, "unknown function 'foo:bar:'"),
    PredicateFailureCase("distanceToLocation:fromLocation:(location, 91, 0) < 5", 44, "latitude must be within ±90"),
    PredicateFailureCase("distanceToLocation:fromLocation:(location, <1, 2) < 5", 49, "expected '>' after the longitude"),
    PredicateFailureCase("distanceToLocation:fromLocation:(location, 'x', 2) < 5", 44, "expected a latitude, found the string 'x'"),
    PredicateFailureCase("distanceToLocation:fromLocation:(5, 1, 2) < 5", 34, "expected a LOCATION field name"),
    PredicateFailureCase("distanceToLocation:fromLocation:(location, 1, 2) < 'far'", 52, "expected a number of kilometres, found a string"),
    PredicateFailureCase("distanceToLocation:fromLocation:(location, 1, 2) CONTAINS 5", 1, "a distance is compared with"),
]

@Suite("PredicateParser")
struct PredicateParserTests {
    @Test(arguments: wellFormedPredicates)
    func parsesWellFormedText(_ row: PredicateParseCase) throws {
        #expect(try PredicateParser.parse(row.text) == row.expected)
    }

    @Test(arguments: malformedPredicates)
    func rejectsMalformedTextPointingAtTheOffendingToken(_ row: PredicateFailureCase) {
        do {
            let predicate = try PredicateParser.parse(row.text)
            Issue.record("parsed as \(predicate)")
        } catch {
            #expect(error.code == row.code)
            #expect(error.location?.line == row.line)
            #expect(error.location?.column == row.column)
            #expect(error.message.contains(row.fragment), "message: \(error.message)")
        }
    }

    @Test func tableHasAtLeastFortyRowsOfEachKind() {
        #expect(wellFormedPredicates.count >= 40)
        #expect(malformedPredicates.count >= 40)
    }

    @Test func keepsTheExactScalarsOfCombiningSequences() throws {
        let decomposed = "cafe\u{301}"
        let parsed = try PredicateParser.parse("name == '\(decomposed)'")
        guard case .compare(_, _, .string(let text), _) = parsed else {
            Issue.record("not a comparison: \(parsed)")
            return
        }
        #expect(Array(text.unicodeScalars) == Array(decomposed.unicodeScalars))
        #expect(Array(text.unicodeScalars) != Array("café".unicodeScalars))
    }

    @Test func acceptsNestingAndLengthUpToTheLimits() throws {
        let deepest = String(repeating: "(", count: 64) + "a == 1" + String(repeating: ")", count: 64)
        #expect(try PredicateParser.parse(deepest) == a1)
        var negated = a1
        for _ in 0..<64 { negated = .not(negated) }
        #expect(try PredicateParser.parse(String(repeating: "NOT ", count: 64) + "a == 1") == negated)
        let longest = "name == '" + String(repeating: "x", count: 9_990) + "'"
        #expect(longest.unicodeScalars.count == PredicateParser.maximumLength)
        #expect(try PredicateParser.parse(longest) == key("name", .equal, .string(String(repeating: "x", count: 9_990))))
    }

    @Test func errorLocationCarriesTheLineForACaretExcerpt() {
        do {
            _ = try PredicateParser.parse("a == 1 OR\n  b >< 2")
        } catch {
            #expect(error.location == SourceLocation(line: 2, column: 6, lineText: "  b >< 2"))
            #expect(error.description.hasPrefix("invalidArguments: 2:6: expected a value after '>', found '<'"))
        }
    }
}
