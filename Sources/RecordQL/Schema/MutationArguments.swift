import Foundation
import GraphQL
import RecordKit

/// The ``RecordOperation`` a mutation field's coerced arguments ask for.
struct MutationArguments: Sendable {
    let recordType: RecordType
    let names: GraphQLNameMap.RecordTypeNames

    /// `createT(recordName:, fields:)`: a create of the record (absent values left out).
    func create(_ arguments: Map) throws(RecordError) -> RecordOperation {
        try create(arguments, InputReader(recordType: recordType.name, root: names.createField))
    }

    /// `updateT(recordName:, ifChangeTag:, fields:)`: an update of the given fields.
    func update(_ arguments: Map) throws(RecordError) -> RecordOperation {
        try update(arguments, InputReader(recordType: recordType.name, root: names.updateField))
    }

    /// `deleteT(recordName:)`: the recordName of the record to delete.
    func deletedRecordName(_ arguments: Map) throws(RecordError) -> String {
        try recordName(arguments, InputReader(recordType: recordType.name, root: names.deleteField))
    }

    /// `createManyT(records:)`: a create per element of `records`, in order.
    func creates(_ arguments: Map) throws(RecordError) -> [RecordOperation] {
        var operations: [RecordOperation] = []
        try forEachElement(arguments, GraphQLNames.recordsArgument, root: names.createManyField) { (element, reader) throws(RecordError) in
            operations.append(try create(element, reader))
        }
        return operations
    }

    /// `updateManyT(records:)`: an update per element of `records`, in order.
    func updates(_ arguments: Map) throws(RecordError) -> [RecordOperation] {
        var operations: [RecordOperation] = []
        try forEachElement(arguments, GraphQLNames.recordsArgument, root: names.updateManyField) { (element, reader) throws(RecordError) in
            operations.append(try update(element, reader))
        }
        return operations
    }

    /// `deleteManyT(recordNames:)`: the recordNames of the records to delete, in order.
    func deletedRecordNames(_ arguments: Map) throws(RecordError) -> [String] {
        var recordNames: [String] = []
        try forEachElement(arguments, GraphQLNames.recordNamesArgument, root: names.deleteManyField) { (element, reader) throws(RecordError) in
            recordNames.append(try reader.id(element))
        }
        return recordNames
    }

    private func create(_ arguments: Map, _ reader: InputReader) throws(RecordError) -> RecordOperation {
        let name = try optionalRecordName(arguments, reader) ?? Record.generatedName()
        return .create(Record(recordType.name, recordName: name, fields: try values(arguments).compactMapValues { $0 }))
    }

    private func update(_ arguments: Map, _ reader: InputReader) throws(RecordError) -> RecordOperation {
        let tag = arguments[GraphQLNames.ifChangeTagArgument]
        let changeTag = tag.isNull || tag.isUndefined ? nil : try reader.appending(GraphQLNames.ifChangeTagArgument).string(tag)
        return .update(recordType: recordType.name, recordName: try recordName(arguments, reader), fields: try values(arguments), ifChangeTag: changeTag)
    }

    /// Calls `body` with each element of the list argument `name`, and a reader locating it
    /// (`createManyItems.records[3]`).
    private func forEachElement(_ arguments: Map, _ name: String, root: String, _ body: (Map, InputReader) throws(RecordError) -> Void) throws(RecordError) {
        let reader = InputReader(recordType: recordType.name, root: root).appending(name)
        guard case .array(let elements) = arguments[name] else { throw reader.error("a list is required") }
        for (index, element) in elements.enumerated() {
            try body(element, reader.element(index))
        }
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
