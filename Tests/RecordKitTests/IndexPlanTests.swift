import TestSupport
import Testing

@testable import RecordKit

@Suite struct IndexPlanTests {
    private static let canonicalQuery = Query("Items", predicate: PredicateField("list") == "L1", sort: [SortDescriptor("name")], limit: 50)

    @Test func theCanonicalQueryReadsOneIndexRangeAloneWithoutASortStep() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let explanation = try db.explain(Self.canonicalQuery)
        #expect(explanation.plan.count == 1, "\(explanation.plan)")
        #expect(explanation.plan[0].contains("SEARCH Items USING COVERING INDEX _idx(Items:list:name) (list=?)"), "\(explanation.plan)")
        #expect(!explanation.description.contains("TEMP B-TREE"))
    }

    @Test func itemsGetTheIndexesTheirFlagsImply() throws {
        let items = try #require(try Schema.shopping.recordType(named: "Items"))
        #expect(
            IndexPlan(items).indexes.map(\.columns) == [
                ["\"name\"", "_recordName"],
                ["\"list\"", "\"name\"", "_recordName", "_createdAt", "_modifiedAt", "_changeTag", "\"_action_list\""],
            ], "(list, _recordName) is left out: the composite serves list == X, and carries the rest of the record")
    }

    @Test func aCompositeCarriesNoFieldWithoutABoundWhenTheTypeHasOne() {
        let notes = RecordType(
            "Notes",
            fields: [
                FieldDefinition("list", .reference, flags: .queryable),
                FieldDefinition("name", .string, flags: .sortable),
                FieldDefinition("photo", .bytes),
            ])
        #expect(IndexPlan(notes).indexes.map(\.columns).last == ["\"list\"", "\"name\"", "_recordName"])
    }

    @Test func addingSortableAddsTheCompositeIndexForEachReference() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition("number", .int64, flags: .sortable), to: "Items")
        let plan = try db.explain(Query("Items", predicate: PredicateField("list") == "L1", sort: [SortDescriptor("number", ascending: false)]))
        #expect(plan.description.contains("COVERING INDEX _idx(Items:list:number)"), "\(plan)")
        #expect(!plan.description.contains("TEMP B-TREE"), "\(plan)")
    }

    @Test func aFieldAddedLaterIsCarriedByTheCompositeBuiltAgain() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.item("I2", "Milk", in: "L1"))
        try db.save(Shopping.item("I1", "Eggs", in: "L1"))
        try db.addField(FieldDefinition("number", .int64), to: "Items")
        var eggs = try #require(try db.fetch(recordName: "I1"))
        eggs.fields["number"] = .int64(12)
        try db.save(eggs)
        #expect(try db.explain(Self.canonicalQuery).plan.first?.contains("COVERING INDEX _idx(Items:list:name)") == true)
        let page = try db.records(matching: Self.canonicalQuery)
        #expect(page.map(\.recordName) == ["I1", "I2"])
        #expect(page.map { $0.fields["number"] } == [.int64(12), nil])
    }

    @Test func aDatabaseFromBeforeCoveringCompositesGetsThemWhenOpened() throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.item("I1", "Milk", in: "L1"))
        try file.executeSQL(
            """
            DROP INDEX "_idx(Items:list:name)";
            CREATE INDEX "_idx(Items:list:name)" ON "Items"("list", "name", _recordName);
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v7%';
            """)
        #expect(try file.open().explain(Self.canonicalQuery).plan.first?.contains("COVERING INDEX _idx(Items:list:name)") == true)
        #expect(try file.open().records(matching: Self.canonicalQuery).map(\.recordName) == ["I1"])
    }
}
