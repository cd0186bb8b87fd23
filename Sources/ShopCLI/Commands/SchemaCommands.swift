import ArgumentParser
import Foundation
import RecordKit
import RecordQL

/// `schema` prints the schema; its subcommands export, import and evolve it.
struct SchemaCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the schema in CloudKit's CKDB language.",
        discussion: "Example:\n  schema",
        subcommands: [
            SchemaExportCommand.self, SchemaImportCommand.self, SchemaHistoryCommand.self,
            SchemaAddFieldCommand.self, SchemaAddTypeCommand.self, SchemaGraphQLCommand.self,
        ]
    )

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let schema = try await session.backend.schema()
        session.show(.text(schema.ckdb, json: Self.document(of: schema)))
        return .proceed
    }

    /// The schema as JSON: its record types in order, each field with its type, index flags,
    /// whether it must not be empty and, for a typed reference, the record type it points at;
    /// then the type's UNIQUE rules, each the list of fields whose values are unique together.
    static func document(of schema: Schema) -> JSONValue {
        let types = schema.recordTypes.map { type in
            JSONValue.members([
                "name": .string(type.name),
                "fields": .array(
                    type.userFields.map { field in
                        var members: [JSONValue.Member] = [
                            .init(key: "name", value: .string(field.name)),
                            .init(key: "type", value: .string(field.type.description)),
                            .init(key: "flags", value: .array(IndexFlags.keywords.filter { field.flags.contains($0.flag) }.map { .string($0.keyword) })),
                            .init(key: "notEmpty", value: .bool(field.isRequired)),
                        ]
                        if let target = field.referencedType { members.append(.init(key: "references", value: .string(target))) }
                        return .object(members)
                    }),
                "unique": .array(type.uniqueConstraints.map { .array($0.fields.map(JSONValue.string)) }),
            ])
        }
        return .members(["recordTypes": .array(types)])
    }
}

struct SchemaExportCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the schema as CKDB to a file, or print it.",
        discussion: "Example:\n  schema export shopping.ckdb"
    )

    @Argument(help: "The file to write; printed when left out.")
    var file: String?

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let text = try await session.backend.schema().ckdb
        guard let file, !ExportFile.namesStandardOutput(file) else {
            session.show(.text(text, json: .members(["ckdb": .string(text)])))
            return .proceed
        }
        let output = try ExportFile(path: file)
        try output.write(text)
        try output.commit()
        session.show(.message("exported the schema to \(file)", ["file": .string(file)]))
        return .proceed
    }
}

struct SchemaImportCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge a CKDB file into the schema (additive changes only).",
        discussion: "What the file adds is applied; what it leaves out is kept.\nExample:\n  schema import shopping.ckdb"
    )

    @Argument(help: "The CKDB file to read.")
    var file: String

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let text = try SourceFile.read(file)
        let changes: [String]
        do {
            changes = try await session.backend.importSchema(ckdb: text)
        } catch let error where error.location != nil || [.schemaViolation, .limitExceeded].contains(error.code) {
            // What is wrong with the file names it: `FILE:LINE:COLUMN: ` before a parse error
            // and before a refusal of what it declares (a field whose type differs from the
            // stored one's: the field's line), `FILE: ` before any other rule it breaks.
            var located = error
            if located.location != nil {
                located.location?.file = file
            } else if let recordType = error.recordType, var declaration = CKDBParser.location(ofRecordType: recordType, field: error.field, in: text) {
                declaration.file = file
                located.location = declaration
            } else {
                located.message = "\(file): \(error.message)"
            }
            throw located
        }
        let summary = changes.isEmpty ? "the schema already has everything in \(file)" : changes.joined(separator: "\n")
        session.show(.message(summary, ["file": .string(file), "changes": .array(changes.map(JSONValue.string))]))
        return .proceed
    }
}

struct SchemaHistoryCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show every schema change applied, oldest first.",
        discussion: "Example:\n  schema history"
    )

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let rows = try await session.backend.schemaHistory().map { entry in
            JSONValue.members(["version": .number(entry.version), "appliedAt": .string(Timestamp.format(entry.appliedAt)), "change": .string(entry.change)])
        }
        let columns: [CommandOutput.Column] = [.init("version"), .init("appliedAt", header: "applied at"), .init("change")]
        session.show(.rows(rows, columns: columns, whenEmpty: "no schema changes yet"))
        return .proceed
    }
}

struct SchemaAddTypeCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-type",
        abstract: "Add a record type (then give it fields with schema add-field).",
        discussion: "Example:\n  schema add-type Stores"
    )

    @Argument(help: "The new record type's name.")
    var type: String

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        try await session.backend.applySchemaChanges([.addRecordType(RecordType(type))])
        session.show(.message("added record type \(type)", ["recordType": .string(type)]))
        return .proceed
    }
}

struct SchemaGraphQLCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "Print the GraphQL schema generated from the record types.",
        discussion: "Example:\n  schema graphql"
    )

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let definition = try await session.backend.schemaDefinitionLanguage()
        session.show(.text(definition, json: .members(["graphql": .string(definition)])))
        return .proceed
    }
}
