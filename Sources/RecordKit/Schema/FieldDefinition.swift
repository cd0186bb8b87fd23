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
    /// For a REFERENCE or LIST<REFERENCE> field, the record type its values point at, when
    /// declared. CloudKit references are untyped; declaring the type (in CKDB, a trailing
    /// `// references Lists` comment, which cktool ignores) makes the engine refuse references
    /// to records of another type and gives the query language typed, navigable references.
    public var referencedType: String?
    /// CKDB `NOT EMPTY` (this engine's extension, see ``RecordType/uniqueConstraints``): every
    /// record has a value, and a STRING, BYTES or LIST value is not empty. The engine refuses a
    /// write that breaks it with `schemaViolation`.
    public var isRequired: Bool

    public init(
        _ name: String, _ type: FieldType, flags: IndexFlags = [], isEncrypted: Bool = false,
        referencing referencedType: String? = nil, isRequired: Bool = false
    ) {
        self.name = name
        self.type = type
        self.flags = flags
        self.isEncrypted = isEncrypted
        self.referencedType = referencedType
        self.isRequired = isRequired
    }

    /// Reads a stored definition; schemas stored before `isRequired` existed read it as `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        type = try container.decode(FieldType.self, forKey: .type)
        flags = try container.decode(IndexFlags.self, forKey: .flags)
        isEncrypted = try container.decode(Bool.self, forKey: .isEncrypted)
        referencedType = try container.decodeIfPresent(String.self, forKey: .referencedType)
        isRequired = try container.decodeIfPresent(Bool.self, forKey: .isRequired) ?? false
    }

    /// Whether values of this field are references (REFERENCE or LIST<REFERENCE>).
    public var holdsReferences: Bool { type == .reference || type == .list(.reference) }

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
