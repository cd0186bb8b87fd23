import Foundation
import GraphQL
import RecordKit
import Testing

@testable import RecordQL

/// A `where:` filter and the NSPredicate text meaning the same select the same records
/// (through the reference executor, over a database of items of every kind).
@Suite("where: and predicate: agree")
struct FilterEquivalenceTests {
    static let pairs: [(filter: String, predicate: String)] = [
        (#"{list: {eq: "L1"}, number: {gte: 2}}"#, "list == 'L1' AND number >= 2"),
        (#"{name: {beginsWith: "mi", caseInsensitive: true}}"#, "name BEGINSWITH[c] 'mi'"),
        (#"{name: {contains: "ilk"}}"#, "name CONTAINS 'ilk'"),
        (#"{name: {eq: "MILK", caseInsensitive: true}}"#, "name ==[c] 'MILK'"),
        (#"{name: {in: ["Milk", "Bread"]}}"#, "name IN {'Milk', 'Bread'}"),
        (#"{name: {gte: "B", lt: "M"}}"#, "name >= 'B' AND name < 'M'"),
        (#"{number: {ne: 2}}"#, "number != 2"),
        (#"{NOT: {number: {gte: 2}}}"#, "NOT (number >= 2)"),
        (#"{number: {isNull: true}}"#, "number == nil"),
        (#"{number: {isNull: false}}"#, "number != nil"),
        (#"{OR: [{number: {lt: 2}}, {name: {eq: "Eggs"}}]}"#, "number < 2 OR name == 'Eggs'"),
        (#"{price: {gt: 2}}"#, "price > 2"),
        (#"{price: {lte: 1.5}}"#, "price <= 1.5"),
        (#"{due: {lt: "2026-11-22"}}"#, "due < '2026-11-22'"),
        (#"{due: {gte: "2026-11-21T12:00:00Z"}}"#, "due >= '2026-11-21T12:00:00Z'"),
        (#"{tags: {contains: "dairy"}}"#, "tags CONTAINS 'dairy'"),
        (#"{tags: {contains: "dairy", caseInsensitive: true}}"#, "tags CONTAINS[c] 'dairy'"),
        (#"{related: {contains: "I2"}}"#, "related CONTAINS 'I2'"),
        (#"{list: {ne: "L1"}}"#, "list != 'L1'"),
        (#"{list: {in: ["L2"]}}"#, "list IN {'L2'}"),
        (#"{owner: {eq: "L1"}}"#, "owner == 'L1'"),
        (#"{place: {distance: {from: {latitude: 52.5, longitude: 13.4}, lt: 5}}}"#, "distanceToLocation:fromLocation:(place, 52.5, 13.4) < 5"),
        (#"{place: {distance: {from: {latitude: 52.5, longitude: 13.4}, gt: 100}}}"#, "distanceToLocation:fromLocation:(place, 52.5, 13.4) > 100"),
        (#"{search: "milk"}"#, "self CONTAINS 'milk'"),
        (#"{recordName: {in: ["I1", "I3"]}}"#, "recordName IN {'I1', 'I3'}"),
        (#"{recordName: {beginsWith: "I"}, photo: {isNull: false}}"#, "recordName BEGINSWITH 'I' AND photo != nil"),
        (#"{manual: {isNull: true}}"#, "manual == nil"),
        (
            #"{OR: [{createdAt: {lt: "2000-01-01"}}, {modifiedAt: {gt: "2000-01-01"}, recordName: {eq: "I5"}}]}"#,
            "createdAt < '2000-01-01' OR (modifiedAt > '2000-01-01' AND recordName == 'I5')"
        ),
        (#"{number: {gte: 2, lte: 12}}"#, "number BETWEEN {2, 12}"),
        (#"{price: {gte: 1.5, lte: 2.25}}"#, "price BETWEEN {1.5, 2.25}"),
        (#"{due: {gte: "2026-11-21", lte: "2026-11-30"}}"#, "due BETWEEN {'2026-11-21', '2026-11-30'}"),
        (#"{NOT: {number: {gte: 2, lte: 12}}}"#, "NOT (number BETWEEN {2, 12})"),
        (#"{NOT: {OR: [{tags: {contains: "dairy"}}, {list: {eq: "L2"}}]}}"#, "NOT (tags CONTAINS 'dairy' OR list == 'L2')"),
    ]

    /// Lists L1, L2 and five items with different fields set.
    static func database() throws -> RecordDatabase {
        let database = try RecordDatabase.inMemory(bootstrap: try TestSchemas.catalog())
        func date(_ text: String) -> RecordKit.Value { .timestamp(Timestamp.parse(text) ?? Date(timeIntervalSince1970: 0)) }
        func at(_ latitude: Double, _ longitude: Double) -> RecordKit.Value { .location(RecordKit.Location(latitude: latitude, longitude: longitude)) }
        try database.modify([
            .create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")])),
            .create(Record("Lists", recordName: "L2", fields: ["name": .string("Sweets")])),
            .create(
                Record(
                    "Items", recordName: "I1",
                    fields: [
                        "name": .string("Milk"), "list": .reference(Reference("L1")), "number": .int64(2), "price": .double(1.5),
                        "due": date("2026-11-20"), "tags": .list([.string("dairy"), .string("cold")]), "place": at(52.5, 13.4),
                        "related": .list([.reference(Reference("I2"))]),
                    ])),
            .create(
                Record(
                    "Items", recordName: "I2",
                    fields: [
                        "name": .string("Bread"), "list": .reference(Reference("L1")), "number": .int64(1), "price": .double(2.25),
                        "due": date("2026-11-22T08:00:00Z"), "tags": .list([.string("bakery")]), "place": at(52.52, 13.41),
                    ])),
            .create(
                Record(
                    "Items", recordName: "I3",
                    fields: [
                        "name": .string("milk chocolate"), "list": .reference(Reference("L2")), "price": .double(3),
                        "tags": .list([.string("Dairy"), .string("sweet")]), "place": at(48.1, 11.6), "owner": .reference(Reference("L1")),
                    ])),
            .create(
                Record(
                    "Items", recordName: "I4",
                    fields: [
                        "name": .string("Eggs"), "list": .reference(Reference("L2")), "number": .int64(12), "due": date("2026-11-25"),
                        "photo": .bytes(Data([1, 2, 3])), "related": .list([.reference(Reference("I1")), .reference(Reference("I2"))]),
                    ])),
            .create(
                Record(
                    "Items", recordName: "I5",
                    fields: [
                        "name": .string("Nails"), "number": .int64(100), "manual": .asset(Asset(content: Data("hello".utf8))),
                    ])),
        ])
        return database
    }

    @Test func equivalentFiltersAndPredicatesSelectTheSameRecords() async throws {
        let database = try Self.database()
        let schema = try RecordQLSchema(database.schema, resolver: DatabaseResolver(database: database)).graphQLSchema
        func names(_ arguments: String) async throws -> [String] {
            let result = try await graphql(schema: schema, request: "{ Items(\(arguments), sort: [{recordName: ASC}]) { recordName } }")
            #expect(result.errors.isEmpty, "\(arguments): \(result.errors)")
            return result.data?["Items"].array?.compactMap { $0["recordName"].string } ?? []
        }
        for (filter, predicate) in Self.pairs {
            let byFilter = try await names("where: \(filter)")
            let quoted = String(decoding: try JSONEncoder().encode(predicate), as: UTF8.self)
            let byPredicate = try await names("predicate: \(quoted)")
            #expect(byFilter == byPredicate, "\(filter) vs \(predicate)")
            #expect(!byFilter.isEmpty && byFilter.count < 5, "\(filter) should select some items, not all: \(byFilter)")
        }
    }
}
