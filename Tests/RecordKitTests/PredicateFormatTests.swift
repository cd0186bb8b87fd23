import Testing

@testable import RecordKit

/// `Predicate.description`: canonical NSPredicate text that parses back to the same predicate.
@Suite("Predicate description")
struct PredicateFormatTests {
    private static let a1 = Predicate.compare(key: "a", .equal, 1)
    private static let b2 = Predicate.compare(key: "b", .equal, 2)
    private static let c3 = Predicate.compare(key: "c", .equal, 3)

    static let printed: [(Predicate, String)] = [
        (.compare(key: "name", .equal, #"It's a \ "test""#), #"name == 'It\'s a \\ "test"'"#),
        (.compare(key: "name", .equal, "tab\tnul\0bell\u{7}del\u{7F}\nline"), #"name == 'tab\tnul\u0000bell\u0007del\u007F\nline'"#),
        (.compare(key: "name", .equal, "🛒 café"), "name == '🛒 café'"),
        (
            .compare(key: "name", .equal, "\u{202E}txt\u{2028}\u{FEFF}👩\u{200D}💻\u{E0067}"),
            #"name == '\u202Etxt\u2028\uFEFF👩\#u{200D}💻\uDB40\uDC67'"#
        ),
        (.compare(key: "in", .less, 2.0), "#in < 2.0"),
        (.compare(key: "price", .greaterOrEqual, 1e300), "price >= 1e+300"),
        (.compare(key: "name", .notEqual, "x", caseInsensitive: true), "name !=[c] 'x'"),
        (.between(key: "number", lower: -1, upper: 10), "number BETWEEN {-1, 10}"),
        (.in(key: "name", ["a", "b"], caseInsensitive: true), "name IN[c] {'a', 'b'}"),
        (.in(key: "number", []), "number IN {}"),
        (.beginsWith(key: "name", "Mi"), "name BEGINSWITH 'Mi'"),
        (.contains(key: "tags", true), "tags CONTAINS TRUE"),
        (.isNull(key: "list"), "list == nil"),
        (.not(.isNull(key: "list")), "list != nil"),
        (.not(.all), "FALSEPREDICATE"),
        (.textSearch("organic 'milk'"), #"self CONTAINS 'organic \'milk\''"#),
        (
            .distance(key: "location", from: Location(latitude: 52.52, longitude: -13.405), .less, kilometres: 5),
            "distanceToLocation:fromLocation:(location, 52.52, -13.405) < 5.0"
        ),
        (.and([.or([a1, b2]), c3]), "(a == 1 OR b == 2) AND c == 3"),
        (.or([.or([a1, b2]), c3]), "(a == 1 OR b == 2) OR c == 3"),
        (.or([.and([a1, b2]), c3]), "a == 1 AND b == 2 OR c == 3"),
        (.and([.and([a1, b2]), c3]), "(a == 1 AND b == 2) AND c == 3"),
        (.not(.or([a1, b2])), "NOT (a == 1 OR b == 2)"),
        (.not(.not(a1)), "NOT NOT a == 1"),
    ]

    /// Shapes only the builder makes: typed values and degenerate AND/OR still print sensibly.
    static let builderOnly: [(Predicate, String)] = [
        (.compare(key: "list", .equal, .value(.reference(Reference("L1", action: .deleteSelf)))), "list == 'L1'"),
        (.in(key: "number", [.value(.int64(3)), .value(.list([.string("a'b")]))]), #"number IN {3, {'a\'b'}}"#),
        (.and([]), "TRUEPREDICATE"),
        (.or([]), "FALSEPREDICATE"),
        (.and([.and([.or([a1, b2])]), c3]), "(a == 1 OR b == 2) AND c == 3"),
    ]

    @Test func printsCanonicalText() {
        for (predicate, text) in Self.printed + Self.builderOnly {
            #expect(predicate.description == text)
        }
    }

    @Test(arguments: wellFormedPredicates)
    func everyWellFormedPredicateRoundTrips(_ row: PredicateParseCase) throws {
        let predicate = try PredicateParser.parse(row.text)
        #expect(try PredicateParser.parse(predicate.description) == predicate, "printed as \(predicate)")
    }

    @Test func printedTextOfParsablePredicatesRoundTrips() throws {
        for (predicate, text) in Self.printed {
            #expect(try PredicateParser.parse(text) == predicate, "\(text)")
        }
    }

    @Test func randomPredicatesRoundTripThroughTheirDescription() throws {
        var generator = PredicateGenerator(seed: 0xF0_4D47)
        for _ in 0..<3_000 {
            let predicate = generator.predicate()
            let reparsed = try PredicateParser.parse(predicate.description)
            #expect(reparsed == predicate, "printed as \(predicate)")
            #expect(reparsed.description == predicate.description)
        }
    }

    @Test func stringsKeepTheirExactScalarsThroughARoundTrip() throws {
        let text = "e\u{301} \u{FEFF}\u{202E}\u{85}\u{2028}😀\u{200D}🛒"
        let predicate = try PredicateParser.parse(Predicate.textSearch(text).description)
        guard case .textSearch(let words) = predicate else {
            Issue.record("not a text search: \(predicate)")
            return
        }
        #expect(Array(words.unicodeScalars) == Array(text.unicodeScalars))
    }
}
