import Foundation
import RecordKit
import TestSupport
import Testing

@testable import ShopCLI

/// On a database file a write command's look-ups and its write are one transaction: what it
/// found is what it writes over, and the whole commits once.
@Suite struct CommandTransactionTests {
    /// The statements of `log` that begin or end a transaction.
    private static func transactions(in log: [String]) -> [String] {
        log.filter { $0.hasPrefix("BEGIN") || $0 == "COMMIT TRANSACTION" || $0 == "COMMIT" || $0.hasPrefix("ROLLBACK") }
    }

    /// A store on a new database file with list `Groceries` holding `items`, and the log of the
    /// statements it runs from now on.
    private static func groceries(holding items: [String] = [], in sandbox: Sandbox) async throws -> (ShoppingStore, StatementLog) {
        let log = StatementLog()
        let database = try RecordDatabase(path: sandbox.database, bootstrap: .shopping, trace: { log.append($0) })
        let store = ShoppingStore(backend: LocalBackend(database: database))
        try await store.addList("Groceries")
        for item in items {
            try await store.addItem(item, to: "Groceries", assignments: [])
        }
        log.reset()
        return (store, log)
    }

    @Test func aWriteCommandLooksUpAndWritesInOneTransaction() async throws {
        let sandbox = Sandbox()
        let (store, log) = try await Self.groceries(in: sandbox)

        try await store.addItem("Milk", to: "Groceries", assignments: [])

        let boundaries = Self.transactions(in: log.statements)
        #expect(boundaries.first == "BEGIN IMMEDIATE TRANSACTION", "\(boundaries)")
        #expect(boundaries.filter { $0.hasPrefix("BEGIN") }.count == 1, "one transaction for the look-up and the write: \(boundaries)")
        #expect(boundaries.last?.hasPrefix("COMMIT") == true, "\(boundaries)")
        #expect(try await store.items(in: "Groceries").map(\.name) == ["Milk"])
    }

    @Test func aFailingWriteCommandRollsBackAndTheNextOneRuns() async throws {
        let sandbox = Sandbox()
        let (store, log) = try await Self.groceries(holding: ["Milk"], in: sandbox)

        await #expect(throws: RecordError.self) { try await store.addItem("Milk", to: "Groceries", assignments: []) }
        #expect(Self.transactions(in: log.statements).last?.hasPrefix("ROLLBACK") == true, "\(Self.transactions(in: log.statements))")

        try await store.addItem("Bread", to: "Groceries", assignments: [])
        #expect(try await store.items(in: "Groceries").map(\.name) == ["Bread", "Milk"])
    }
}
