/// The index flags of a field (CKDB `QUERYABLE`, `SORTABLE`, `SEARCHABLE`).
public struct IndexFlags: OptionSet, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Usable in predicates with an index.
    public static let queryable = IndexFlags(rawValue: 1 << 0)
    /// Usable as a sort key with an index.
    public static let sortable = IndexFlags(rawValue: 1 << 1)
    /// Tokenized for full-text search (`self CONTAINS 'word'`, SQLite FTS5).
    public static let searchable = IndexFlags(rawValue: 1 << 2)

    /// Flags in CKDB's canonical order, with their keywords.
    public static let keywords: [(flag: IndexFlags, keyword: String)] = [
        (.queryable, "QUERYABLE"), (.searchable, "SEARCHABLE"), (.sortable, "SORTABLE"),
    ]

    /// The keywords of the flags set, in canonical order, space-separated.
    public var description: String {
        Self.keywords.filter { contains($0.flag) }.map(\.keyword).joined(separator: " ")
    }
}
