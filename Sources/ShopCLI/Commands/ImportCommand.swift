import ArgumentParser
import Foundation
import RecordKit
import RecordQL

/// `import TYPE FILE [--format csv|jsonl]`
struct ImportCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Create records of a type from a CSV or JSON Lines file, all or none.",
        discussion: """
            CSV has a header row of field names (recordName optional); JSON Lines one object of \
            fields per line. Values are typed by the schema; the whole file is one transaction, \
            and the first bad row refuses it with FILE:LINE and the reason. The format follows \
            the file's extension (.jsonl) unless --format says.
            Example:
              import Items items.csv
              import Items items.jsonl --format jsonl
            """
    )

    @Argument(help: "The record type, e.g. Items.")
    var type: String

    @Argument(help: "The file to read.")
    var file: String

    @Option(help: "csv or jsonl.")
    var format: TransferFormat?

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let recordType = try await TransferCommands.recordType(type, in: session)
        let data = try SourceFile.contents(file)
        let generated = try RecordQLSchema(try await session.backend.schema())
        guard let names = generated.names[recordType.name] else {
            throw RecordError(.schemaViolation, "\(recordType.name) stores no records", recordType: recordType.name)
        }
        let importFile = ImportFile(
            recordType: recordType, translator: try generated.fieldInputTranslator(for: recordType.name), inputNames: names.fields, path: file,
            bytes: Array(data), format: format ?? .guessed(from: file)
        )
        var progress = ProgressBar(console: session.console, label: "import", interruption: session.interruption)
        let count = try await session.backend.importRecords(importFile, progress: &progress)
        session.show(
            .message("imported \(count) \(recordType.name) records from \(file)", ["recordType": .string(recordType.name), "count": .number(String(count))]))
        return .proceed
    }
}
