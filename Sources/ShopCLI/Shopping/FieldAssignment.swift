import RecordKit

/// One `FIELD=VALUE` word of `item add` and `item set`. The value stays text until
/// ``ValueParser`` types it by the schema.
struct FieldAssignment: Equatable {
    var field: String
    /// The text after the first `=`; empty means "remove the value".
    var text: String

    /// Splits `word` at its first `=`.
    init(parsing word: String) throws(RecordError) {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
            throw RecordError(
                .invalidArguments,
                "expected FIELD=VALUE, got '\(word)' (for example number=2; quote values with spaces: note='oat milk')"
            )
        }
        field = String(word[..<equals])
        text = String(word[word.index(after: equals)...])
    }

    /// The schema definition of the field in `recordType`, or `schemaViolation` naming the
    /// `schema add-field` command that would add it, with a type guessed from the value.
    func definition(in schema: Schema, recordType: String) throws(RecordError) -> FieldDefinition {
        let type = try schema.requireRecordType(recordType)
        if let definition = type.field(named: field), definition.systemField == nil {
            return definition
        }
        if ["recordName", "recordType", "createdAt", "modifiedAt", "changeTag"].contains(field) {
            throw RecordError(.invalidArguments, "\(field) is a system field, set by the database; it cannot be assigned", recordType: recordType, field: field)
        }
        let meant = CommandParser.suggestion(for: field, among: type.userFields.map(\.name), maximumDistance: field.count >= 5 ? 2 : 1)
        throw RecordError(
            .schemaViolation,
            "\(recordType) has no field '\(field)'\(meant); add it with: schema add-field \(recordType) \(field) \(guessedType)",
            recordType: recordType,
            field: field
        )
    }

    /// The field type a new field holding ``text`` would most likely want.
    var guessedType: FieldType {
        if Int64(text) != nil { return .int64 }
        if Double(text) != nil { return .double }
        if Timestamp.parse(text) != nil { return .timestamp }
        return .string
    }
}
