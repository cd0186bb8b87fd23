import Foundation
import RecordKit
import Testing

@testable import RecordService

@Suite("A private database follows its environment's schema")
struct EnvironmentSchemasTests {
    static let development = DatabaseAddress(environment: .development, scope: .public)
    static let alice = DatabaseRegistryTests.privateDatabase(of: "alice")

    static func fieldNames(of type: String, in database: RecordDatabase) async throws -> Set<String> {
        Set(try await database.schema().schema.recordType(named: type)?.userFields.map(\.name) ?? [])
    }

    /// Two reads a request are saved: a check holds until this process commits a schema change
    /// to either database, which the next request then shares at once, both ways. (Held for an
    /// hour here, so that a slow machine cannot end it by time.)
    @Test func aCheckHoldsUntilThisProcessChangesEitherSchema() async throws {
        try await DatabaseRegistryTests.withRegistry(schemaChangesOfOtherProcessesSeenWithin: .seconds(3600)) { registry in
            _ = try await registry.database(Self.alice)
            _ = try await registry.database(Self.alice)
            #expect(registry.schemaReads == 1)

            let environment = try await registry.database(Self.development).database
            _ = try await environment.apply([.addField(recordType: "Items", FieldDefinition("number", .int64))])
            let own = try await registry.database(Self.alice).database
            #expect(registry.schemaReads == 2)
            #expect(try await Self.fieldNames(of: "Items", in: own).contains("number"))

            _ = try await own.apply([.addField(recordType: "Lists", FieldDefinition("color", .string))])
            _ = try await registry.database(Self.alice)
            #expect(try await Self.fieldNames(of: "Lists", in: environment).contains("color"))
        }
    }

    /// Another process's change (here another connection to the environment's file, whose
    /// commits this registry's instance does not count) arrives once the check's time is over.
    @Test func aChangeByAnotherProcessArrivesWithinTheBound() async throws {
        try await DatabaseRegistryTests.withRegistry(schemaChangesOfOtherProcessesSeenWithin: .milliseconds(200)) { registry in
            _ = try await registry.database(Self.alice)
            let other = try RecordDatabase(path: registry.folder.publicDatabasePath(.development))
            try other.applySchemaChanges([.addField(recordType: "Items", FieldDefinition("number", .int64))])
            let start = ContinuousClock.now
            var arrived = false
            while !arrived, ContinuousClock.now - start < .seconds(10) {
                arrived = try await Self.fieldNames(of: "Items", in: registry.database(Self.alice).database).contains("number")
                if !arrived { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(arrived)
        }
    }
}
