import Foundation
import RecordKit
import Testing

@testable import RecordService

/// `shop key add KEYID FILE` reads the public key's file up to a limit and names what is wrong
/// with it: a folder, a file with no end (`/dev/zero`, read whole before), one that is not there;
/// no key is registered.
@Suite struct KeyFileCommandTests {
    @Test(arguments: ["/tmp", "/dev/zero", "/nonexistent/public.pem"])
    func aKeyFileThatCannotBeReadIsRefusedAndNoKeyIsAdded(path: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-keys-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(await ServiceCommandLine.run(["key", "add", "k1", path, "--data", folder], newDatabaseSchema: Schema()) == 1)
        let folderOnDisk = try DataFolder(path: folder, newDatabaseSchema: Schema())
        #expect(try ServerKeyStore(folder: folderOnDisk).keyIDs().isEmpty)
    }

    @Test func theLimitIsNamedInUnitsItIsAWholeNumberOf() {
        #expect(FileContents.size(256 << 20) == "256 MiB")
        #expect(FileContents.size(64 << 10) == "64 KiB")
        #expect(FileContents.size(1000) == "1000 bytes")
    }
}
