import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// recordNames the engine makes for records saved without one, and the random UUIDs behind them.
@Suite struct GeneratedNameTests {
    @Test func generatedNamesAreDistinctVersion4UUIDs() throws {
        let names = (0..<2_000).map { _ in Record.generatedName() }
        #expect(Set(names).count == names.count)
        for name in names.prefix(100) {
            let uuid = try #require(UUID(uuidString: name)).uuid
            #expect(uuid.6 >> 4 == 4, "version nibble of \(name)")
            #expect(uuid.8 >> 6 == 0b10, "variant bits of \(name)")
        }
    }

    @Test func lowercasedRandomUUIDsAreDistinctVersion4UUIDsInLowercase() throws {
        let texts = (0..<2_000).map { _ in RandomUUID.lowercased() }
        #expect(Set(texts).count == texts.count)
        for text in texts.prefix(100) {
            #expect(text == text.lowercased() && text.count == 36)
            let uuid = try #require(UUID(uuidString: text)).uuid
            #expect(uuid.6 >> 4 == 4 && uuid.8 >> 6 == 0b10, "version and variant of \(text)")
        }
    }

    @Test func aRecordWithoutANameIsSavedUnderAGeneratedOne() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let saved = try db.save(Record("Lists", fields: ["name": .string("Groceries")]))
        #expect(UUID(uuidString: saved.recordName) != nil)
        #expect(try db.fetch(recordName: saved.recordName)?.fields["name"] == .string("Groceries"))
    }
}
