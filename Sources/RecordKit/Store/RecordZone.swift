public import Foundation

/// A record zone: CloudKit's unit of atomic batches, references and change tokens. Every
/// database has ``defaultName``; ``RecordDatabase/createZone(_:)`` adds more.
public struct RecordZone: Sendable, Hashable {
    /// The zone every database has, which holds the records of every API that names no zone.
    public static let defaultName = "_defaultZone"

    public var name: String
    /// Unique in the database over its whole life: a zone created again under a deleted
    /// zone's name has another id. 0 for the default zone.
    public var id: Int64
    /// When it was created; `nil` for the default zone.
    public var createdAt: Date?

    public init(name: String, id: Int64, createdAt: Date?) {
        self.name = name
        self.id = id
        self.createdAt = createdAt
    }

    /// The default zone.
    public static let defaultZone = RecordZone(name: defaultName, id: 0, createdAt: nil)

    /// Throws `invalidArguments` unless `name` can name a new zone: letters, digits, `_`, `-`
    /// and `.`, starting with a letter or digit, at most 255 characters (names starting with
    /// `_` are CloudKit's).
    public static func validate(_ name: String) throws(RecordError) {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D
                || byte == 0x2E
        }
        guard allowed, let first = name.utf8.first, first != 0x5F, first != 0x2D, first != 0x2E, name.utf8.count <= 255 else {
            throw RecordError(
                .invalidArguments,
                "'\(name.prefix(80))' cannot name a zone: use letters, digits, '_', '-' and '.', starting with a letter or digit, at most 255 characters"
            )
        }
    }

    /// The error for a zone that does not exist.
    static func notFound(_ name: String) -> RecordError {
        RecordError(.unknownItem, "there is no zone named '\(name.prefix(255))'", reason: .unknownZone, remedy: .createZone(String(name.prefix(255))))
    }
}
