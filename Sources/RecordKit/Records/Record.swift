public import Foundation

/// A record: system fields plus the values of its schema fields.
///
/// A new record has `nil` system timestamps and change tag; the database fills them on save and
/// returns the saved record. A field that was never set, or was added to the schema after the
/// record was saved, is simply absent from ``fields``.
public struct Record: Sendable, Hashable, Codable {
    /// Unique within the database, across record types; client-chosen or a generated UUID.
    public var recordName: String
    public var recordType: String
    public var createdAt: Date?
    public var modifiedAt: Date?
    /// Changes on every save; pass it back as `ifChangeTag` to detect concurrent changes.
    public var changeTag: String?
    public var fields: [String: Value]

    /// A new record of `recordType`; `recordName` defaults to a new UUID.
    public init(_ recordType: String, recordName: String = Record.generatedName(), fields: [String: Value] = [:]) {
        self.recordType = recordType
        self.recordName = recordName
        self.fields = fields
    }

    /// A new random UUID string, the recordName of a record saved without one.
    public static func generatedName() -> String {
        RecordNames.generated()
    }

    /// The value of field `name`, `nil` when absent.
    public subscript(name: String) -> Value? {
        get { fields[name] }
        set { fields[name] = newValue }
    }
}
