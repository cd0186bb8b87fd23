public import Foundation
internal import GRDB

/// Record operations inside one open database transaction.
///
/// You get one from ``RecordDatabase/write(_:)`` (or ``RecordDatabase/read(_:)`` for the
/// fetching methods); everything done through it commits together when the closure returns and
/// rolls back entirely when it throws. It is only valid inside that closure.
public final class RecordTransaction {
    let db: Database
    /// The schema the transaction works under: the committed one, until ``extendSchema(to:)``
    /// grows it inside the transaction.
    var snapshot: SchemaSnapshot
    /// Who the work acts for: what it reads is filtered, and what it writes checked, by this
    /// (``RecordTransaction+Access``).
    public let access: AccessPolicy
    /// Record types of recordNames known to exist in this transaction, so reference targets
    /// shared by many records of a batch are looked up once. Cleared by deletes. Keyed by the
    /// exact bytes of the name, as storage compares them (``ExactText``).
    private var knownRecordTypes: [ExactText: String] = [:]
    /// What this transaction saved and deleted, written to `_changes` before it commits.
    var changeLog = ChangeLog()
    /// References written inside ``deferringReferenceChecks(_:)`` whose target was not there
    /// yet; `nil` outside one.
    var pendingTargets: [PendingTarget]?
    /// The SHA-256 of assets held by records this transaction deleted or overwrote: their
    /// content is removed before it commits if no record holds them any more
    /// (``RecordTransaction+AssetLifetime``). One noted by a step undone is still held, so it
    /// is kept.
    var releasedAssets: Set<String> = []
    /// Whether the transaction changed the schema (``apply(_:)``): its commit is counted in
    /// ``RecordDatabase/committedSchemaChanges``.
    var changedSchema = false

    /// The database file, for error messages; `nil` in memory.
    private let databasePath: String?

    init(_ db: Database, snapshot: SchemaSnapshot, databasePath: String?, access: AccessPolicy = .owner) {
        self.db = db
        self.snapshot = snapshot
        self.databasePath = databasePath
        self.access = access
    }

    /// `error`, thrown while working through this transaction, as the ``RecordError`` the
    /// database's own methods would throw: SQLite's failures become the code and advice that
    /// say what to do (disk full, read-only, busy…).
    public func recordError(for error: any Error) -> RecordError {
        RecordError.wrapping(error, path: databasePath)
    }

    /// The schema this transaction sees.
    public var schema: Schema { snapshot.schema }

    /// The version of that schema: it grows with every applied schema change, so caches of
    /// what is derived from the schema (a generated GraphQL schema) can be keyed by it.
    public var schemaVersion: Int { snapshot.version }

    // MARK: Fetching

    /// The record named `recordName`, of any type, or `nil`.
    /// A record the transaction's ``access`` may not read is `nil` as well.
    public func fetch(recordName: String) throws -> Record? {
        guard let location = try locate(recordName), try mayRead(recordName, of: location.recordType) else { return nil }
        let layout = try snapshot.layout(location.recordType)
        let row = try Row.fetchOne(db.cachedStatement(sql: layout.fetchByRowSQL), arguments: [location.rowID])
        return row.map { layout.record(from: $0) }
    }

    /// The records named in `recordNames` that exist, in the order asked.
    public func fetch(recordNames: [String]) throws -> [Record] {
        try recordNames.compactMap { try fetch(recordName: $0) }
    }

    // MARK: Saving

    /// Applies one batch operation.
    public func apply(_ operation: RecordOperation) throws -> OperationResult {
        switch operation {
        case .create(let record): .saved(try save(record, mode: .create))
        case .save(let record, let tag): .saved(try save(record, mode: .save(ifChangeTag: tag)))
        case .update(let type, let name, let fields, let tag):
            .saved(try update(recordType: type, recordName: name, fields: fields, ifChangeTag: tag))
        case .delete(let name): .deleted(try delete(recordName: name))
        case .requireUnchanged(let name, let tag): .unchanged(recordName: try requireUnchanged(name, changeTag: tag))
        }
    }

    /// Checks that the record named `recordName` still has `changeTag`
    /// (``RecordOperation/requireUnchanged(recordName:changeTag:)``); returns its name. A record
    /// the transaction's ``access`` may not read is reported missing, as a fetch would.
    func requireUnchanged(_ recordName: String, changeTag: String) throws -> String {
        guard let existing = try locate(recordName), try mayRead(recordName, of: existing.recordType) else {
            throw RecordError(
                .unknownItem,
                "there is no record named '\(recordName)' any more: it was deleted since it was read; read again and work the change out from what is there now",
                recordName: recordName)
        }
        try checkChangeTag(changeTag, stored: existing.changeTag, type: existing.recordType, name: recordName)
        return recordName
    }

