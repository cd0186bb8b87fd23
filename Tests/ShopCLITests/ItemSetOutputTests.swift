import Testing

@testable import ShopCLI

/// What `item set` says: the item it updated, and where it is now when the command renamed or
/// moved it.
@Suite struct ItemSetOutputTests {
    @Test func aRenamedOrMovedItemIsSaidWhereItIsNow() async throws {
        let sandbox = Sandbox()
        let run = await shop([
            "--db", sandbox.database, "-e", "schema add-field Items note STRING", "-e", "list add Groceries", "-e", "list add Dairy",
            "-e", "item add Groceries Milk",
            "-e", "item set Groceries Milk note=fresh", "-e", "item set Groceries Milk list=Dairy name='Oat milk'",
        ])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").suffix(2)
        #expect(Array(lines) == ["updated Milk in Groceries", "updated Milk in Groceries; it is now 'Oat milk' in Dairy"], "\(run.output)")
    }
}
