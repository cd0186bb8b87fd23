import RecordKit

/// CloudKit's just-in-time schema: in `development`, a write naming a record type or field the
/// schema lacks adds it, typed from the value written (additive, as every schema change here);
/// `production` refuses such a write, naming what is missing, until `shop schema deploy`
/// brings development's schema over.
///
/// The additions are applied with the writes, in their transaction (each operation's
/// ``share(of:for:typeName:)`` before it runs), so a request or an operation that fails adds
/// nothing.
enum CloudKitSchemaGrowth {
    /// The additions `operations` need on `schema`. `storedTypes` gives the type of stored
    /// records that operations without a `recordType` name; operations on records not found
    /// need nothing (they fail on their own).
    static func additions(
        for operations: [CloudKitModifyRequest.Operation], storedTypes: [String: String], schema: Schema
    ) throws(CloudKitError) -> [SchemaChange] {
        var newTypes: [String: RecordType] = [:]
        var typeOrder: [String] = []
        var newFields: [(recordType: String, field: FieldDefinition)] = []
        for operation in operations where !operation.type.isDeletion {
            guard let typeName = operation.recordType ?? operation.recordName.flatMap({ storedTypes[$0] }) else { continue }
            let existing = schema.recordType(named: typeName)
            if existing == nil && newTypes[typeName] == nil {
                newTypes[typeName] = RecordType(typeName)
                typeOrder.append(typeName)
            }
            for (name, json) in operation.fields.sorted(by: { $0.key < $1.key }) {
                if existing?.field(named: name) != nil || newTypes[typeName]?.field(named: name) != nil
                    || newFields.contains(where: { $0.recordType == typeName && $0.field.name == name })
                {
                    continue
                }
                guard let type = CloudKitFieldValue.inferredType(of: json) else {
                    throw CloudKitError(
                        .badRequest,
                        "\(operation.path): \(typeName).\(name) is a new field whose type cannot be told from its value; tag it, e.g. {\"value\": [], \"type\": \"STRING_LIST\"}",
                        recordName: operation.recordName, recordType: typeName
                    )
                }
                let field = FieldDefinition(name, type)
                if existing == nil {
                    newTypes[typeName]?.fields.append(field)
                } else {
                    newFields.append((typeName, field))
                }
            }
        }
        return typeOrder.compactMap { newTypes[$0].map(SchemaChange.addRecordType) }
            + newFields.map { SchemaChange.addField(recordType: $0.recordType, $0.field) }
    }

    /// What of `additions` the operation on a `typeName` record needs: its record type, with
    /// only the fields the operation names, and the fields it names of an existing type. Empty
    /// for an operation that needs nothing new.
    static func share(of additions: [SchemaChange], for operation: CloudKitModifyRequest.Operation, typeName: String) -> [SchemaChange] {
        let named = Set(operation.fields.keys)
        return additions.compactMap { change in
            switch change {
            case .addRecordType(var type) where type.name == typeName:
                type.fields = type.fields.filter { named.contains($0.name) }
                return .addRecordType(type)
            case .addField(let recordType, let field) where recordType == typeName && named.contains(field.name):
                return change
            default:
                return nil
            }
        }
    }

    /// The refusal of `additions` in `production`, naming the first.
    static func refusal(_ additions: [SchemaChange]) -> CloudKitError? {
        guard let first = additions.first else { return nil }
        let missing: String
        let recordType: String
        switch first {
        case .addRecordType(let type):
            missing = "record type \(type.name)"
            recordType = type.name
        case .addField(let type, let field):
            missing = "field \(type).\(field.name)"
            recordType = type
        default:
            missing = first.description
            recordType = ""
        }
        return CloudKitError(
            .badRequest,
            "production has no \(missing); write it in development first, then deploy the schema with: shop schema deploy",
            recordType: recordType.isEmpty ? nil : recordType
        )
    }
}
