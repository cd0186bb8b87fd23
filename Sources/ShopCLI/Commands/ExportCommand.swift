import ArgumentParser
import Foundation
import RecordKit
import RecordQL

/// `export TYPE [FILE] [--format csv|jsonl] [--where PREDICATE]`
struct ExportCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the records of a type as CSV or JSON Lines, to a file or printed.",
        discussion: """
            Every field, recordName first, in recordName order; --where takes an NSPredicate-format \
            condition. Records stream out one at a time, so any number fits in memory. The file \
            imports back to the same records. The format follows the file's extension (.jsonl) \
            unless --format says.
            Example:
              export Items items.csv --where 'number >= 2'
              export Lists --format jsonl
            """
    )

    @Argument(help: "The record type, e.g. Items.")
    var type: String

    @Argument(help: "The file to write; printed when left out.")
    var file: String?

    @Option(help: "csv or jsonl.")
    var format: TransferFormat?

    @Option(name: .customLong("where"), help: ArgumentHelp("Only the records matching a predicate.", valueName: "predicate"))
    var condition: String?

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let recordType = try await TransferCommands.recordType(type, in: session)
        let query = Query(recordType.name, predicate: try condition.map(PredicateParser.parse) ?? .all)
        let exporter = RecordExporter(recordType: recordType)
        let total = session.console.errorsAreTerminal ? try await session.backend.count(matching: query) : nil
        var progress = ProgressBar(console: session.console, label: "export", interruption: session.interruption)
        let chosenFormat = format ?? .guessed(from: file)
        guard let file, !ExportFile.namesStandardOutput(file) else {
            session.console.flush()
            guard session.printsJSON else {
                _ = try await exporter.run(query, format: chosenFormat, from: session.backend, total: total, progress: &progress) { session.console.write($0) }
                return .proceed
            }
            // --json prints one document a command: the records' JSON Lines as one array, written
            // chunk by chunk (each a run of whole lines), so memory stays flat here too.
            var opened = false
            _ = try await exporter.run(query, format: .jsonl, from: session.backend, total: total, progress: &progress) { chunk in
                session.console.write((opened ? "," : "[") + chunk.split(separator: "\n").joined(separator: ","))
                opened = true
            }
            session.console.write((opened ? "" : "[") + "]\n")
            return .proceed
        }
        let output = try ExportFile(path: file)
        let count = try await exporter.run(query, format: chosenFormat, from: session.backend, total: total, progress: &progress) {
            try output.write($0)
        }
        try output.commit()
        session.show(
            .message(
                "exported \(count) \(recordType.name) records to \(file)",
                ["recordType": .string(recordType.name), "count": .number(String(count)), "file": .string(file)]))
        return .proceed
    }
}

/// What `count`, `import` and `export` share.
enum TransferCommands {
    /// The record type `name`, which must store records.
    static func recordType(_ name: String, in session: ShopSession) async throws(RecordError) -> RecordType {
        let type = try await session.backend.schema().requireRecordType(name)
        guard !type.isCloudKitSystemType else {
            throw RecordError(.schemaViolation, "\(name) is one of CloudKit's own record types and stores no records", recordType: name)
        }
        return type
    }
}