    enum SaveMode {
        case create
        case save(ifChangeTag: String?)
    }

    /// Creates `record`, or replaces the stored record's fields (``RecordOperation/save(_:ifChangeTag:)``).
    func save(_ record: Record, mode: SaveMode) throws -> Record {
        let layout = try snapshot.layout(record.recordType)
        try RecordNames.validate(record.recordName)
        try checkSave(record, mode: mode)
        var encoded = [DatabaseValue](repeating: .null, count: layout.columnCount)
        // (Sized at creation: `reserveCapacity` on a dictionary is not specialized here and
        // instantiates generic metadata on every call.)
        var saved = Record(record.recordType, recordName: record.recordName, fields: [String: Value](minimumCapacity: record.fields.count))
        try checkRequiredFieldsPresent(record.fields, layout: layout, recordName: record.recordName)
        for (name, value) in record.fields {
            let slot = try layout.slot(name)
            try checkNotEmpty(value, of: slot.field, in: record.recordType, recordName: record.recordName)
            let stored = try encode(value, into: &encoded, slot: slot, layout: layout, of: record.recordName)
            saved.fields[name] = ValueEncoding.decode(stored.value, action: stored.action, type: slot.field.type)
        }
        let now = Timestamp.milliseconds(Date())
        let changeTag = ChangeTag.next()
        var isNew = true
        switch mode {
        case .create:
            // The table's UNIQUE recordName catches a record of this type; other types are probed.
            if let existing = try locate(record.recordName, outside: layout) {
                throw Self.nameTaken(record, by: existing.recordType)
            }
            try insert(record, encoded: encoded, layout: layout, now: now, changeTag: changeTag)
            saved.createdAt = Timestamp.date(milliseconds: now)
        case .save(let tag):
            if let existing = try locate(record.recordName) {
                guard existing.recordType == record.recordType else { throw Self.nameTaken(record, by: existing.recordType) }
                try checkChangeTag(tag, stored: existing.changeTag, type: record.recordType, name: record.recordName)
                try noteAssetsHeld(by: layout, where: "\(SQLName.rowID) = ?1", arguments: [existing.rowID])
                let arguments = StatementArguments(
                    values: layout.fieldColumns.map { encoded[$0] } + [now.databaseValue, changeTag.databaseValue, existing.rowID.databaseValue]
                )
                try keepingUniqueness(of: record.recordName, layout: layout, value: { encoded[$0.column] }) {
                    try db.cachedStatement(sql: layout.replaceSQL).execute(arguments: arguments)
                }
                saved.createdAt = Timestamp.date(milliseconds: existing.createdAt)
                isNew = false
            } else {
                if let tag {
                    throw RecordError(
                        .unknownItem,
                        "\(record.recordType) '\(record.recordName)' no longer exists (it was saved with change tag \(tag)); fetch again or create it anew",
                        recordType: record.recordType, recordName: record.recordName
                    )
                }
                try insert(record, encoded: encoded, layout: layout, now: now, changeTag: changeTag)
                saved.createdAt = Timestamp.date(milliseconds: now)
            }
        }
        saved.modifiedAt = Timestamp.date(milliseconds: now)
        saved.changeTag = changeTag
        changeLog.saved(record.recordType, record.recordName, changeTag: changeTag, at: now)
        try recordAuthor(of: record.recordName, isNew: isNew)
        return saved
    }

