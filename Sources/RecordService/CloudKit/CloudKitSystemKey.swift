import RecordKit

/// The system fields a query may filter and sort on, as CloudKit's schema names them.
enum CloudKitSystemKey {
    /// The engine's key and value type for the system field `name` (`___recordID`, whose
    /// values are references, `___createTime`, `___modTime`, and `___createdBy` and `___modifiedBy`,
    /// whose values are user record names as references), or `nil` for other names.
    static func resolve(_ name: String) -> (key: String, type: FieldType)? {
        switch name {
        case "___recordID", "recordName": ("recordName", .reference)
        case "___createTime": ("createdAt", .timestamp)
        case "___modTime": ("modifiedAt", .timestamp)
        case "___createdBy": ("___createdBy", .reference)
        case "___modifiedBy": ("___modifiedBy", .reference)
        default: nil
        }
    }
}
