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

    @Test func whatIsNotAdditiveIsRefusedByNameAndNothingIsApplied() async throws {
        let development = try RecordDatabase.inMemory(bootstrap: .shopping)
        let production = try RecordDatabase.inMemory(bootstrap: .shopping)
        try development.addField(FieldDefinition("number", .int64), to: "Items")
        try production.addField(FieldDefinition("note", .string), to: "Lists")
        let before = try production.schema
        await #expect {
            try await SchemaDeployment.deploy(from: development, to: production)
        } throws: { error in
            guard let error = error as? RecordError else { return false }
            return error.code == .schemaViolation && error.message.contains("Lists.note")
        }
        #expect(try production.schema == before)
    }
}
