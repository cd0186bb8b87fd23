import Foundation
import RecordKit
import RecordQL

/// RecordKit's queries, records and operations as GraphQL documents and variables, and the
/// records of a GraphQL response read back: how ``RemoteBackend`` speaks to the server's
/// `…/graphql` with the engine's own types.
enum GraphQLRecords {
    /// The system fields and every user field of `type`, as a GraphQL selection that reads back
    /// into a ``Record`` (``record(_:of:)``).
    static func selection(of type: RecordType) -> String {
        (["recordName", "recordType", "createdAt", "modifiedAt", "changeTag"] + type.userFields.map(fieldSelection)).joined(separator: " ")
    }

    private static func fieldSelection(_ field: FieldDefinition) -> String {
        switch field.type.elementType ?? field.type {
        case .reference: "\(field.name) { recordName }"
        case .location: "\(field.name) { latitude longitude \(Location.Detail.allCases.map(\.rawValue).joined(separator: " ")) }"
        case .asset: "\(field.name) { size sha256 }"
        default: field.name
        }
    }

    /// One page of `query`'s records: `{ page: TPage(predicate: $predicate, sort: […], limit: N,
    /// after: $after) { records { … } cursor } }`, `size` records after `cursor` (from the first
    /// when `nil`); the predicate (NSPredicate format, printed by RecordKit) and the cursor ride
    /// in variables.
    static func page(of query: Query, type: RecordType, size: Int, after cursor: String?) -> (document: String, variables: JSONValue) {
        var arguments = ["limit: \(size)", "after: $after"]
        var declarations = ["$after: String"]
        var members = [JSONValue.Member(key: "after", value: cursor.map(JSONValue.string) ?? .null)]
        if let equalities = equalities(in: query.predicate) {
            // A look-up by name: its values ride in variables of a `where:` filter, so a name of
            // any length is found as on a file (a predicate's text stops at 10,000 characters).
            let filters = equalities.indices.map { "\(equalities[$0].key): {eq: $value\($0)}" }
            arguments.insert("where: {\(filters.joined(separator: ", "))}", at: 0)
            declarations += equalities.indices.map { index in
                // A reference (and a recordName) is filtered by an ID, text by a String.
                let key = equalities[index].key
                return "$value\(index): " + (key == "recordName" || type.field(named: key)?.type == .reference ? "ID" : "String")
            }
            members += equalities.enumerated().map { JSONValue.Member(key: "value\($0.offset)", value: .string($0.element.value)) }
        } else if query.predicate != .all {
            arguments.insert("predicate: $predicate", at: 0)
            declarations.insert("$predicate: String", at: 0)
            members.append(JSONValue.Member(key: "predicate", value: .string(query.predicate.description)))
        }
        if !query.sort.isEmpty {
            let keys = query.sort.map { "{\($0.key): \($0.ascending ? "ASC" : "DESC")}" }
            arguments.insert("sort: [" + keys.joined(separator: ", ") + "]", at: arguments.count - 2)
        }
        let call = "\(query.recordType)Page(\(arguments.joined(separator: ", ")))"
        return ("query(\(declarations.joined(separator: ", "))) { page: \(call) { records { \(selection(of: type)) } cursor } }", .object(members))
    }

    /// The fields and texts `predicate` requires equal, when that is all it asks (`name ==
    /// 'Milk' AND list == 'L1'`, exactly, by the text's bytes); `nil` for any other predicate.
    static func equalities(in predicate: RecordKit.Predicate) -> [(key: String, value: String)]? {
        switch predicate {
        case .compare(let key, .equal, .string(let text), caseInsensitive: false), .compare(let key, .equal, .value(.string(let text)), caseInsensitive: false):
            return [(key, text)]
        case .and(let parts):
            var all: [(key: String, value: String)] = []
            for part in parts {
                guard let equalities = equalities(in: part) else { return nil }
                all += equalities
            }
            return all.isEmpty ? nil : all
        default:
            return nil
        }
    }

    /// The records under `key` of a response's data, typed by `type`, and the recordNames of
    /// those whose answer may hide a reference (``mayHideReference(_:of:)``).
    static func records(_ data: JSONValue, key: String, of type: RecordType) throws(RecordError) -> (records: [Record], hidingReferences: [String]) {
        guard case .array(let items)? = data[key] else {
            throw RecordError(.internalError, "the server's answer has no list of \(type.name) records")
        }
        var records: [Record] = []
        var hiding: [String] = []
        for item in items {
            let decoded = try record(item, of: type)
            if mayHideReference(item, of: type) { hiding.append(decoded.recordName) }
            records.append(decoded)
        }
        return (records, hiding)
    }

    /// Whether GraphQL's answer for a record of `type` may hide a reference it holds: a REFERENCE
    /// field read as `null` (unset, or naming a record that is gone) or a LIST<REFERENCE> holding
    /// a `null`. GraphQL resolves a reference to the record it names; the recordName a dangling
    /// one still holds is read from `records/lookup` (``RemoteBackend/storedRecords(named:of:)``).
    static func mayHideReference(_ object: JSONValue, of type: RecordType) -> Bool {
        type.userFields.contains { field in
            switch (field.type, object[field.name]) {
            case (.reference, .null?): true
            case (.list(.reference), .array(let elements)?): elements.contains(.null)
            default: false
            }
        }
    }

