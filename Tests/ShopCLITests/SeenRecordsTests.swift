import RecordKit
import Testing

@testable import ShopCLI

/// What `shop --server` remembers of the lists and items it saw, by name: only what a change
/// tag can vouch for, and never a record under a name it no longer has.
@Suite struct SeenRecordsTests {
    private static func list(_ recordName: String, _ name: String, tag: String? = "t1") -> Record {
        var record = Record("Lists", recordName: recordName, fields: ["name": .string(name)])
        record.changeTag = tag
        return record
    }

    private static func item(_ recordName: String, _ name: String, in list: String, tag: String? = "t1") -> Record {
        var record = Record("Items", recordName: recordName, fields: ["name": .string(name), "list": .reference(Reference(list, action: .deleteSelf))])
        record.changeTag = tag
        return record
    }

    /// The list L1 "Weekly" and its item I1 "milk", remembered.
    private static func weeklyWithMilk() -> SeenRecords {
        var seen = SeenRecords()
        seen.remember(list("L1", "Weekly"))
        seen.remember(item("I1", "milk", in: "L1"))
        return seen
    }

    @Test func listsAreFoundByNameAndItemsByTheirListAndName() {
        let seen = Self.weeklyWithMilk()
        #expect(seen.list(named: "Weekly")?.recordName == "L1")
        #expect(seen.item(named: "milk", inList: "L1")?.recordName == "I1")
        #expect(seen.item(named: "milk", inList: "L2") == nil)
    }

    @Test func aRecordSeenAgainIsFoundOnlyUnderItsNewNameAndList() {
        var seen = Self.weeklyWithMilk()
        seen.remember(Self.list("L1", "Monthly", tag: "t2"))
        seen.remember(Self.item("I1", "oat milk", in: "L2", tag: "t2"))
        #expect(seen.list(named: "Weekly") == nil)
        #expect(seen.list(named: "Monthly")?.changeTag == "t2")
        #expect(seen.item(named: "milk", inList: "L1") == nil)
        #expect(seen.item(named: "oat milk", inList: "L2")?.recordName == "I1")
    }

    @Test func anotherRecordUnderARememberedNameReplacesTheOldOne() {
        var seen = Self.weeklyWithMilk()
        seen.remember(Self.list("L9", "Weekly"))
        #expect(seen.list(named: "Weekly")?.recordName == "L9")
        #expect(seen.item(named: "milk", inList: "L1") == nil, "the old list's items went with it")
    }

    @Test func aForgottenListTakesItsItemsAndRecordsWithoutATagAreNotKept() {
        var seen = Self.weeklyWithMilk()
        seen.remember(Self.list("L2", "Untagged", tag: nil))
        seen.forget(recordName: "L1")
        #expect(seen.list(named: "Weekly") == nil)
        #expect(seen.item(named: "milk", inList: "L1") == nil)
        #expect(seen.list(named: "Untagged") == nil)
    }

    @Test func namesAreTheSameOnlyByTheirBytesAsTheServerComparesThem() {
        var seen = SeenRecords()
        seen.remember(Self.list("L1", "Caf\u{E9}"))
        seen.remember(Self.item("I1", "cr\u{E8}me", in: "L1"))
        #expect(seen.list(named: "Caf\u{E9}")?.recordName == "L1")
        #expect(seen.list(named: "Cafe\u{301}") == nil, "the decomposed form is another name to the server")
        #expect(seen.item(named: "cre\u{300}me", inList: "L1") == nil)
    }

    @Test func aListSeenAgainKeepsItsItems() {
        var seen = Self.weeklyWithMilk()
        seen.remember(Self.list("L1", "Weekly", tag: "t2"))
        #expect(seen.item(named: "milk", inList: "L1")?.recordName == "I1")
    }
}
