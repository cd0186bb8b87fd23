import Foundation
import RecordKit
import TestSupport
import Testing

@testable import ShopCLI

/// Databases made before the shopping schema declared its rules get them when shop opens them,
/// when their records keep them; otherwise shop says which records stand in the way.
@Suite struct ShoppingRulesTests {
    /// The shopping schema is shop's, not the engine's: a new database shop opens gets it.
    @Test func aNewDatabaseGetsTheShoppingSchema() async throws {
        let sandbox = Sandbox()
        #expect(await shop(["--db", sandbox.database, "-e", "lists"]).status == 0)
        #expect(try RecordDatabase(path: sandbox.database).schema == ShoppingLists.schema)
        #expect(try ShoppingLists.schema == Schema.shopping)
    }

    @Test func aCleanOlderDatabaseGetsTheRulesOnOpen() async throws {
        let sandbox = Sandbox()
        let older = try RecordDatabase(path: sandbox.database, bootstrap: try Schema.shopping.withoutRules)
        try older.save(Record("Lists", recordName: "L1", fields: ["name": .string("Party")]))
        let run = await shop(["--db", sandbox.database, "-e", "lists"])
        #expect(run.status == 0)
        #expect(run.errors == "")
        #expect(try older.schema == Schema.shopping)
        let duplicate = await shop(["--db", sandbox.database, "-e", #"mutation { createLists(fields: {name: "Party"}) { name } }"#])
        #expect(duplicate.errors.hasPrefix("error: schemaViolation: "), "\(duplicate.errors)")
    }

    @Test func anOlderDatabaseWithDuplicatesIsWarnedAboutAndLeftAsItIs() async throws {
        let sandbox = Sandbox()
        let older = try RecordDatabase(path: sandbox.database, bootstrap: try Schema.shopping.withoutRules)
        try older.modify([
            .create(Record("Lists", recordName: "L1", fields: ["name": .string("Party")])),
            .create(Record("Lists", recordName: "L2", fields: ["name": .string("Party")])),
        ])
        let run = await shop(["--db", sandbox.database, "-e", "list add Work"])
        #expect(run.status == 0)
        #expect(run.errors.hasPrefix("warning: the shopping rules"), "\(run.errors)")
        #expect(run.errors.contains("name 'Party' (L1, L2)"), "\(run.errors)")
        #expect(try older.schema == Schema.shopping.withoutRules)
    }
}
