import Foundation
import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// Every limit a request meets on the way through the query language, at its boundary: the
/// largest request accepted works, one more is `limitExceeded`, and the database is unchanged.
@Suite("Limits of the query language, at the boundary")
struct LimitBoundaryTests {
    /// A fixture with list L1 holding `items` items.
    static func shop(items: Int) throws -> EngineFixture {
        let shop = try EngineFixture()
        try shop.database.modify(
            [.create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))]
                + (0..<items).map { index in
                    .create(
                        Record(
                            "Items", recordName: "I\(index)",
                            fields: [
                                "name": .string("item \(index)"), "list": .reference(Reference("L1", action: .deleteSelf)),
                            ]))
                })
        return shop
    }

    static func expectLimitExceeded(_ response: GraphQLResponse, saying text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(response.errors.map(\.code) == [.limitExceeded], "\(response.json.prefix(300))", sourceLocation: sourceLocation)
        #expect(response.errors.first?.message.contains(text) == true, "\(response.json.prefix(300))", sourceLocation: sourceLocation)
        #expect(!response.json.contains("item "), "a refused response carries no records", sourceLocation: sourceLocation)
    }

    // MARK: Records in a response

    @Test func aResponseHoldsAtMostTenThousandRecordsAtEveryLevelTogether() async throws {
        #expect(ResponseLimits.maximumRecords == 10_000)
        let shop = try Self.shop(items: 9_999)
        // 1 list + 9,999 items: the largest response.
        let largest = await shop.run("{ Lists { name Items { name } } }")
        #expect(largest.isSuccess)
        #expect(largest.json.components(separatedBy: "\"item ").count - 1 == 9_999)
        try shop.database.save(
            Record("Items", recordName: "I9999", fields: ["name": .string("item 9999"), "list": .reference(Reference("L1", action: .deleteSelf))]))
        Self.expectLimitExceeded(await shop.run("{ Lists { name Items { name } } }"), saying: "more than 10000 records")
        // The same records are fine one level at a time, or with a limit.
        #expect(await shop.run("{ Items { name } }").isSuccess)
        #expect(await shop.run("{ Lists { name Items(limit: 50) { name } } }").isSuccess)
        // References count too: 10,000 items and the list each points at.
        Self.expectLimitExceeded(await shop.run("{ Items { name list { name } } }"), saying: "…Page field")
        Self.expectLimitExceeded(await shop.run("{ Items(limit: 20000) { recordName } Lists { name } }"), saying: "more than 10000 records")
        #expect(await shop.run("{ ItemsPage(limit: 10000) { records { name } cursor } }").isSuccess)
        Self.expectLimitExceeded(await shop.run("{ ItemsPage(limit: 10000) { records { name list { name } } cursor } }"), saying: "more than 10000 records")
    }

    @Test func theMaximumIsTheEngines() async throws {
        let shop = try Self.shop(items: 20)
        let small = RecordQLEngine(database: shop.database, maximumResponseRecords: 20)
        #expect(await small.execute("{ Items { name } }").isSuccess)
        Self.expectLimitExceeded(await small.execute("{ Lists { name Items { name } } }"), saying: "more than 20 records")
        let unlimited = RecordQLEngine(database: shop.database, maximumResponseRecords: nil)
        let everything = await unlimited.execute("{ Lists { name Items { name } } }")
        #expect(everything.json.components(separatedBy: "\"item ").count - 1 == 20)
    }

    @Test func aMutationWhoseResponseWouldBeTooLargeAppliesNothing() async throws {
        let shop = try Self.shop(items: 10_000)
        let before = try shop.database.fetch(recordName: "L1")
        let response = await shop.run(#"mutation { updateLists(recordName: "L1", fields: {name: "Renamed"}) { name Items { name } } }"#)
        Self.expectLimitExceeded(response, saying: "more than 10000 records")
        #expect(try shop.database.fetch(recordName: "L1") == before)
        #expect(await shop.run(#"mutation { updateLists(recordName: "L1", fields: {name: "Renamed"}) { name Items(limit: 9999) { name } } }"#).isSuccess)
    }

    // MARK: The document

    @Test func aDocumentIsAtMostOneMebibyte() async throws {
        let shop = try Self.shop(items: 1)
        let query = "{ Lists { name } }"
        let largest = query + String(repeating: " ", count: DocumentLimits.maximumLength - query.utf8.count)
        #expect(largest.utf8.count == 1 << 20)
        #expect(await shop.run(largest).isSuccess)
        Self.expectLimitExceeded(await shop.run(largest + " "), saying: "longer than 1048576 bytes")
    }

    /// `{ Lists(where: W) { name } }` nests 2 levels around the filter `W`; each `{AND: [ … ]}`
    /// adds 2 and `{NOT: …}` 1.
    static func filtered(depth: Int) -> String {
        var filter = #"{name: {eq: "Groceries"}}"#
        var levels = 2 + 2
        if (depth - levels) % 2 == 1 {
            filter = "{NOT: \(filter)}"
            levels += 1
        }
        while levels < depth {
            filter = "{AND: [\(filter)]}"
            levels += 2
        }
        return "{ Lists(where: \(filter)) { name } }"
    }

    @Test func aDocumentNestsAtMostSixtyFourLevels() async throws {
        let shop = try Self.shop(items: 1)
        #expect(DocumentLimits.maximumDepth == 64)
        let deepest = await shop.run(Self.filtered(depth: 64))
        #expect(deepest.json == #"{"data":{"Lists":[{"name":"Groceries"}]}}"#)
        #expect(await shop.run(Self.filtered(depth: 63)).isSuccess)
        Self.expectLimitExceeded(await shop.run(Self.filtered(depth: 65)), saying: "deeper than 64 levels")
    }

    /// Records nested `levels` deep, in the shape whose SQL nests deepest: each item's list (an
    /// untyped reference, resolved over every record type), that list's items (referrers with a
    /// predicate, a sort and a limit), and so on.
    static func nested(levels: Int) -> String {
        var selection = "name"
        for level in (1..<levels).reversed() {
            selection =
                level.isMultiple(of: 2)
                ? #"Items(predicate: "name != 'x'", sort: [{name: DESC}], limit: 1) { name \#(selection) }"#
                : "list { ... on Lists { name \(selection) } }"
        }
        return "{ Items(limit: 1) { name \(selection) } }"
    }

    @Test func aSelectionNestsRecordsAtMostSixDeep() async throws {
        let shop = try Self.shop(items: 1)
        #expect(ProjectionBuilder.maximumDepth == 6)
        let deepest = await shop.run(Self.nested(levels: 6))
        #expect(deepest.isSuccess, "\(deepest.json)")
        #expect(deepest.json.components(separatedBy: "\"name\"").count - 1 == 6)
        Self.expectLimitExceeded(await shop.run(Self.nested(levels: 7)), saying: "deeper than 6 levels")
    }

    /// A LIST<REFERENCE> resolves each element in a subquery over `json_each`, which nests the
    /// SQL deeper per level (more so when untyped and the schema has more types): three levels
    /// always compile; within the six levels of a selection, SQLite's parser stack can run out
    /// first, and the request then fails as `limitExceeded` too (not as an internal error).
    @Test func listsOfReferencesNestThreeDeepAndFailCleanlyDeeper() async throws {
        let shop = try EngineFixture(bootstrap: try TestSchemas.everyFieldType())
        _ = await shop.data(#"mutation { createEverything(recordName: "E", fields: {text: "e", owners: [{recordName: "E"}]}) { recordName } }"#)
        let nested = { (levels: Int) in
            "{ Everything { " + String(repeating: "text owners { ... on Everything { ", count: levels - 1) + "text"
                + String(repeating: " } }", count: levels - 1) + " } }"
        }
        let deepest = await shop.run(nested(3))
        #expect(deepest.json == #"{"data":{"Everything":[{"text":"e","owners":[{"text":"e","owners":[{"text":"e"}]}]}]}}"#)
        Self.expectLimitExceeded(await shop.run(nested(6)), saying: "too complex for SQLite to compile")
    }

    @Test func aRecordIsSelectedWithAtMostSixtyThreeValues() async throws {
        let shop = try Self.shop(items: 1)
        let fields = { (count: Int) in "{ Lists { " + (1...count).map { "a\($0): name" }.joined(separator: " ") + " } }" }
        let largest = await shop.run(fields(ProjectionBuilder.maximumMembersPerRecord))
        #expect(largest.isSuccess, "\(largest.json.prefix(300))")
        #expect(largest.json.contains(#""a63":"Groceries""#))
        Self.expectLimitExceeded(await shop.run(fields(ProjectionBuilder.maximumMembersPerRecord + 1)), saying: "more than 63 values of one Lists record")
    }

    /// A selection of exactly `count` values in all, no record with more than 63: items, their
    /// lists, those lists' items, each level as wide as it may be and the rest spread evenly.
    static func wide(_ count: Int) -> String {
        let perRecord = ProjectionBuilder.maximumMembersPerRecord
        func selection(_ count: Int, itemLevel: Bool) -> String {
            guard count > perRecord else { return (1...count).map { "v\($0): name" }.joined(separator: " ") }
            let remaining = count - perRecord
            return (0..<perRecord).map { index in
                let share = remaining / perRecord + (index < remaining % perRecord ? 1 : 0)
                guard share > 0 else { return "n\(index): name" }
                let inner = selection(share, itemLevel: !itemLevel)
                return itemLevel ? "n\(index): list { ... on Lists { \(inner) } }" : "n\(index): Items(limit: 1) { \(inner) }"
            }.joined(separator: " ")
        }
        return "{ Items(limit: 1) { \(selection(count, itemLevel: true)) } }"
    }

    @Test func aSelectionAsksForAtMostFiveThousandValues() async throws {
        let shop = try Self.shop(items: 1)
        let largest = await shop.run(Self.wide(ProjectionBuilder.maximumMembers))
        #expect(largest.isSuccess, "\(largest.json.prefix(300))")
        Self.expectLimitExceeded(await shop.run(Self.wide(ProjectionBuilder.maximumMembers + 1)), saying: "more than 5000 values")
    }

    // MARK: Values and predicates

    @Test func aStringOrBytesValueIsAtMostOneMebibyte() async throws {
        let shop = try EngineFixture(bootstrap: try TestSchemas.everyFieldType())
        let create = #"mutation($s: String, $b: Bytes) { createEverything(recordName: "E", fields: {text: $s, blob: $b}) { recordName } }"#
        let largest = String(repeating: "é", count: Limits.maximumValueBytes / 2)
        #expect(await shop.run(create, variables: ["s": .string(largest)]).isSuccess)
        #expect(try shop.database.fetch(recordName: "E")?["text"] == .string(largest))
        try shop.database.delete(recordName: "E")
        for variables: [String: Map] in [
            ["s": .string(largest + "x")],
            ["b": .string(Data(count: Limits.maximumValueBytes + 1).base64EncodedString())],
        ] {
            Self.expectLimitExceeded(await shop.run(create, variables: variables), saying: "values hold at most 1048576 bytes")
            #expect(try shop.database.fetch(recordName: "E") == nil)
        }
        #expect(await shop.run(create, variables: ["b": .string(Data(count: Limits.maximumValueBytes).base64EncodedString())]).isSuccess)
    }

    @Test func aPredicateIsAtMostTenThousandCharactersAndSixtyFourLevels() async throws {
        let shop = try Self.shop(items: 1)
        let query = "query($p: String) { Items(predicate: $p) { name } }"
        let longest = "name == '" + String(repeating: "x", count: PredicateParser.maximumLength - 11) + "'"
        #expect(longest.count == 10_000 - 1 && (longest + " ").count == PredicateParser.maximumLength)
        #expect(await shop.run(query, variables: ["p": .string(longest + " ")]).json == #"{"data":{"Items":[]}}"#)
        Self.expectLimitExceeded(await shop.run(query, variables: ["p": .string(longest + "  ")]), saying: "longer than 10000 characters")
        let deepest = String(repeating: "(", count: 64) + "name == 'item 0'" + String(repeating: ")", count: 64)
        #expect(await shop.run(query, variables: ["p": .string(deepest)]).json == #"{"data":{"Items":[{"name":"item 0"}]}}"#)
        Self.expectLimitExceeded(await shop.run(query, variables: ["p": .string("(" + deepest + ")")]), saying: "more than 64 levels")
        // Alternating AND and OR nest the SQL too; past what SQLite's parser takes, the request
        // fails the same way instead of as an internal error.
        var alternating = "name == 'item 0'"
        for level in 1..<64 {
            alternating = "name == 'x\(level)' \(level.isMultiple(of: 2) ? "AND" : "OR") (\(alternating))"
        }
        Self.expectLimitExceeded(await shop.run(query, variables: ["p": .string(alternating)]), saying: "too complex for SQLite")
    }

    @Test func anInListHoldsAtMostOneThousandValues() async throws {
        let shop = try Self.shop(items: 1)
        let query = "query($names: [String!]) { Items(where: {name: {in: $names}}) { name } }"
        let names = (0..<Limits.maximumInListCount).map { Map.string("item \($0)") }
        #expect(await shop.run(query, variables: ["names": .array(names)]).json == #"{"data":{"Items":[{"name":"item 0"}]}}"#)
        Self.expectLimitExceeded(await shop.run(query, variables: ["names": .array(names + [.string("one more")])]), saying: "at most 1000 values")
    }
}
