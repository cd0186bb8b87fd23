/// A database schema: custom roles and record types, as a CKDB file declares them.
///
/// Values are plain data; ``CKDBParser`` reads them from CKDB text and ``CKDBPrinter`` writes
/// them back so that `parse(print(s)) == s`. Evolution is additive: see ``Schema/merging(_:)``.
public struct Schema: Sendable, Hashable, Codable {
    /// `CREATE ROLE name;` lines, in order.
    public var roles: [String]
    /// Record types, always sorted by name (the order CKDB export prints them in).
    public private(set) var recordTypes: [RecordType]

    public init(roles: [String] = [], recordTypes: [RecordType] = []) {
        self.roles = roles
        self.recordTypes = recordTypes.sorted { $0.name < $1.name }
    }

    /// Adds `recordType`, or replaces the type of the same name, keeping the order by name.
    public mutating func upsert(_ recordType: RecordType) {
        if let index = recordTypes.firstIndex(where: { $0.name == recordType.name }) {
            recordTypes[index] = recordType
        } else {
            let index = recordTypes.firstIndex { $0.name > recordType.name } ?? recordTypes.endIndex
            recordTypes.insert(recordType, at: index)
        }
    }

    /// The record type named exactly `name`.
    public func recordType(named name: String) -> RecordType? {
        recordTypes.first { $0.name == name }
    }

    /// The record type named `name`, or `schemaViolation` saying how to add it.
    public func requireRecordType(_ name: String) throws(RecordError) -> RecordType {
        if let type = recordType(named: name) { return type }
        let known = recordTypes.map(\.name).sorted().joined(separator: ", ")
        throw RecordError(
            .schemaViolation,
            "there is no record type '\(name)' (known: \(known.isEmpty ? "none" : known))",
            recordType: name,
            reason: .unknownRecordType, remedy: .addRecordType(name)
        )
    }

    /// The field `field` of record type `type`, or `schemaViolation` saying how to add it.
    public func requireField(_ field: String, of type: String) throws(RecordError) -> FieldDefinition {
        let recordType = try requireRecordType(type)
        if let definition = recordType.field(named: field), definition.systemField == nil { return definition }
        throw RecordError(
            .schemaViolation,
            "\(type) has no field '\(field)'",
            recordType: type,
            field: field,
            reason: .unknownField, remedy: .addField(recordType: type, field: field, type: nil)
        )
    }
}
