import Foundation
import RecordKit
import TestSupport
import Testing

@testable import RecordService

@Suite struct CloudKitRecordTests {
    @Test func recordsCarrySystemFieldsTaggedFieldsAndNoNulls() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let saved = try db.create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
        let json = CloudKitRecord.encode(saved, type: try db.schema.recordType(named: "Lists"), zone: "_defaultZone", assetURL: { _ in "" })
        let created = Timestamp.milliseconds(saved.createdAt!)
        #expect(
            json.serialized == """
                {"created":{"timestamp":\(created)},"deleted":false,"fields":{"name":{"type":"STRING","value":"Groceries"}},\
                "modified":{"timestamp":\(created)},"recordChangeTag":"\(saved.changeTag!)","recordName":"L1","recordType":"Lists",\
                "zoneID":{"ownerRecordName":"__defaultOwner__","zoneName":"_defaultZone"}}
                """)
        #expect(!json.serialized.contains("null"))
    }

    @Test func desiredKeysKeepOnlyTheFieldsAsked() throws {
        let record = Record("Items", recordName: "I1", fields: ["name": .string("Milk"), "list": .reference(Reference("L1"))])
        let json = try Self.reparsed(
            CloudKitRecord.encode(record, type: nil, form: CloudKitRecordForm(desiredKeys: ["name"]), zone: "Z", assetURL: { _ in "" }))
        #expect(json["fields"]?.serialized == #"{"name":{"type":"STRING","value":"Milk"}}"#)
        let none = try Self.reparsed(CloudKitRecord.encode(record, type: nil, form: CloudKitRecordForm(desiredKeys: []), zone: "Z", assetURL: { _ in "" }))
        #expect(none["fields"]?.serialized == "{}")
        #expect(none["recordType"] == .string("Items"))
    }

    /// The record is written straight to text: it must be JSON, and the same text as the tree it
    /// parses to is written (keys sorted, numbers and escapes as ``JSONValue`` writes them).
    @Test func aRecordWrittenAsTextIsTheJSONOfItsTreeForEveryKindOfValue() throws {
        var record = Record(
            "Things", recordName: "quote\"name",
            fields: [
                "text": .string("tab\t \"quoted\" \\ é 🛒 \u{1}"), "count": .int64(.min), "ratio": .double(-0.1),
                "when": .timestamp(Date(timeIntervalSince1970: 1.5)),
                "blob": .bytes(Data([0, 1, 254, 255])), "parent": .reference(Reference("P1", action: .deleteSelf)),
                "place": .location(Location(latitude: 52.5, longitude: -13.25)), "photo": .asset(Asset(size: 3, sha256: "abc")),
                "tags": .list([.string("a"), .string("b")]), "empty": .list([]),
            ])
        record.changeTag = "t1"
        record.createdAt = Date(timeIntervalSince1970: 2)
        record.modifiedAt = Date(timeIntervalSince1970: 3)
        let written = CloudKitRecord.encode(
            record, type: nil, authors: ("_ann", "__defaultOwner__"), zone: "Zone \"1\"", assetURL: { "https://x/\($0.sha256)" })
        let tree = try Self.reparsed(written)
        #expect(tree.serialized == written.serialized)
        #expect(tree["fields"]?["text"]?["value"] == .string("tab\t \"quoted\" \\ é 🛒 \u{1}"))
        #expect(tree["fields"]?["count"]?["value"] == .integer(.min))
        #expect(tree["fields"]?["photo"]?["value"]?["downloadURL"] == .string("https://x/abc"))
        #expect(tree["created"]?["userRecordName"] == .string("_ann"))
        #expect(tree["zoneID"]?["zoneName"] == .string("Zone \"1\""))
    }

    private static func reparsed(_ json: JSONValue) throws -> JSONValue {
        try JSONValue.parse(Data(json.serialized.utf8))
    }

    @Test func deletionsNameTheirRecordType() {
        #expect(CloudKitRecord.deleted(recordName: "L1", recordType: "Lists").serialized == #"{"deleted":true,"recordName":"L1","recordType":"Lists"}"#)
    }
}
