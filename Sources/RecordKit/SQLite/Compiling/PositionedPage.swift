internal import GRDB

/// A record of a page with where it stands in its query's order
/// (``RecordTransaction/positionedPage(_:after:)``), so that pages of one query read from
/// several databases of one schema — the zones of a database — can be merged in that order.
public struct PositionedRecord: Sendable {
    public var record: Record
    /// Its sort-key values, the recordName last, as the page's cursor holds them.
    let position: PageCursor
    /// The direction of each sort key, `true` for ascending.
    let ascending: [Bool]

    /// The cursor of the page that starts after this record.
    public var cursor: String { position.encoded }

    /// Whether this record comes before `other`, a record of the same query, in the query's
    /// order — SQLite's: `NULL` first, then numbers, then text and blobs by their bytes, each key
    /// reversed when descending. `false` for records at the same position.
    public func precedes(_ other: PositionedRecord) -> Bool {
        for (index, (mine, theirs)) in zip(position.keys, other.position.keys).enumerated() {
            let order = SQLiteOrder.compare(mine, theirs)
            guard order == 0 else { return ascending.indices.contains(index) && !ascending[index] ? order > 0 : order < 0 }
        }
        return false
    }
}

/// A page of records with their positions (``PositionedRecord``), and whether another page follows.
public struct PositionedPage: Sendable {
    public var records: [PositionedRecord]
    public var hasMore: Bool
}

/// How SQLite orders values of the `BINARY` collation, the engine's.
enum SQLiteOrder {
    /// Negative when `left` sorts before `right`, positive after, 0 when they are equal:
    /// `NULL` first, integers and reals by value, text by its UTF-8 bytes, blobs by their bytes.
    static func compare(_ left: DatabaseValue, _ right: DatabaseValue) -> Int {
        switch (left.storage, right.storage) {
        case (.null, .null): return 0
        case (.int64(let a), .int64(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.int64(let a), .double(let b)): return compare(Double(a), b)
        case (.double(let a), .int64(let b)): return compare(a, Double(b))
        case (.double(let a), .double(let b)): return compare(a, b)
        case (.string(let a), .string(let b)): return compare(a.utf8, b.utf8)
        case (.blob(let a), .blob(let b)): return compare(a, b)
        default: return rank(left) - rank(right)
        }
    }

    /// The class of a value in SQLite's order: NULL, number, text, blob.
    private static func rank(_ value: DatabaseValue) -> Int {
        switch value.storage {
        case .null: 0
        case .int64, .double: 1
        case .string: 2
        case .blob: 3
        }
    }

    private static func compare(_ a: Double, _ b: Double) -> Int { a < b ? -1 : a > b ? 1 : 0 }

    private static func compare(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count - b.count
    }
}
