import ArgumentParser
import Foundation
import RecordKit
import RecordQL

/// `schema add-field TYPE FIELD FIELDTYPE [QUERYABLE] [SORTABLE] [SEARCHABLE]`
struct SchemaAddFieldCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-field",
        abstract: "Add a field to a record type; existing records read it as unset.",
        discussion: """
            FIELDTYPE is \(FieldType.scalarTypeNames) \
            or LIST<T>. REFERENCE(Type) declares the record type a reference points at \
            (LIST<REFERENCE(Type)> for a list of them).
            Example:
              schema add-field Items number INT64 QUERYABLE SORTABLE
              schema add-field Items shop 'REFERENCE(Stores)'
            """
    )

    @Argument(help: "The record type.")
    var type: String

    @Argument(help: "The new field's name.")
    var field: String

    @Argument(help: ArgumentHelp("The field's type.", valueName: "field-type"))
    var fieldType: String

    @Argument(help: ArgumentHelp("Index flags: QUERYABLE, SORTABLE, SEARCHABLE.", valueName: "flag"))
    var flags: [String] = []

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        let parsed = try Self.fieldType(fieldType)
        let indexFlags = try Self.indexFlags(flags)
        try await session.backend.applySchemaChanges([
            .addField(recordType: type, FieldDefinition(field, parsed.type, flags: indexFlags, referencing: parsed.referencedType))
        ])
        let spelled = parsed.referencedType.map { parsed.type.description.replacingOccurrences(of: "REFERENCE", with: "REFERENCE(\($0))") }
        session.show(
            .message(
                "added field \(type).\(field) \(spelled ?? parsed.type.description)\(indexFlags.isEmpty ? "" : " \(indexFlags)")",
                ["recordType": .string(type), "field": .string(field)]
            ))
        return .proceed
    }

    /// Parses `INT64`, `LIST<STRING>`, `REFERENCE(Lists)`, `LIST<REFERENCE(Lists)>`.
    static func fieldType(_ text: String) throws(RecordError) -> (type: FieldType, referencedType: String?) {
        var spelled = text
        var target: String?
        if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            target = String(text[text.index(after: open)..<close]).trimmingWhitespace
            spelled = String(text[..<open]) + String(text[text.index(after: close)...])
        }
        guard let type = FieldType(parsing: spelled) else {
            throw RecordError(
                .invalidArguments,
                "'\(text)' is not a field type; use \(FieldType.scalarTypeNames) or LIST<T>"
            )
        }
        if let target, type != .reference, type != .list(.reference) {
            throw RecordError(.invalidArguments, "only REFERENCE fields name a record type: write REFERENCE(\(target))")
        }
        return (type, target)
    }

    /// Parses index flag words, case-insensitively.
    static func indexFlags(_ words: [String]) throws(RecordError) -> IndexFlags {
        var flags: IndexFlags = []
        for word in words {
            guard let flag = IndexFlags.keywords.first(where: { $0.keyword == word.uppercased() })?.flag else {
                throw RecordError(.invalidArguments, "'\(word)' is not an index flag; use QUERYABLE, SORTABLE or SEARCHABLE")
            }
            flags.insert(flag)
        }
        return flags
    }
}
