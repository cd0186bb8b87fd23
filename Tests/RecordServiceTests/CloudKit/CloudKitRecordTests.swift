import Foundation
import RecordKit
import TestSupport
import Testing

@testable import RecordService

@Suite struct CloudKitRecordTests {
    @Test func recordsCarrySystemFieldsTaggedFieldsAndNoNulls() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let saved = try db.create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
        let json = CloudKitRecord.encode(saved, type: try db.schema.recordType(named: "Lists"), assetURL: { _ in "" })
        let created = Timestamp.milliseconds(saved.createdAt!)
        #expect(
            json.serialized == """
                {"created":{"timestamp":\(created)},"deleted":false,"fields":{"name":{"type":"STRING","value":"Groceries"}},\
                "modified":{"timestamp":\(created)},"recordChangeTag":"\(saved.changeTag!)","recordName":"L1","recordType":"Lists"}
                """)
        #expect(!json.serialized.contains("null"))
    }

    @Test func desiredKeysKeepOnlyTheFieldsAsked() throws {
        let record = Record("Items", recordName: "I1", fields: ["name": .string("Milk"), "list": .reference(Reference("L1"))])
        let json = CloudKitRecord.encode(record, type: nil, desiredKeys: ["name"], assetURL: { _ in "" })
        #expect(json["fields"]?.serialized == #"{"name":{"type":"STRING","value":"Milk"}}"#)
        let none = CloudKitRecord.encode(record, type: nil, desiredKeys: [], assetURL: { _ in "" })
        #expect(none["fields"]?.serialized == "{}")
        #expect(none["recordType"] == .string("Items"))
    }

    @Test func deletionsNameTheirRecordType() {
        #expect(CloudKitRecord.deleted(recordName: "L1", recordType: "Lists").serialized == #"{"deleted":true,"recordName":"L1","recordType":"Lists"}"#)
    }
}
