import ArgumentParser
import Foundation
import RecordKit

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
        session.console.write(try session.database.schema.ckdb)
        return .proceed
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
        let text = try session.database.schema.ckdb
        guard let file else {
            session.console.write(text)
            return .proceed
        }
        do {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw RecordError(.invalidArguments, "cannot write \(file): \(error.localizedDescription)")
        }
        session.console.print("exported the schema to \(file)")
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
        let changes = try session.database.importSchema(ckdb: try SourceFile.read(file))
        session.console.print(changes.isEmpty ? "the schema already has everything in \(file)" : changes.map(\.description).joined(separator: "\n"))
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
        let rows = try session.database.schemaHistory().map { [String($0.version), Timestamp.format($0.appliedAt), $0.change] }
        session.console.print(TextTable(header: ["version", "applied at", "change"], rows: rows, rightAligned: [0]).rendered)
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
        try session.database.addRecordType(RecordType(type))
        session.console.print("added record type \(type)")
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
        session.console.print(try await session.queryEngine.schemaDefinitionLanguage())
        return .proceed
    }
}
