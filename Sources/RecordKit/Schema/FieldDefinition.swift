/// One field of a record type, as declared in a schema.
///
/// Names starting with `___` are CloudKit's system fields (``SystemField``), listed in a schema
/// only to give them index flags; every other name is a user field (``Identifier``).
public struct FieldDefinition: Sendable, Hashable, Codable {
    public var name: String
    public var type: FieldType
    public var flags: IndexFlags
    /// CKDB `ENCRYPTED`: stored like any other value here, never indexed.
    public var isEncrypted: Bool

    public init(_ name: String, _ type: FieldType, flags: IndexFlags = [], isEncrypted: Bool = false) {
        self.name = name
        self.type = type
        self.flags = flags
        self.isEncrypted = isEncrypted
    }

    /// The system field this declaration gives flags to, or `nil` for a user field.
    public var systemField: SystemField? { SystemField(rawValue: name) }
}

/// CloudKit's six system fields as CKDB names them.
public enum SystemField: String, Sendable, CaseIterable, Codable {
    case recordID = "___recordID"
    case createTime = "___createTime"
    case createdBy = "___createdBy"
    case modTime = "___modTime"
    case modifiedBy = "___modifiedBy"
    case etag = "___etag"

    /// The type CloudKit gives the field.
    public var type: FieldType {
        switch self {
        case .recordID, .createdBy, .modifiedBy: .reference
        case .createTime, .modTime: .timestamp
        case .etag: .string
        }
    }

    /// The storage column behind the field, when this engine keeps one.
    public var column: String? {
        switch self {
        case .recordID: "_recordName"
        case .createTime: "_createdAt"
        case .modTime: "_modifiedAt"
        case .etag: "_changeTag"
        case .createdBy, .modifiedBy: nil
        }
    }
}
