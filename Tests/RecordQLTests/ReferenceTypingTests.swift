import RecordKit
import Testing

@testable import RecordQL

@Suite("Typed and untyped references")
struct ReferenceTypingTests {
    /// Items reference their list (typed) and an owner of any type (untyped); Notes reference
    /// anything (untyped) and a list of items (typed).
    static func schema() throws -> Schema {
        try ckdbSchema(
            """
            RECORD TYPE Items (
                list    REFERENCE QUERYABLE, // references Lists
                owner   REFERENCE
            );
            RECORD TYPE Lists (name STRING);
            RECORD TYPE Notes (
                about   REFERENCE,
                items   LIST<REFERENCE> // references Items
            );
            """
        )
    }

    @Test func typedReferencesResolveToTheirObjectAndUntypedOnesToRecord() throws {
        let generated = try RecordQLSchema(try Self.schema())
        #expect(try generated.outputField("Items", "list") == "Lists")
        #expect(try generated.outputField("Items", "owner") == "Record")
        #expect(try generated.outputField("Notes", "about") == "Record")
        #expect(try generated.outputField("Notes", "items") == "[Items]")
    }

    @Test func untypedReferencesCountAsPointingAtEveryType() throws {
        let generated = try RecordQLSchema(try Self.schema())
        // Items points at Lists twice (list, and the untyped owner): S_f names.
        #expect(
            try generated.outputFields("Lists").suffix(6) == [
                "Items_list", "Items_owner", "Notes", "Items_listAggregate", "Items_ownerAggregate", "NotesAggregate",
            ])
        #expect(
            try generated.outputFields("Items").suffix(6) == [
                "Items", "Notes_about", "Notes_items", "ItemsAggregate", "Notes_aboutAggregate", "Notes_itemsAggregate",
            ])
        #expect(try generated.outputFields("Notes").suffix(4) == ["Items", "Notes", "ItemsAggregate", "NotesAggregate"])
        #expect(try generated.outputField("Lists", "Items_owner") == "[Items!]!")
        #expect(generated.names.objectField("Items_list", ofObjectType: "Lists") == .referrers(recordType: "Items", field: "list"))
        #expect(generated.names.objectField("Notes_items", ofObjectType: "Items") == .referrers(recordType: "Notes", field: "items"))
        #expect(generated.names.objectField("Notes", ofObjectType: "Lists") == .referrers(recordType: "Notes", field: "about"))
    }

    @Test func referrersArgumentsFilterTheReferringType() throws {
        let generated = try RecordQLSchema(try Self.schema())
        #expect(
            try generated.arguments("Items", "Notes_items") == [
                "where": "NotesFilter", "predicate": "String", "sort": "[NotesSort!]", "limit": "Int",
            ])
    }

    @Test func cloudKitShareIsLeftOut() throws {
        let schema = try ckdbSchema(
            """
            RECORD TYPE Lists (name STRING, share REFERENCE);
            RECORD TYPE "cloudkit.share" (
                "___recordID"     REFERENCE,
                "cloudkit.title"  STRING
            );
            """
        )
        let generated = try RecordQLSchema(schema)
        #expect(generated.names["cloudkit.share"] == nil)
        #expect(!generated.sdl.contains("cloudkit"))
        #expect(try generated.outputField("Lists", "share") == "Record")
        #expect(try generated.outputFields("Query") == ["Lists", "ListsPage", "ListsAggregate", "asset", "changes"])
        #expect(throws: RecordError.self) { try generated.filterTranslator(for: "cloudkit.share") }
    }
}
