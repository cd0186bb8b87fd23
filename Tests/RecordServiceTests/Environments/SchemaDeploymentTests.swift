import Foundation
import RecordKit
import TestSupport
import Testing

@testable import RecordService

@Suite struct SchemaDeploymentTests {
    @Test func deployingBringsDevelopmentsAdditionsToProduction() async throws {
        let development = try RecordDatabase.inMemory(bootstrap: .shopping)
        let production = try RecordDatabase.inMemory(bootstrap: .shopping)
        try development.addField(FieldDefinition("number", .int64), to: "Items")
        try development.addRecordType(RecordType("Stores", fields: [FieldDefinition("name", .string)]))
        let applied = try await SchemaDeployment.deploy(from: development, to: production)
        #expect(applied.map(\.description) == ["add field Items.number INT64", "add record type Stores"])
        #expect(try production.schema == development.schema)
        #expect(try await SchemaDeployment.deploy(from: development, to: production).isEmpty)
    }

    @Test func everyChangeThatIsNotAdditiveIsRefusedByNameAndNothingIsApplied() async throws {
        let development = try RecordDatabase.inMemory(bootstrap: .shopping)
        let production = try RecordDatabase.inMemory(bootstrap: .shopping)
        try development.addField(FieldDefinition("number", .int64), to: "Items")
        try development.addField(FieldDefinition("quantity", .string), to: "Items")
        try production.addField(FieldDefinition("note", .string), to: "Lists")
        try production.addField(FieldDefinition("quantity", .int64), to: "Items")
        let before = try production.schema
        await #expect {
            try await SchemaDeployment.deploy(from: development, to: production)
        } throws: { error in
            guard let error = error as? RecordError else { return false }
            return error.code == .schemaViolation
                && error.message.hasPrefix("cannot change Items.quantity from INT64 to STRING or remove field Lists.note: schema evolution is additive")
        }
        #expect(try production.schema == before)
    }

    /// A new field declared NOT EMPTY where production has records without a value for it: the
    /// deploy is refused saying the rest may go first; deferring the rule applies the field and
    /// names the rule; once production's records have values, the next deploy applies the rule.
    @Test func aRuleProductionsRecordsBreakCanWaitWhileTheRestIsDeployed() async throws {
        let development = try RecordDatabase.inMemory(bootstrap: .shopping)
        let production = try RecordDatabase.inMemory(bootstrap: .shopping)
        try production.save(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
        try development.addField(FieldDefinition("owner", .string, isRequired: true), to: "Lists")
        try development.addField(FieldDefinition("note", .string), to: "Items")
        await #expect {
            try await SchemaDeployment.deploy(from: development, to: production)
        } throws: { error in
            (error as? RecordError)?.message.hasSuffix("shop schema deploy --defer-rules") == true
        }
        #expect(try production.schema.recordType(named: "Lists")?.field(named: "owner") == nil)
        let deferred = try await SchemaDeployment.deploy(from: development, to: production, deferringRules: true)
        #expect(deferred.applied.map(\.description) == ["add field Items.note STRING", "add field Lists.owner STRING"])
        #expect(deferred.deferred.map(\.change.description) == ["add NOT EMPTY to Lists.owner"])
        #expect(deferred.deferred.first?.reason.contains("'L1'") == true)
        try production.save(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries"), "owner": .string("ann")]))
        let rest = try await SchemaDeployment.deploy(from: development, to: production)
        #expect(rest.map(\.description) == ["add NOT EMPTY to Lists.owner"])
        #expect(try production.schema == development.schema)
    }
}
