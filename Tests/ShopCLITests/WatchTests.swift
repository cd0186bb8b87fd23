import Foundation
import RecordKit
import TestSupport
import Testing

@testable import ShopCLI

/// `watch QUERY`: the result, then each committed change by another process as it comes, until
/// Ctrl-C; a rolled-back write shows nothing.
@Suite struct WatchTests {
    private struct Refused: Error {}

    @Test func watchPrintsEachCommittedChangeOfAnotherProcessUntilCtrlC() throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let sandbox = Sandbox()
        let database = try RecordDatabase(path: sandbox.database, bootstrap: .shopping)
        _ = try database.save(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
        let first = #"{"data":{"Items":[]}}"# + "\n"
        let second = #"{"data":{"Items":[{"name":"Milk"}]}}"# + "\n"
        let document = #"watch { Items(where: {list: {eq: "L1"}}, sort: [{name: ASC}]) { name } }"#
        let run = try ShopBinary.run(binary, ["--db", sandbox.database, "--json", "-e", document], timeout: 60) { child in
            #expect(child.nextOutput(first.utf8.count, within: 20) == first)
            #expect(throws: Refused.self) {
                try database.write { transaction in
                    _ = try transaction.apply(.create(Record("Items", fields: ["name": .string("Ghost"), "list": .reference(Reference("L1"))])))
                    throw Refused()
                }
            }
            _ = try database.save(Record("Items", fields: ["name": .string("Milk"), "list": .reference(Reference("L1", action: .deleteSelf))]))
            let committed = Date()
            #expect(child.nextOutput(second.utf8.count, within: 10) == second)
            #expect(Date().timeIntervalSince(committed) < 1)
            child.send(SIGINT)
        }
        #expect(run.status == 130, "\(run.errors)")
        #expect(run.output == first + second)
    }

    @Test func watchTakesAGraphQLQuery() throws {
        let sandbox = Sandbox()
        guard let run = try ShopBinary.shop(["--db", sandbox.database, "-e", "watch items Groceries"]) else { return }
        #expect(run.status == 1)
        #expect(run.errors.contains("watch takes a GraphQL query, not 'items'"))
    }

    @Test func aQueryIsWatchedAsTheSubscriptionOfItsFields() {
        #expect(WatchCommand.subscription(of: "{ Lists { name } }") == "subscription { Lists { name } }")
        #expect(WatchCommand.subscription(of: "query Q { Lists { name } }") == "subscription Q { Lists { name } }")
        #expect(WatchCommand.subscription(of: "subscription { Lists { name } }") == "subscription { Lists { name } }")
    }
}
