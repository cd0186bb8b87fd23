import Foundation
import GraphQL
import RecordKit

/// The ``RecordOperation`` a mutation field's coerced arguments ask for.
struct MutationArguments: Sendable {
    let recordType: RecordType
    let names: GraphQLNameMap.RecordTypeNames

    /// `createT(recordName:, fields:)`: a create of the record (absent values left out).
    func create(_ arguments: Map) throws(RecordError) -> RecordOperation {
        let reader = InputReader(recordType: recordType.name, root: names.createField)
        let name = try optionalRecordName(arguments, reader) ?? Record.generatedName()
        return .create(Record(recordType.name, recordName: name, fields: try values(arguments).compactMapValues { $0 }))
    }

    /// `updateT(recordName:, ifChangeTag:, fields:)`: an update of the given fields.
    func update(_ arguments: Map) throws(RecordError) -> RecordOperation {
        let reader = InputReader(recordType: recordType.name, root: names.updateField)
        let tag = arguments[GraphQLNames.ifChangeTagArgument]
        let changeTag = tag.isNull || tag.isUndefined ? nil : try reader.appending(GraphQLNames.ifChangeTagArgument).string(tag)
        return .update(recordType: recordType.name, recordName: try recordName(arguments, reader), fields: try values(arguments), ifChangeTag: changeTag)
    }

    /// `deleteT(recordName:)`: the recordName of the record to delete.
    func deletedRecordName(_ arguments: Map) throws(RecordError) -> String {
        try recordName(arguments, InputReader(recordType: recordType.name, root: names.deleteField))
    }

    /// `unknownItem` for a recordName that is not a record of this type.
    func unknown(_ recordName: String) -> RecordError {
        RecordError(.unknownItem, "there is no \(recordType.name) record named '\(recordName)'", recordType: recordType.name, recordName: recordName)
    }

    private func recordName(_ arguments: Map, _ reader: InputReader) throws(RecordError) -> String {
        guard let name = try optionalRecordName(arguments, reader) else { throw reader.error("recordName is required") }
        return name
    }

    private func optionalRecordName(_ arguments: Map, _ reader: InputReader) throws(RecordError) -> String? {
        let value = arguments[GraphQLNames.recordNameArgument]
        return value.isNull || value.isUndefined ? nil : try reader.appending(GraphQLNames.recordNameArgument).id(value)
    }

    private func values(_ arguments: Map) throws(RecordError) -> [String: RecordKit.Value?] {
        let fields = arguments[GraphQLNames.fieldsArgument]
        guard !fields.isNull, !fields.isUndefined else { return [:] }
        return try FieldInputTranslator(recordType: recordType, names: names).values(from: fields)
    }
}
