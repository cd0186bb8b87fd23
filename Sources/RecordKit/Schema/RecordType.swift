/// A record type: its fields, in declaration order, and its grants.
public struct RecordType: Sendable, Hashable, Codable {
    public var name: String
    /// Declared fields, system-field declarations (`"___recordID"`) included, in order.
    public var fields: [FieldDefinition]
    public var grants: [Grant]
    /// `UNIQUE (…)` lines, in order: sets of fields no two records may share values in.
    public var uniqueConstraints: [UniqueConstraint]

    public init(_ name: String, fields: [FieldDefinition] = [], grants: [Grant] = [], uniqueConstraints: [UniqueConstraint] = []) {
        self.name = name
        self.fields = fields
        self.grants = grants
        self.uniqueConstraints = uniqueConstraints
    }

    /// Reads a stored record type; schemas stored before unique constraints existed have none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        fields = try container.decode([FieldDefinition].self, forKey: .fields)
        grants = try container.decode([Grant].self, forKey: .grants)
        uniqueConstraints = try container.decodeIfPresent([UniqueConstraint].self, forKey: .uniqueConstraints) ?? []
    }

    /// Whether this is one of CloudKit's own record types (`cloudkit.share`): kept in the schema
    /// and printed back, but stores no records here.
    public var isCloudKitSystemType: Bool { Identifier.isCloudKitSystemName(name) }

    /// The user fields (system-field declarations left out), in order.
    public var userFields: [FieldDefinition] { fields.filter { $0.systemField == nil } }

    /// The names of the SEARCHABLE user fields, in order (full-text search reads them).
    public var searchableFieldNames: [String] { userFields.filter { $0.flags.contains(.searchable) }.map(\.name) }

    /// The user fields declared `NOT EMPTY`.
    public var requiredFields: [FieldDefinition] { userFields.filter(\.isRequired) }

    /// The field named `name`, system declarations included.
    public func field(named name: String) -> FieldDefinition? {
        fields.first { $0.name == name }
    }

    /// The user field matching `name` ignoring case, used to refuse names SQLite would confuse.
    func userField(matchingCaseInsensitively name: String) -> FieldDefinition? {
        let lowered = name.lowercased()
        return userFields.first { $0.name.lowercased() == lowered }
    }
}
