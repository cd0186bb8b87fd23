import TestSupport
import Testing

@testable import RecordKit

@Suite struct IndexPlanTests {
    @Test func theCanonicalQueryIsOneIndexRangeScanWithoutASortStep() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let explanation = try db.explain(Query("Items", predicate: PredicateField("list") == "L1", sort: [SortDescriptor("name")], limit: 50))
        #expect(explanation.plan.count == 1, "\(explanation.plan)")
        #expect(explanation.plan[0].contains("SEARCH Items USING INDEX _idx(Items:list:name) (list=?)"), "\(explanation.plan)")
        #expect(!explanation.description.contains("TEMP B-TREE"))
    }

    @Test func itemsGetTheIndexesTheirFlagsImply() throws {
        let items = try #require(try Schema.shopping.recordType(named: "Items"))
        #expect(
            IndexPlan(items).indexes.map(\.columns) == [
                ["\"name\"", "_recordName"],
                ["\"list\"", "\"name\"", "_recordName"],
            ], "(list, _recordName) is left out: the composite serves list == X")
    }

    @Test func addingSortableAddsTheCompositeIndexForEachReference() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition("number", .int64, flags: .sortable), to: "Items")
        let plan = try db.explain(Query("Items", predicate: PredicateField("list") == "L1", sort: [SortDescriptor("number", ascending: false)]))
        #expect(plan.description.contains("_idx(Items:list:number)"), "\(plan)")
        #expect(!plan.description.contains("TEMP B-TREE"), "\(plan)")
    }
}
