/// The sizes the engine accepts; past them a request fails with `limitExceeded`, naming the
/// limit, and changes nothing. They keep one record, one batch or one query from exhausting
/// memory, and follow CloudKit's where CloudKit has one (1 MB of field data per value).
public enum Limits {
    /// The largest STRING or BYTES value, and the largest LIST value as stored: 1 MiB. Larger
    /// data belongs in an ASSET.
    public static let maximumValueBytes = 1 << 20
    /// The largest ASSET content: 64 MiB.
    public static let maximumAssetBytes = 64 << 20
    /// The most operations in one batch (``RecordDatabase/modify(_:transactionID:)``).
    public static let maximumBatchOperations = 200_000
    /// The most values in one `IN {…}` list of a predicate.
    public static let maximumInListCount = 1000
    /// The most fields one record type declares: well inside the 2,000 columns SQLite gives a
    /// table (each field is a column, a reference one more for its action, beside the system
    /// fields').
    public static let maximumFieldsPerType = 1000
}
