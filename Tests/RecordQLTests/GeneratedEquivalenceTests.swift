import Foundation
import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

/// Every `where:`/`predicate:` pair of ``FilterEquivalenceTests`` over a generated data set
/// (seeded, so runs repeat): the compiled engine selects the same records for both, and the
/// same records as GraphQLSwift's executor over the reference resolvers.
@Suite("where: and predicate: agree on generated data")
struct GeneratedEquivalenceTests {
    /// 400 items over two lists with every field sometimes absent, values drawn from small
    /// pools so that comparisons, ties and nulls all occur.
    static func database(seed: UInt64) throws -> RecordDatabase {
        var random = SplitMix64(state: seed)
        let database = try RecordDatabase.inMemory(bootstrap: try TestSchemas.catalog())
        let names = ["Milk", "milk chocolate", "Bread", "Eggs", "Nails", "MILK", "Mints", "bread rolls"]
        let tags = ["dairy", "Dairy", "bakery", "cold", "sweet"]
        var operations: [RecordOperation] = [
            .create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")])),
            .create(Record("Lists", recordName: "L2", fields: ["name": .string("Sweets")])),
        ]
        for index in 0..<400 {
            var fields: [String: RecordKit.Value] = [:]
            func maybe(_ value: @autoclosure () -> RecordKit.Value, _ key: String) {
                if random.next(4) > 0 { fields[key] = value() }
            }
            maybe(.string(names[random.next(names.count)]), "name")
            maybe(.reference(Reference("L\(1 + random.next(2))")), "list")
            maybe(.int64(Int64(random.next(15))), "number")
            maybe(.double([1.5, 2.25, 3, 0.5][random.next(4)]), "price")
            maybe(.timestamp(Date(timeIntervalSince1970: 1_763_596_800 + Double(random.next(10)) * 86_400)), "due")
            maybe(.list((0..<random.next(3)).map { _ in .string(tags[random.next(tags.count)]) }), "tags")
            maybe(.list((0..<random.next(3)).map { _ in .reference(Reference("I\(random.next(6))")) }), "related")
            if random.next(10) == 0 { fields["manual"] = .asset(Asset(content: Data("manual".utf8))) }
            operations.append(.create(Record("Items", recordName: "I\(index)", fields: fields)))
        }
        try database.modify(operations)
        return database
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func compiledFiltersAndPredicatesSelectTheSameGeneratedRecords(seed: UInt64) async throws {
        let database = try Self.database(seed: seed)
        let engine = RecordQLEngine(database: database)
        let reference = try RecordQLSchema(database.schema, resolver: DatabaseResolver(database: database)).graphQLSchema
        var distinctResults: Set<[String]> = []
        for (filter, predicate) in FilterEquivalenceTests.pairs {
            let quoted = String(decoding: try JSONEncoder().encode(predicate), as: UTF8.self)
            let byFilter = try await Self.recordNames(engine, "where: \(filter)")
            let byPredicate = try await Self.recordNames(engine, "predicate: \(quoted)")
            #expect(byFilter == byPredicate, "\(filter) vs \(predicate)")
            let result = try await graphql(schema: reference, request: "{ Items(where: \(filter), sort: [{recordName: ASC}], limit: 1000) { recordName } }")
            let byReference = result.data?["Items"].array?.compactMap { $0["recordName"].string } ?? []
            #expect(byFilter == byReference, "compiled and reference differ for \(filter)")
            distinctResults.insert(byFilter)
        }
        #expect(distinctResults.count > FilterEquivalenceTests.pairs.count / 2, "the data set tells the conditions apart")
    }

    static func recordNames(_ engine: RecordQLEngine, _ argument: String) async throws -> [String] {
        let response = await engine.execute("{ Items(\(argument), sort: [{recordName: ASC}], limit: 1000) { recordName } }")
        #expect(response.isSuccess, "\(argument): \(response.json)")
        guard case .array(let items)? = JSONValue(parsing: response.json)?["data"]?["Items"] else { return [] }
        return items.compactMap { if case .string(let name)? = $0["recordName"] { name } else { nil } }
    }
}

extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
