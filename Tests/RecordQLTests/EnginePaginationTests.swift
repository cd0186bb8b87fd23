import Foundation
import GraphQL
import RecordKit
import TestSupport
import Testing

@testable import RecordQL

@Suite("Pages through the language")
struct EnginePaginationTests {
    /// 23 items over 4 names, so pages end in the middle of runs of equal names.
    static func shopWithTies() async throws -> EngineFixture {
        let shop = try EngineFixture(bootstrap: try Schema.shopping.withoutRules)
        let names = ["Apples", "Bread", "Bread", "Bread", "Cheese", "Cheese", "Milk"]
        await shop.createList("L1", "Groceries", items: (0..<23).map { (String(format: "I%02d", $0), names[$0 % names.count]) })
        return shop
    }

    @Test(arguments: [1, 4, 5, 23, 50])
    func pagesVisitEveryRecordOnceInOrder(pageSize: Int) async throws {
        let shop = try await Self.shopWithTies()
        let document = """
            query Page($after: String, $size: Int) {
              ItemsPage(sort: [{name: DESC}], limit: $size, after: $after) { records { recordName name } cursor }
            }
            """
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            var variables: [String: Map] = ["size": .int(pageSize)]
            if let cursor { variables["after"] = .string(cursor) }
            let json = await shop.data(document, variables: variables)
            let page = try #require(JSONValue(parsing: json)?["data"]?["ItemsPage"])
            guard case .array(let records)? = page["records"] else {
                Issue.record("no records in \(json)")
                return
            }
            #expect(records.count <= pageSize)
            for case .string(let name)? in records.map({ $0["recordName"] }) { seen.append(name) }
            if case .string(let next)? = page["cursor"] { cursor = next } else { cursor = nil }
            pages += 1
        } while cursor != nil && pages < 100

        let expected = try shop.database.records(matching: Query("Items", sort: [SortDescriptor("name", ascending: false)])).map(\.recordName)
        #expect(seen == expected)
        #expect(Set(seen).count == 23)
        #expect(pages == max(1, (23 + pageSize - 1) / pageSize))
    }

    @Test func aPageWithoutLimitHasTheDefaultSizeAndTheLastPageNoCursor() async throws {
        let shop = try await Self.shopWithTies()
        let json = await shop.data("{ ItemsPage { cursor c: cursor } }")
        #expect(json == #"{"data":{"ItemsPage":{"cursor":null,"c":null}}}"#)
    }

    /// An empty page has no last record to continue from: `limit: 0` is refused, not answered
    /// with the null cursor that says the data ended.
    @Test func aPageOfNoRecordsIsRefused() async throws {
        let shop = try await Self.shopWithTies()
        let response = await shop.run("{ ItemsPage(limit: 0) { records { name } cursor } }")
        #expect(response.errors.map(\.code) == [.invalidArguments])
        #expect(response.errors.first?.message.contains("at least 1 record") == true)
    }

    @Test func aCursorOfAnotherQueryIsRefused() async throws {
        let shop = try await Self.shopWithTies()
        let first = await shop.data("{ ItemsPage(limit: 2) { cursor } }")
        guard case .string(let cursor)? = JSONValue(parsing: first)?["data"]?["ItemsPage"]?["cursor"] else {
            Issue.record("no cursor in \(first)")
            return
        }
        let error = try await shop.error(#"{ ItemsPage(limit: 2, sort: [{name: ASC}], after: "\#(cursor)") { cursor } }"#)
        #expect(error.code == .invalidArguments)
        #expect(error.path == [.key("ItemsPage")])
    }
}
