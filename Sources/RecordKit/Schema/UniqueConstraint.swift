/// A record type's `UNIQUE (list, name)` line: no two records of the type may hold equal values
/// in all of `fields`. A record missing any of them is not compared (absent values are never
/// equal), as in SQL.
///
/// CloudKit has no such rule; it is this engine's extension of the CKDB language, written as its
/// own line in the record type so that cktool's exports, which never contain it, parse as before.
/// The engine keeps it with a SQLite unique index and refuses a write that breaks it with
/// `schemaViolation` naming the record that already holds the values.
public struct UniqueConstraint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The fields whose values together are unique, in declaration order.
    public var fields: [String]

    public init(_ fields: [String]) {
        self.fields = fields
    }

    /// `UNIQUE (list, name)`.
    public var description: String { "UNIQUE (\(fields.joined(separator: ", ")))" }
}
