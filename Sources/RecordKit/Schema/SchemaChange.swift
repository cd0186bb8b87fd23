/// One change between two schemas. Only the `add…` changes can be applied
/// (``Schema/applying(_:)``); the others are named in the `schemaViolation` that rejects them.
public enum SchemaChange: Sendable, Hashable, Codable, CustomStringConvertible {
    case addRole(String)
    case addRecordType(RecordType)
    case addField(recordType: String, FieldDefinition)
    case addIndexFlags(recordType: String, field: String, IndexFlags)
    case addGrant(recordType: String, Grant)
    /// Declares the record type an untyped REFERENCE field points at.
    case addReferencedType(recordType: String, field: String, String)
    /// Adds a `UNIQUE (…)` line; refused when stored records already break it.
    case addUniqueConstraint(recordType: String, UniqueConstraint)
    /// Declares a field `NOT EMPTY`; refused when stored records lack a value for it.
    case addRequired(recordType: String, field: String)
    case removeRecordType(String)
    case removeField(recordType: String, field: String)
    case removeIndexFlags(recordType: String, field: String, IndexFlags)
    case changeFieldType(recordType: String, field: String, from: FieldType, to: FieldType)
    case changeEncryption(recordType: String, field: String, encrypted: Bool)
    case changeReferencedType(recordType: String, field: String, from: String, to: String?)
    case removeUniqueConstraint(recordType: String, UniqueConstraint)
    case removeRequired(recordType: String, field: String)

    /// A one-line account, as kept in the schema history and shown in errors.
    public var description: String {
        switch self {
        case .addRole(let role): "add role \(role)"
        case .addRecordType(let type): "add record type \(type.name)"
        case .addField(let type, let field):
            "add field \(type).\(field.name) \(field.isEncrypted ? "ENCRYPTED " : "")\(field.type)"
                + (field.flags.isEmpty ? "" : " \(field.flags)")
                + (field.isRequired ? " NOT EMPTY" : "")
                + (field.referencedType.map { " references \($0)" } ?? "")
        case .addIndexFlags(let type, let field, let flags): "add \(flags) to \(type).\(field)"
        case .addGrant(let type, let grant): "add \(grant) on \(type)"
        case .addReferencedType(let type, let field, let target): "declare \(type).\(field) references \(target)"
        case .changeReferencedType(let type, let field, let from, let to):
            "change \(type).\(field) from referencing \(from) to \(to.map { "referencing \($0)" } ?? "untyped")"
        case .addUniqueConstraint(let type, let constraint): "add \(constraint) to \(type)"
        case .addRequired(let type, let field): "add NOT EMPTY to \(type).\(field)"
        case .removeUniqueConstraint(let type, let constraint): "remove \(constraint) from \(type)"
        case .removeRequired(let type, let field): "remove NOT EMPTY from \(type).\(field)"
        case .removeRecordType(let type): "remove record type \(type)"
        case .removeField(let type, let field): "remove field \(type).\(field)"
        case .removeIndexFlags(let type, let field, let flags): "remove \(flags) from \(type).\(field)"
        case .changeFieldType(let type, let field, let from, let to): "change \(type).\(field) from \(from) to \(to)"
        case .changeEncryption(let type, let field, let encrypted):
            "\(encrypted ? "encrypt" : "decrypt") \(type).\(field)"
        }
    }

    /// Whether the change only adds (a record type, field, index flag, grant, role or rule):
    /// the changes schema evolution applies.
    public var isAdditive: Bool {
        switch self {
        case .addRole, .addRecordType, .addField, .addIndexFlags, .addGrant, .addReferencedType, .addUniqueConstraint, .addRequired: true
        case .removeRecordType, .removeField, .removeIndexFlags, .changeFieldType, .changeEncryption, .changeReferencedType,
            .removeUniqueConstraint, .removeRequired:
            false
        }
    }
}
