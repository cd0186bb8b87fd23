import Foundation
import Logging
import RecordKit
import TestSupport
import Testing

@testable import RecordService

@Suite("Private databases: opened on demand, closed when idle or past the bound")
struct DatabaseRegistryTests {
    /// A registry over a new temporary data folder, removed after `body`.
    static func withRegistry(
        maximumOpenPrivate: Int = 64, idleTime: Duration = .seconds(300), schemaChangesOfOtherProcessesSeenWithin: Duration = .seconds(1),
        _ body: (DatabaseRegistry) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shop-registry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try DataFolder(path: folder.path, newDatabaseSchema: try Schema.shopping)
        try await body(
            DatabaseRegistry(
                folder: data, maximumOpenPrivate: maximumOpenPrivate, idleTime: idleTime,
                schemaChangesOfOtherProcessesSeenWithin: schemaChangesOfOtherProcessesSeenWithin))
    }

    static func privateDatabase(of user: String) -> DatabaseAddress {
        DatabaseAddress(environment: .development, scope: .private(user: user))
    }

    static func openAddresses(_ registry: DatabaseRegistry) async -> Set<DatabaseAddress> {
        Set(await registry.openDatabases().map(\.address))
    }

    @Test func aPrivateDatabaseIdlePastTheIdleTimeIsClosedWithoutAnotherBeingOpened() async throws {
        try await Self.withRegistry(idleTime: .seconds(300)) { registry in
            // Alice's database is last used between these two instants, however slow the machine.
            let beforeUse = ContinuousClock.now
            _ = try await registry.database(Self.privateDatabase(of: "alice"))
            let afterUse = ContinuousClock.now
            _ = try await registry.database(DatabaseAddress(environment: .development, scope: .public))
            registry.closeIdle(now: beforeUse + .seconds(299))
            #expect(registry.openPrivateCount == 1)
            registry.closeIdle(now: afterUse + .seconds(301))
            #expect(registry.openPrivateCount == 0)
            #expect(await Self.openAddresses(registry) == [DatabaseAddress(environment: .development, scope: .public)])
        }
    }

    @Test func beyondTheBoundTheLeastRecentlyUsedPrivateDatabaseIsClosed() async throws {
        try await Self.withRegistry(maximumOpenPrivate: 2) { registry in
            for user in ["alice", "bob", "carol"] {
                _ = try await registry.database(Self.privateDatabase(of: user))
            }
            // The environment's public database, whose schema the private ones follow, stays open.
            let development = DatabaseAddress(environment: .development, scope: .public)
            #expect(await Self.openAddresses(registry) == [development, Self.privateDatabase(of: "bob"), Self.privateDatabase(of: "carol")])
        }
    }

    @Test func aClosedPrivateDatabaseReopensWithItsData() async throws {
        try await Self.withRegistry { registry in
            let alice = Self.privateDatabase(of: "alice")
            _ = try await registry.database(alice).database.modify([.save(Record("Lists", recordName: "L1", fields: ["name": .string("Secret")]))])
            registry.closeIdle(now: .now + .seconds(301))
            #expect(registry.openPrivateCount == 0)
            let reopened = try await registry.database(alice).database
            #expect(try reopened.records(matching: Query("Lists")).map(\.recordName) == ["L1"])
        }
    }
}

@Suite("Housekeeping reaches every open database, private ones included")
struct HousekeepingTests {
    @Test func expiredTransactionsAreForgottenInAnOpenPrivateDatabase() async throws {
        let fixture = try ServiceFixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let address = DatabaseAddress(environment: .development, scope: .private(user: "alice"))
        let database = try await fixture.state.databases.database(address).database
        _ = try database.modify([.save(Record("Lists", fields: ["name": .string("Groceries")]))], transactionID: "retry-1")
        #expect(try database.transactions().map(\.id) == ["retry-1"])
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let retention = RetentionChore.transactions(state: fixture.state, logger: logger)
        await retention.removeKept(before: Date().addingTimeInterval(-60))
        #expect(try database.transactions().map(\.id) == ["retry-1"])
        await retention.removeKept(before: Date().addingTimeInterval(60))
        #expect(try database.transactions().isEmpty)
    }
}
