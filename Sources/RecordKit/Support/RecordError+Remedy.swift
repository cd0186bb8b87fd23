extension RecordError {
    /// What went wrong, finer than the ``Code`` (which stays CloudKit's): an edge chooses its
    /// answer by it (a service's status and `reason`, a REPL's sentence).
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The schema has no record type of that name.
        case unknownRecordType
        /// The record type has no field of that name.
        case unknownField
        /// A record type of that name exists already.
        case recordTypeExists
        /// The file is not a shop database, or is damaged.
        case notADatabase
        /// The file is another program's SQLite database.
        case foreignDatabase
        /// The file was written by a newer version of the engine.
        case newerStorageFormat
        /// The database's folder does not exist or cannot be written.
        case folderUnavailable
        /// The file or its folder is read-only.
        case readOnly
        /// Another process kept the file locked longer than the engine waits.
        case busy
        /// The disk (or the database's page limit) is full.
        case diskFull
        /// The disk failed to read or write.
        case ioError
        /// No transaction is stored under that ID.
        case unknownTransaction
        /// A change token older than the change log's floor: the changes after it were pruned.
        case changeTokenExpired
        /// The database has no record zone of that name.
        case unknownZone
        /// A page cursor that is not one the same query returned.
        case invalidCursor
    }

    /// What the caller can do about it, with the names it needs; each edge words it its own way
    /// (a REPL command, a CloudKit `reason`, a GraphQL `extensions` entry).
    public enum Remedy: Sendable, Hashable {
        /// Add the field `field` to `recordType`, of `type` when it can be told (a CKDB type name).
        case addField(recordType: String, field: String, type: String?)
        /// Add the record type.
        case addRecordType(String)
        /// Add fields to the existing record type instead of adding it again.
        case addFieldsTo(recordType: String)
        /// Open another database.
        case chooseAnotherDatabase
        /// Create the missing folder, or open another database.
        case createFolderOrChooseAnotherDatabase
        /// Open the database with the newer version that wrote it, or open another one.
        case useNewerVersionOrChooseAnotherDatabase
        /// Look the stored transactions up.
        case listTransactions
        /// Fetch the changes again from the start (without a token) and rebuild the copy.
        case fetchChangesFromStart
        /// Create the zone of that name first.
        case createZone(String)
    }
}
