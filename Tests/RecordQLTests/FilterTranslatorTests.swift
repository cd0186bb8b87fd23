import Foundation
import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

/// An input value from JSON, as variables give it. (GraphQLSwift's `Map` decoding makes every
/// number a Double and need not keep the order of keys.)
func jsonInput(_ json: String) throws -> Map {
    try JSONDecoder().decode(Map.self, from: Data(json.utf8))
}

@Suite("Translating where: filters into RecordKit predicates")
struct FilterTranslatorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var filter: String
        var expected: RecordKit.Predicate
        var testDescription: String { filter }
    }

    static let noon = Timestamp.parse("2026-11-21T12:00:00Z") ?? Date(timeIntervalSince1970: 0)
    static let day = Timestamp.parse("2026-11-21") ?? Date(timeIntervalSince1970: 0)
    static let berlin = RecordKit.Location(latitude: 52.5, longitude: 13.4)

    static let cases: [Case] = [
        Case(filter: #"{}"#, expected: .all),
        Case(filter: #"{name: {}}"#, expected: .all),
        Case(filter: #"{name: {eq: "Milk"}}"#, expected: .compare(key: "name", .equal, .string("Milk"))),
        Case(filter: #"{name: {ne: "Milk"}}"#, expected: .compare(key: "name", .notEqual, .string("Milk"))),
        Case(filter: #"{name: {lt: "M"}}"#, expected: .compare(key: "name", .less, .string("M"))),
        Case(filter: #"{name: {eq: "milk", caseInsensitive: true}}"#, expected: .compare(key: "name", .equal, .string("milk"), caseInsensitive: true)),
        // GraphQLSwift coerces an input object in the order its type declares the keys.
        Case(
            filter: #"{name: {gte: "a", lt: "m"}}"#,
            expected: .and([
                .compare(key: "name", .less, .string("m")), .compare(key: "name", .greaterOrEqual, .string("a")),
            ])),
        Case(filter: #"{name: {in: ["Milk", "Bread"]}}"#, expected: .in(key: "name", [.string("Milk"), .string("Bread")])),
        Case(filter: #"{name: {in: ["milk"], caseInsensitive: true}}"#, expected: .in(key: "name", [.string("milk")], caseInsensitive: true)),
        Case(filter: #"{name: {beginsWith: "Mi"}}"#, expected: .beginsWith(key: "name", "Mi")),
        Case(filter: #"{name: {caseInsensitive: true, beginsWith: "mi"}}"#, expected: .beginsWith(key: "name", "mi", caseInsensitive: true)),
        Case(filter: #"{name: {contains: "il"}}"#, expected: .contains(key: "name", .string("il"))),
        Case(filter: #"{name: {isNull: true}}"#, expected: .isNull(key: "name")),
        Case(filter: #"{name: {isNull: false}}"#, expected: .not(.isNull(key: "name"))),
        Case(filter: #"{number: {eq: 2}}"#, expected: .compare(key: "number", .equal, .integer(2))),
        Case(filter: #"{number: {lte: -3}}"#, expected: .compare(key: "number", .lessOrEqual, .integer(-3))),
        Case(filter: #"{number: {gt: 9223372036854775807}}"#, expected: .compare(key: "number", .greater, .integer(.max))),
        Case(filter: #"{number: {in: [1, 2]}}"#, expected: .in(key: "number", [.integer(1), .integer(2)])),
        Case(filter: #"{price: {gte: 1.5}}"#, expected: .compare(key: "price", .greaterOrEqual, .double(1.5))),
        Case(filter: #"{price: {lt: 2}}"#, expected: .compare(key: "price", .less, .double(2))),
        Case(filter: #"{due: {gt: "2026-11-21T12:00:00Z"}}"#, expected: .compare(key: "due", .greater, .value(.timestamp(noon)))),
        Case(filter: #"{due: {in: ["2026-11-21"]}}"#, expected: .in(key: "due", [.value(.timestamp(day))])),
        Case(filter: #"{list: {eq: "L1"}}"#, expected: .compare(key: "list", .equal, .value(.reference(Reference("L1"))))),
        Case(filter: #"{list: {ne: "L1"}}"#, expected: .compare(key: "list", .notEqual, .value(.reference(Reference("L1"))))),
        Case(filter: #"{list: {in: ["L1", "L2"]}}"#, expected: .in(key: "list", [.value(.reference(Reference("L1"))), .value(.reference(Reference("L2")))])),
        Case(filter: #"{list: {isNull: true}}"#, expected: .isNull(key: "list")),
        Case(filter: #"{photo: {eq: "AQID"}}"#, expected: .compare(key: "photo", .equal, .value(.bytes(Data([1, 2, 3]))))),
        Case(filter: #"{manual: {isNull: false}}"#, expected: .not(.isNull(key: "manual"))),
        Case(filter: #"{tags: {contains: "dairy"}}"#, expected: .contains(key: "tags", .string("dairy"))),
        Case(filter: #"{tags: {contains: "Dairy", caseInsensitive: true}}"#, expected: .contains(key: "tags", .string("Dairy"), caseInsensitive: true)),
        Case(filter: #"{related: {contains: "I2"}}"#, expected: .contains(key: "related", .value(.reference(Reference("I2"))))),
        Case(
            filter: #"{place: {distance: {from: {latitude: 52.5, longitude: 13.4}, lt: 10}}}"#,
            expected: .distance(key: "place", from: berlin, .less, kilometres: 10)),
        Case(
            filter: #"{place: {distance: {from: {latitude: 52.5, longitude: 13.4}, gte: 1, lte: 5}}}"#,
            expected: .and([
                .distance(key: "place", from: berlin, .lessOrEqual, kilometres: 5), .distance(key: "place", from: berlin, .greaterOrEqual, kilometres: 1),
            ])),
        Case(filter: #"{place: {isNull: true}}"#, expected: .isNull(key: "place")),
        Case(filter: #"{recordName: {eq: "I1"}}"#, expected: .compare(key: "recordName", .equal, .string("I1"))),
        Case(filter: #"{recordName: {beginsWith: "I"}}"#, expected: .beginsWith(key: "recordName", "I")),
        Case(filter: #"{recordName: {in: ["I1", "I2"]}}"#, expected: .in(key: "recordName", [.string("I1"), .string("I2")])),
        Case(filter: #"{createdAt: {lt: "2026-11-21T12:00:00Z"}}"#, expected: .compare(key: "createdAt", .less, .value(.timestamp(noon)))),
        Case(filter: #"{modifiedAt: {gte: "2026-11-21"}}"#, expected: .compare(key: "modifiedAt", .greaterOrEqual, .value(.timestamp(day)))),
        Case(filter: #"{search: "milk bread"}"#, expected: .textSearch("milk bread")),
        Case(
            filter: #"{list: {eq: "L1"}, number: {gte: 2}}"#,
            expected: .and([
                .compare(key: "list", .equal, .value(.reference(Reference("L1")))), .compare(key: "number", .greaterOrEqual, .integer(2)),
            ])),
        Case(
            filter: #"{AND: [{name: {eq: "Milk"}}, {number: {gte: 2}}]}"#,
            expected: .and([
                .compare(key: "name", .equal, .string("Milk")), .compare(key: "number", .greaterOrEqual, .integer(2)),
            ])),
        Case(
            filter: #"{OR: [{name: {eq: "Milk"}}, {number: {isNull: true}}]}"#,
            expected: .or([
                .compare(key: "name", .equal, .string("Milk")), .isNull(key: "number"),
            ])),
        Case(filter: #"{AND: []}"#, expected: .and([])),
        Case(filter: #"{OR: []}"#, expected: .or([])),
        Case(filter: #"{NOT: {number: {gte: 2}}}"#, expected: .not(.compare(key: "number", .greaterOrEqual, .integer(2)))),
        Case(
            filter: #"{NOT: {OR: [{name: {eq: "a"}}, {NOT: {name: {eq: "b"}}}]}}"#,
            expected: .not(
                .or([
                    .compare(key: "name", .equal, .string("a")), .not(.compare(key: "name", .equal, .string("b"))),
                ]))),
        Case(filter: #"{OR: {name: {eq: "Milk"}}}"#, expected: .or([.compare(key: "name", .equal, .string("Milk"))])),
    ]

    /// Each filter as written in a query, coerced by GraphQLSwift and translated.
    @Test(arguments: cases)
    func filterTranslatesToPredicate(_ example: Case) async throws {
        let query = try await CapturingResolver.query("{ Items(where: \(example.filter)) { recordName } }", in: TestSchemas.catalog())
        #expect(query.predicate == example.expected)
    }

    @Test func filterGivenAsAVariableTranslatesTheSame() async throws {
        let translator = try RecordQLSchema(try TestSchemas.catalog()).filterTranslator(for: "Items")
        let filter = #"{"AND": [{"OR": [{"list": {"eq": "L1"}}, {"number": {"gte": 2}}]}, {"NOT": {"tags": {"contains": "dairy"}}}]}"#
        let coerced = try await CapturingResolver.query(
            "query($filter: ItemsFilter) { Items(where: $filter) { recordName } }",
            variables: ["filter": jsonInput(filter)], in: TestSchemas.catalog()
        )
        #expect(try translator.predicate(from: jsonInput(filter)) == coerced.predicate)
        #expect(
            coerced.predicate
                == .and([
                    .or([.compare(key: "list", .equal, .value(.reference(Reference("L1")))), .compare(key: "number", .greaterOrEqual, .integer(2))]),
                    .not(.contains(key: "tags", .string("dairy"))),
                ]))
    }

    @Test func int64LiteralsOutOfRangeAreRefusedByValidation() async throws {
        let generated = try RecordQLSchema(try TestSchemas.catalog())
        let result = try await graphql(schema: generated.graphQLSchema, request: "{ Items(where: {number: {eq: 9223372036854775808}}) { recordName } }")
        #expect(result.errors.map(\.message) == ["Int64 cannot represent 9223372036854775808: it is outside -9223372036854775808…9223372036854775807"])
        let fractional = try await graphql(schema: generated.graphQLSchema, request: "{ Items(where: {number: {eq: 2.5}}) { recordName } }")
        #expect(fractional.errors.map(\.message) == ["Int64 cannot represent 2.5: it is not a whole number within -9223372036854775808…9223372036854775807"])
        let timestamp = try await graphql(schema: generated.graphQLSchema, request: #"{ Items(where: {due: {eq: "soon"}}) { recordName } }"#)
        #expect(timestamp.errors.map(\.message) == ["Timestamp cannot represent 'soon': write ISO-8601 such as 2026-11-21T09:30:00Z or 2026-11-21"])
    }

    struct Failure: CustomTestStringConvertible, Sendable {
        var filter: String
        var code: RecordError.Code
        var message: String
        var testDescription: String { filter }
    }

    static let failures: [Failure] = [
        Failure(filter: #"{"name": {"eq": null}}"#, code: .invalidArguments, message: "ItemsFilter.name.eq: null is not a value here"),
        Failure(filter: #"{"nope": {"eq": 1}}"#, code: .invalidArguments, message: "ItemsFilter has no key 'nope'"),
        Failure(filter: #"{"photo": {"lt": "AQID"}}"#, code: .invalidArguments, message: "BytesFilter has no operator 'lt'"),
        Failure(filter: #"{"list": {"beginsWith": "L"}}"#, code: .invalidArguments, message: "ReferenceFilter has no operator 'beginsWith'"),
        Failure(filter: #"{"number": {"eq": 1.5}}"#, code: .invalidArguments, message: "ItemsFilter.number.eq: Int64 cannot represent 1.5"),
        Failure(
            filter: #"{"number": {"eq": 9223372036854775808}}"#, code: .invalidArguments,
            message: "not a whole number within -9223372036854775808…9223372036854775807"),
        Failure(filter: #"{"number": {"eq": "2"}}"#, code: .invalidArguments, message: "Int64 cannot represent non-integer value"),
        Failure(filter: #"{"due": {"eq": "yesterday"}}"#, code: .invalidArguments, message: "Timestamp cannot represent 'yesterday'"),
        Failure(filter: #"{"photo": {"eq": "not base64!"}}"#, code: .invalidArguments, message: "it is not base64"),
        Failure(filter: #"{"name": {"eq": 3}}"#, code: .invalidArguments, message: "ItemsFilter.name.eq: expected a String"),
        Failure(filter: #"{"AND": [{"name": {"eq": "a"}}, {"nope": {}}]}"#, code: .invalidArguments, message: "ItemsFilter.AND[1].nope"),
        Failure(filter: #"{"place": {"distance": {"lt": 3}}}"#, code: .invalidArguments, message: "a distance needs from"),
        Failure(filter: #"{"name": "Milk"}"#, code: .invalidArguments, message: "ItemsFilter.name: expected an input object"),
    ]

    @Test(arguments: failures)
    func badFiltersFailWithAClearMessage(_ example: Failure) throws {
        let translator = try RecordQLSchema(try TestSchemas.catalog()).filterTranslator(for: "Items")
        let error = try #require(throws: RecordError.self) { try translator.predicate(from: jsonInput(example.filter)) }
        #expect(error.code == example.code)
        #expect(error.message.contains(example.message), "\(error.message)")
    }

    @Test func searchNeedsASearchableField() throws {
        let translator = try RecordQLSchema(try Schema.shopping).filterTranslator(for: "Items")
        let error = try #require(throws: RecordError.self) { try translator.predicate(from: jsonInput(#"{"search": "milk"}"#)) }
        #expect(error.message.contains("ItemsFilter has no key 'search'"))
    }

    @Test func renamedFieldsTranslateToTheirSchemaNames() async throws {
        let schema = try ckdbSchema("RECORD TYPE Notes (search STRING SEARCHABLE, AND INT64);")
        let translator = try RecordQLSchema(schema).filterTranslator(for: "Notes")
        #expect(try translator.predicate(from: jsonInput(#"{"search_": {"eq": "x"}}"#)) == .compare(key: "search", .equal, .string("x")))
        let query = try await CapturingResolver.query(#"{ Notes(where: {search_: {eq: "x"}, AND_: {gt: 1}, search: "word"}) { recordName } }"#, in: schema)
        #expect(
            query.predicate
                == .and([
                    .compare(key: "search", .equal, .string("x")), .compare(key: "AND", .greater, .integer(1)), .textSearch("word"),
                ]))
    }
}

@Suite("Translating sort: lists into RecordKit sort descriptors")
struct SortTranslatorTests {
    @Test func eachObjectGivesOneKeyMostSignificantFirst() throws {
        let translator = try RecordQLSchema(try TestSchemas.catalog()).sortTranslator(for: "Items")
        #expect(
            try translator.sortDescriptors(from: jsonInput(#"[{"number": "DESC"}, {"name": "ASC"}]"#)) == [
                SortDescriptor("number", ascending: false), SortDescriptor("name"),
            ])
        #expect(
            try translator.sortDescriptors(from: jsonInput(#"[{"modifiedAt": "DESC"}, {"recordName": "ASC"}, {"createdAt": "ASC"}]"#)) == [
                SortDescriptor("modifiedAt", ascending: false), SortDescriptor("recordName"), SortDescriptor("createdAt"),
            ])
        #expect(try translator.sortDescriptors(from: jsonInput(#"{"due": "ASC"}"#)) == [SortDescriptor("due")])
        #expect(try translator.sortDescriptors(from: jsonInput(#"[]"#)) == [])
    }

    @Test(arguments: [
        (
            #"[{"name": "ASC", "number": "DESC"}]"#,
            "sort[0]: each ItemsSort object names exactly one key, e.g. sort: [{number: DESC}, {name: ASC}]; this one names name, number"
        ),
        (#"[{}]"#, "sort[0]: each ItemsSort object names exactly one key"),
        (#"[{"photo": "ASC"}]"#, "sort[0].photo: ItemsSort has no key 'photo'"),
        (#"[{"name": "UP"}]"#, "sort direction is ASC or DESC, not 'UP'"),
        (#"[{"name": null}]"#, "sort[0].name: null is not a value here"),
    ])
    func badSortsFailWithAClearMessage(_ sort: String, _ message: String) throws {
        let translator = try RecordQLSchema(try TestSchemas.catalog()).sortTranslator(for: "Items")
        let error = try #require(throws: RecordError.self) { try translator.sortDescriptors(from: jsonInput(sort)) }
        #expect(error.code == .invalidArguments)
        #expect(error.message.contains(message), "\(error.message)")
    }
}
