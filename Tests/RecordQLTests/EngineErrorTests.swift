import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// Bad requests are answered with located errors carrying the codes of the README; none
/// crashes, none reaches the database as text.
@Suite("Errors of bad requests")
struct EngineErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var document: String
        var variables: [String: Map] = [:]
        var code: RecordError.Code
        /// `(line, column)` of the first location, `nil` when the error concerns the whole request.
        var location: (Int, Int)?
        var message: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "unclosed selection", document: "{ Items { name }", code: .invalidArguments, location: (1, 17),
            message: "Syntax Error: Expected Name, found <EOF>"),
        Case(name: "empty document", document: "", code: .invalidArguments, location: (1, 1), message: "Syntax Error"),
        Case(name: "stray token", document: "{ Items { name } } }", code: .invalidArguments, location: (1, 20), message: "Syntax Error"),
        Case(name: "unknown field", document: "{ Lists { title } }", code: .schemaViolation, location: (1, 11), message: "Lists has no field 'title'"),
        Case(
            name: "unknown root field", document: "{ Shops { name } }", code: .schemaViolation, location: (1, 3),
            message: #"Cannot query field "Shops" on type "Query""#),
        Case(
            name: "unknown type", document: "{ Lists { ... on Shops { name } } }", code: .schemaViolation, location: (1, 18), message: #"Unknown type "Shops""#),
        Case(
            name: "unknown argument", document: "{ Lists(first: 2) { name } }", code: .invalidArguments, location: (1, 9),
            message: #"does not have argument "first""#),
        Case(
            name: "unknown filter key", document: #"{ Items(where: {title: {eq: "x"}}) { name } }"#, code: .schemaViolation, location: (1, 17),
            message: "Items has no field 'title'"),
        Case(
            name: "wrong argument type", document: #"{ Lists(limit: "two") { name } }"#, code: .invalidArguments, location: (1, 16),
            message: "Int cannot represent"),
        Case(
            name: "wrong enum value", document: "{ Lists(sort: [{name: UP}]) { name } }", code: .invalidArguments, location: (1, 23), message: "SortDirection"),
        Case(name: "negative limit", document: "{ Lists(limit: -1) { name } }", code: .invalidArguments, location: (1, 3), message: "limit"),
        Case(
            name: "predicate syntax", document: #"{ Items(predicate: "name == ") { name } }"#, code: .invalidArguments, location: (1, 20),
            message: "of the predicate"),
        Case(
            name: "predicate on an unknown field", document: #"{ Items(predicate: "size > 2") { name } }"#, code: .schemaViolation, location: (1, 3),
            message: "size"),
        Case(
            name: "missing required variable", document: "query($l: ID!) { Items(where: {list: {eq: $l}}) { name } }", code: .invalidArguments,
            location: (1, 7), message: "$l"),
        Case(
            name: "variable of the wrong type", document: "query($n: Int) { Items(limit: $n) { name } }", variables: ["n": "many"], code: .invalidArguments,
            location: (1, 7), message: "$n"),
        Case(
            name: "undefined variable", document: "{ Items(limit: $n) { name } }", code: .invalidArguments, location: (1, 16),
            message: #"Variable "$n" is not defined"#),
        Case(
            name: "two fields under one alias", document: "{ a: Lists { name } a: Items { name } }", code: .invalidArguments, location: (1, 3),
            message: "'a' names two different fields"),
        Case(
            name: "unused fragment", document: "{ Lists { name } } fragment F on Lists { name }", code: .invalidArguments, location: (1, 20),
            message: #"Fragment "F" is never used"#),
        Case(
            name: "unused variable", document: "query($n: Int) { Lists { name } }", code: .invalidArguments, location: (1, 7),
            message: #"Variable "$n" is never used"#),
        Case(
            name: "subscription of two fields", document: "subscription { Lists { name } Items { name } }", code: .invalidArguments,
            location: (1, 1), message: "a subscription selects exactly one root field"),
        Case(
            name: "unnamed operation among several", document: "query A { Lists { name } } query B { Items { name } }", code: .invalidArguments, location: nil,
            message: "give the name"),
        Case(
            name: "too deep", document: String(repeating: "{ Lists ", count: 70) + String(repeating: "}", count: 70), code: .limitExceeded,
            location: (1, 1 + 8 * 64), message: "deeper than 64"),
        Case(
            name: "scalar with a selection", document: "{ Lists { name { x } } }", code: .invalidArguments, location: (1, 16),
            message: "must not have a selection"),
        Case(
            name: "mutation input of the wrong type", document: #"mutation { createLists(fields: {name: 12}) { name } }"#, code: .invalidArguments,
            location: (1, 39), message: "String cannot represent"),
    ]

    /// The message says what is missing; the remedy, for the edge to word, says what to add,
    /// with the type the value given suggests.
    @Test func aMissingFieldCarriesTheRemedyOfAddingIt() async throws {
        let shop = try EngineFixture()
        let error = try await shop.error(#"{ Items(where: {title: {eq: "x"}}) { name } }"#)
        #expect(error.reason == .unknownField)
        #expect(error.remedy == .addField(recordType: "Items", field: "title", type: "STRING"))
        #expect(!error.message.contains("schema add-field"), "REPL advice stays in the REPL")
    }

    /// The response's JSON carries the same in the error's `extensions`: the code, the reason and
    /// the remedy as an object a client can act on, and no REPL wording.
    @Test func theErrorsExtensionsCarryTheCodeReasonAndRemedy() async throws {
        let shop = try EngineFixture()
        let missingField = await shop.run(#"{ Items(where: {title: {eq: "x"}}) { name } }"#)
        #expect(
            missingField.json.contains(
                #""extensions":{"code":"schemaViolation","reason":"unknownField","remedy":{"kind":"addField","recordType":"Items","field":"title","type":"STRING"}}"#
            ), "\(missingField.json)")
        #expect(!missingField.json.contains("schema add-field"))
        let syntax = await shop.run("{ Items { name }")
        #expect(syntax.json.contains(#""extensions":{"code":"invalidArguments"}}"#), "\(syntax.json)")
    }

    @Test(arguments: cases)
    func badRequestsFailWithLocatedErrors(_ test: Case) async throws {
        let shop = try EngineFixture()
        let response = await shop.run(test.document, variables: test.variables)
        let error = try #require(response.errors.first, "\(response.json)")
        #expect(error.code == test.code, "\(response.json)")
        #expect(error.message.contains(test.message), "\(error.message)")
        #expect(error.locations.first.map { [$0.line, $0.column] } == test.location.map { [$0.0, $0.1] }, "\(error.locations)")
        #expect(response.json.contains(#""extensions":{"code":"\#(test.code.rawValue)""#))
    }

    /// A field whose type has no order (here an ASSET, which a CloudKit schema may still mark
    /// SORTABLE) is named as such, not as a field to add.
    @Test func sortingByAFieldWithoutAnOrderSaysSoAndOffersNoFieldToAdd() async throws {
        let shop = try EngineFixture()
        try shop.database.addField(FieldDefinition("photo", .asset, flags: [.sortable]), to: "Items")
        let error = try await shop.error("{ Items(sort: [{photo: ASC}]) { name } }")
        #expect(error.code == .invalidArguments)
        #expect(error.message.contains("Items.photo is ASSET, which cannot be sorted; sort by a STRING, INT64"), "\(error.message)")
        #expect(error.remedy == nil && error.reason == nil)
        #expect(error.locations == [.init(line: 1, column: 17)])
    }

    @Test func int64OutOfRangeIsRefusedInLiteralsAndVariables() async throws {
        let shop = try EngineFixture()
        try shop.database.addField(FieldDefinition("number", .int64, flags: [.queryable]), to: "Items")
        let literal = try await shop.error("{ Items(where: {number: {gt: 9223372036854775808}}) { name } }")
        #expect(literal.code == .invalidArguments)
        #expect(literal.message.contains("Int64 cannot represent 9223372036854775808"))
        #expect(literal.locations == [.init(line: 1, column: 30)])

        let variable = try await shop.error("query($n: Int64) { Items(where: {number: {gt: $n}}) { name } }", variables: ["n": .double(1e19)])
        #expect(variable.code == .invalidArguments)
        #expect(variable.message.contains("$n"))
        #expect(variable.locations == [.init(line: 1, column: 7)])

        let largest = await shop.data("query($n: Int64) { Items(where: {number: {lt: $n}}) { name } }", variables: ["n": .number(Number(Int64.max))])
        #expect(largest == #"{"data":{"Items":[]}}"#)
    }

    @Test func validationReportsEveryErrorWithItsLocation() async throws {
        let shop = try EngineFixture()
        let response = await shop.run("{ Lists { title } Items { size } }")
        #expect(response.errors.map(\.code) == [.schemaViolation, .schemaViolation])
        #expect(response.errors.map(\.locations) == [[.init(line: 1, column: 11)], [.init(line: 1, column: 27)]])
        #expect(!response.json.contains(#""data""#), "a request that never ran has no data")
    }

    @Test func anOverlongDocumentIsRefusedBeforeParsing() async throws {
        let shop = try EngineFixture()
        let error = try await shop.error("{ Lists { name } }" + String(repeating: " ", count: DocumentLimits.maximumLength))
        #expect(error.code == .limitExceeded)
    }
}
