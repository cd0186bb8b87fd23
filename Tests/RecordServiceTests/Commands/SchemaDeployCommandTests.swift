import Foundation
import RecordKit
import Testing

@testable import RecordService

@Suite("shop schema deploy's data folder")
struct SchemaDeployCommandTests {
    @Test func aDataFolderThatDoesNotExistIsRefusedAndNotCreated() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("shop-missing-\(UUID().uuidString)").path
        let command = try SchemaCommand.Deploy.parse(["--data", missing])
        await #expect {
            try await command.run()
        } throws: { error in
            (error as? RecordError)?.message.contains("there is no data folder at \(missing)") == true
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func aFolderWithoutADevelopmentDatabaseIsRefusedAndLeftEmpty() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = try SchemaCommand.Deploy.parse(["--data", folder])
        await #expect {
            try await command.run()
        } throws: { error in
            (error as? RecordError)?.message.contains("there is no development database at \(folder)/shop.sqlite, so nothing to deploy") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