    /// Inserts a new row for `record`; `serverRecordChanged` when its table already holds the name.
    private func insert(_ record: Record, encoded: [DatabaseValue], layout: TableLayout, now: Int64, changeTag: String) throws {
        var values = [record.recordName.databaseValue, now.databaseValue, now.databaseValue, changeTag.databaseValue]
        values.reserveCapacity(4 + layout.fieldColumns.count)
        for column in layout.fieldColumns { values.append(encoded[column]) }
        do {
            try keepingUniqueness(of: record.recordName, layout: layout, value: { encoded[$0.column] }) {
                try db.cachedStatement(sql: layout.insertSQL).execute(arguments: StatementArguments(values: values))
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            if changeLog.hasPendingSave(of: record.recordName) {
                throw RecordError(
                    .invalidArguments, "the batch creates a record named '\(record.recordName)' twice; give each record its own recordName",
                    recordType: record.recordType, recordName: record.recordName)
            }
            throw RecordError(
                .serverRecordChanged,
                "a \(record.recordType) record named '\(record.recordName)' already exists; update it instead, or choose another recordName",
                recordType: record.recordType, recordName: record.recordName
            )
        }
        knownRecordTypes[ExactText(record.recordName)] = record.recordType
    }

    private static func nameTaken(_ record: Record, by recordType: String) -> RecordError {
        RecordError(
            .invalidArguments,
            "recordName '\(record.recordName)' already names a \(recordType) record; recordNames are unique across record types",
            recordType: record.recordType, recordName: record.recordName
        )
    }

    /// Changes only `fields` of an existing record; a `nil` value removes the field's value.
    ///
    /// One `UPDATE … RETURNING` finds the row by recordName (and change tag), writes it and reads
    /// it back; only when it matches no row is the record looked up, to say why.
    public func update(recordType: String, recordName: String, fields: [String: Value?], ifChangeTag: String? = nil) throws -> Record {
        let layout = try snapshot.layout(recordType)
        try checkWrite(recordName, of: recordType)
        var encoded = [DatabaseValue](repeating: .null, count: layout.columnCount)
        var columns: [Int] = []
        do {
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                let slot = try layout.slot(name)
                try checkNotEmpty(value, of: slot.field, in: recordType, recordName: recordName)
                columns.append(slot.column)
                if let action = slot.actionColumn { columns.append(action) }
                if let value {
                    try encode(value, into: &encoded, slot: slot, layout: layout, of: recordName)
                }
            }
        } catch {
            // A missing record or a stale change tag is the first thing to report.
            try requireUpdatable(recordType: recordType, recordName: recordName, ifChangeTag: ifChangeTag)
            throw error
        }
        if columns.contains(where: { column in layout.assetSlots.contains { $0.column == column } }) {
            try noteAssetsHeld(by: layout, where: "\(SQLName.recordName) = ?1", arguments: [recordName])
        }
        let changeTag = ChangeTag.next()
        let now = Timestamp.milliseconds(Date())
        let assignments = (columns.map { layout.columnNames[$0] } + [SQLName.modifiedAt, SQLName.changeTag]).map { "\($0) = ?" }
        var values = columns.map { encoded[$0] } + [now.databaseValue, changeTag.databaseValue, recordName.databaseValue]
        var condition = "\(SQLName.recordName) = ?"
        if let ifChangeTag {
            condition += " AND \(SQLName.changeTag) = ?"
            values.append(ifChangeTag.databaseValue)
        }
        let sql = "UPDATE \(layout.table) SET \(assignments.joined(separator: ", ")) WHERE \(condition) RETURNING \(layout.selection)"
        let written = try keepingUniqueness(
            of: recordName, layout: layout,
            value: { slot in
                try columns.contains(slot.column) ? encoded[slot.column] : storedValue(of: slot, recordName: recordName, layout: layout)
            }
        ) {
            try Row.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(values: values))
        }
        guard let row = written else {
            try requireUpdatable(recordType: recordType, recordName: recordName, ifChangeTag: ifChangeTag)
            throw RecordError(.internalError, "\(recordType) '\(recordName)' could not be updated", recordType: recordType, recordName: recordName)
        }
        changeLog.saved(recordType, recordName, changeTag: changeTag, at: now)
        try recordAuthor(of: recordName, isNew: false)
        return layout.record(from: row)
    }

    /// Throws `unknownItem` unless a `recordType` record named `recordName` exists, and
    /// `serverRecordChanged` when `ifChangeTag` is given and differs from its change tag.
    private func requireUpdatable(recordType: String, recordName: String, ifChangeTag: String?) throws {
        guard let existing = try locate(recordName), existing.recordType == recordType else {
            throw RecordError(
                .unknownItem,
                "there is no \(recordType) record named '\(recordName)'",
                recordType: recordType, recordName: recordName
            )
        }
        try checkChangeTag(ifChangeTag, stored: existing.changeTag, type: recordType, name: recordName)
    }

    /// Encodes one field value of the record `recordName` into `encoded`, checking reference
    /// targets and storing assets; returns the stored column values.
    @discardableResult
    private func encode(
        _ value: Value, into encoded: inout [DatabaseValue], slot: TableLayout.Slot, layout: TableLayout, of recordName: String
    ) throws -> (value: DatabaseValue, action: DatabaseValue?) {
        var assets: [Asset] = []
        let stored = try ValueEncoding.encode(value, for: slot.field, in: layout.recordType.name, assets: &assets)
        encoded[slot.column] = stored.value
        if let action = slot.actionColumn { encoded[action] = stored.action ?? .null }
        if slot.field.holdsReferences {
            for reference in value.references {
                try checkTarget(of: reference, field: slot.field, in: layout.recordType.name, from: recordName)
            }
        }
        for asset in assets {
            try storeAsset(asset, field: slot.field, in: layout.recordType.name)
        }
        return stored
    }

    /// A DELETE_SELF reference needs an existing target; a field that declares its referenced
    /// type needs the target, when it exists, to be of that type. Inside
    /// ``deferringReferenceChecks(_:)`` a target not there yet is checked when the batch ends.
    func checkTarget(of reference: Reference, field: FieldDefinition, in recordType: String, from referrer: String) throws {
        guard reference.action == .deleteSelf || field.referencedType != nil else { return }
        let targetType = try knownRecordTypes[ExactText(reference.recordName)] ?? locate(reference.recordName)?.recordType
        guard let targetType else {
            if pendingTargets != nil {
                pendingTargets?.append(PendingTarget(reference: reference, field: field, recordType: recordType, referrer: referrer))
                return
            }
            guard reference.action != .deleteSelf else {
                throw RecordError(
                    .referenceViolation,
                    "\(recordType).\(field.name) is a DELETE_SELF reference to '\(reference.recordName)', which does not exist; save that record first or use action NONE",
                    recordType: recordType, field: field.name, recordName: reference.recordName
                )
            }
            return
        }
        knownRecordTypes[ExactText(reference.recordName)] = targetType
        if let expected = field.referencedType, expected != targetType {
            throw RecordError(
                .referenceViolation,
                "\(recordType).\(field.name) references \(expected) records, but '\(reference.recordName)' is a \(targetType) record",
                recordType: recordType, field: field.name, recordName: reference.recordName
            )
        }
    }

    /// Stores the content of `asset`; one without content must name an asset stored already,
    /// of that size, that ``access`` may read (through a record it may read): a record saved
    /// back as it was read keeps its asset, and a checksum alone reaches no one else's file.
    private func storeAsset(_ asset: Asset, field: FieldDefinition, in recordType: String) throws {
        guard let content = asset.content else {
            let size = try Int.fetchOne(db.cachedStatement(sql: "SELECT size FROM _assets WHERE sha256 = ?"), arguments: [asset.sha256])
            guard size == asset.size, try mayReadAsset(sha256: asset.sha256) else {
                throw RecordError(
                    .invalidArguments,
                    "\(recordType).\(field.name): no stored asset you may read has SHA-256 \(asset.sha256) and size \(asset.size); save the file's content (through a server: upload it with assets/upload and send its receipt)",
                    recordType: recordType, field: field.name
                )
            }
            return
        }
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO _assets(sha256, size, content) VALUES (?, ?, ?)")
            .execute(arguments: [asset.sha256, asset.size, content])
    }

    /// The content of the asset with `sha256`, or `nil` (also when no record the transaction's
    /// ``access`` may read holds it).
    public func assetContent(sha256: String) throws -> Data? {
        guard try mayReadAsset(sha256: sha256) else { return nil }
        return try Data.fetchOne(db.cachedStatement(sql: "SELECT content FROM _assets WHERE sha256 = ?"), arguments: [sha256])
    }

    private func checkChangeTag(_ expected: String?, stored: String, type: String, name: String) throws {
        guard let expected, expected != stored else { return }
        throw RecordError(
            .serverRecordChanged,
            "\(type) '\(name)' was changed since change tag \(expected) (it is now \(stored)); fetch it again, reapply your change and retry",
            recordType: type, recordName: name
        )
    }

    // MARK: Locating

    /// Where a stored record is.
    struct Location {
        var recordType: String
        var rowID: Int64
        var changeTag: String
        var createdAt: Int64
    }

    /// Finds the record named `recordName`, in whichever table holds it, with one statement
    /// (one unique-index probe per record type).
    func locate(_ recordName: String) throws -> Location? {
        try locate(recordName, sql: snapshot.locateAnywhereSQL)
    }

    /// Finds the record named `recordName` in any table but `layout`'s.
    func locate(_ recordName: String, outside layout: TableLayout) throws -> Location? {
        guard let sql = snapshot.locateOutsideSQL[layout.recordType.name] else { return nil }
        return try locate(recordName, sql: sql)
    }

    /// Runs a locate statement (rows of layout index, `_rowid`, `_changeTag`, `_createdAt`),
    /// reading its row in place rather than copying it.
    private func locate(_ recordName: String, sql: String?) throws -> Location? {
        guard let sql else { return nil }
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [recordName])
        return try withExtendedLifetime(rows) {
            guard let row = try rows.next() else { return nil }
            let layout = snapshot.storedLayouts[row[0]]
            return Location(recordType: layout.recordType.name, rowID: row[1], changeTag: row[2], createdAt: row[3])
        }
    }

    func forgetKnownRecordNames() {
        knownRecordTypes.removeAll()
    }
}

extension Value {
    /// The references this value holds (itself, or a list's elements).
    var references: [Reference] {
        switch self {
        case .reference(let reference): [reference]
        case .list(let values): values.flatMap(\.references)
        default: []
        }
    }
}

/// A transaction belongs to the closure it was given to and to the thread running it: it must
/// not escape to another task.
@available(*, unavailable)
extension RecordTransaction: Sendable {}
