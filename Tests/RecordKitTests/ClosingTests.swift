import Foundation
import Testing

@testable import RecordKit

@Suite struct ClosingTests {
    @Test func aDatabaseNoLongerReferencedIsClosedAndItsFileIsComplete() throws {
        let file = TemporaryDatabase()
        do {
            let db = try file.open()
            try db.addField(FieldDefinition("number", .int64), to: "Items")
        }
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"), "closing checkpoints the WAL into the file")
    }
}
