import Foundation
import RecordKit
import Testing

@testable import RecordService

@Suite("Listing and removing credentials need the data folder to exist")
struct CredentialListingCommandTests {
    @Test(arguments: [["key", "list"], ["key", "remove", "k1"], ["token", "list"], ["token", "revoke", "ops"]])
    func aMissingDataFolderIsRefusedAndNotCreated(arguments: [String]) async {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("shop-missing-\(UUID().uuidString)").path
        #expect(await ServiceCommandLine.run(arguments + ["--data", missing], newDatabaseSchema: Schema()) == 1)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