    /// One record of a response, its values typed by the schema.
    static func record(_ object: JSONValue, of type: RecordType) throws(RecordError) -> Record {
        guard case .string(let recordName)? = object["recordName"] else {
            throw RecordError(.internalError, "a \(type.name) record in the server's answer has no recordName")
        }
        var record = Record(type.name, recordName: recordName)
        if case .string(let text)? = object["createdAt"] { record.createdAt = Timestamp.parse(text) }
        if case .string(let text)? = object["modifiedAt"] { record.modifiedAt = Timestamp.parse(text) }
        if case .string(let tag)? = object["changeTag"] { record.changeTag = tag }
        for field in type.userFields {
            if let json = object[field.name], let value = ServerValueForm.graphQL.value(json, type: field.type) { record.fields[field.name] = value }
        }
        return record
    }

    /// A RecordKit value as GraphQL input: numbers as numbers, TIMESTAMP as ISO-8601 text,
    /// BYTES and an ASSET's content as base64, a REFERENCE as `{recordName, action}`, LOCATION as
    /// `{latitude, longitude, …}`.
    static func input(_ value: Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .int64(let number): .number(number)
        case .double(let number): .number(number)
        case .timestamp(let date): .string(Timestamp.format(date))
        case .bytes(let data): .string(data.base64EncodedString())
        case .reference(let reference):
            .members(["recordName": .string(reference.recordName), "action": .string(reference.action == .deleteSelf ? "DELETE_SELF" : "NONE")])
        case .location(let location): .location(location)
        case .asset(let asset):
            // An ASSET is written by its content (base64), as `TInput` takes it; one known only by
            // its checksum is named as stored, which the server refuses naming the field.
            asset.content.map { .string($0.base64EncodedString()) } ?? .members(["size": .number(asset.size), "sha256": .string(asset.sha256)])
        case .list(let values): .array(values.map(input))
        }
    }

    /// `deleteT(recordName:)`, listing every recordName removed (the cascade too) under `result`;
    /// applied only while every record of `unchanged` has its change tag still.
    static func deleteMutation(recordType: String, recordName: String, unchanged: [Record] = []) -> (document: String, variables: JSONValue) {
        mutation(
            variables: "$recordName: ID!", result: "delete\(recordType)(recordName: $recordName) { deleted }",
            values: ["recordName": .string(recordName)], unchanged: unchanged)
    }

    /// The mutation that applies `operation`, with its variables; the saved record or the
    /// deleted recordNames come back under `result`. With `unchanged` records, it applies only
    /// while each still has the change tag it was read with (`requireUnchanged`).
    static func mutation(
        for operation: RecordOperation, schema: Schema, unchanged: [Record] = []
    ) throws(RecordError) -> (document: String, variables: JSONValue) {
        switch operation {
        case .create(let record):
            let type = try schema.requireRecordType(record.recordType)
            let fields = JSONValue.object(record.fields.sorted { $0.key < $1.key }.map { JSONValue.Member(key: $0.key, value: input($0.value)) })
            return mutation(
                variables: "$recordName: ID, $fields: \(record.recordType)Input!",
                result: "create\(record.recordType)(recordName: $recordName, fields: $fields) { \(selection(of: type)) }",
                values: ["recordName": .string(record.recordName), "fields": fields], unchanged: unchanged)
        case .update(let recordType, let recordName, let fields, let changeTag):
            let type = try schema.requireRecordType(recordType)
            let values = JSONValue.object(fields.sorted { $0.key < $1.key }.map { JSONValue.Member(key: $0.key, value: $0.value.map(input) ?? .null) })
            return mutation(
                variables: "$recordName: ID!, $tag: String, $fields: \(recordType)Input!",
                result: "update\(recordType)(recordName: $recordName, ifChangeTag: $tag, fields: $fields) { \(selection(of: type)) }",
                values: ["recordName": .string(recordName), "tag": changeTag.map(JSONValue.string) ?? .null, "fields": values],
                unchanged: unchanged)
        case .delete:
            throw RecordError(.internalError, "a delete is sent with deleteMutation(recordType:recordName:)")
        case .save:
            throw RecordError(.internalError, "a save of a whole record is not sent to a server by the REPL")
        case .requireUnchanged:
            throw RecordError(.internalError, "a precondition is sent with the write it guards, as mutation(for:schema:unchanged:)")
        }
    }

    /// `mutation(variables) { unchanged: requireUnchanged(records: $unchanged) result: … }`,
    /// the precondition left out when `unchanged` is empty.
    private static func mutation(
        variables: String, result: String, values: KeyValuePairs<String, JSONValue>, unchanged: [Record]
    ) -> (document: String, variables: JSONValue) {
        var members = values.map { JSONValue.Member(key: $0.key, value: $0.value) }
        guard !unchanged.isEmpty else { return ("mutation(\(variables)) { result: \(result) }", .object(members)) }
        let versions = unchanged.map { record in
            JSONValue.members(["recordName": .string(record.recordName), "changeTag": .string(record.changeTag ?? "")])
        }
        members.append(JSONValue.Member(key: "unchanged", value: .array(versions)))
        return (
            "mutation(\(variables), $unchanged: [RecordVersionInput!]!) { unchanged: requireUnchanged(records: $unchanged) result: \(result) }",
            .object(members)
        )
    }
}
