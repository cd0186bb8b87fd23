internal import GRDB

extension RecordDatabase {
    /// The current schema.
    public var schema: Schema {
        get throws(RecordError) { try performRead { $0.schema } }
    }

    /// Adds a record type with `fields`.
    public func addRecordType(_ recordType: RecordType) throws(RecordError) {
        try applySchemaChanges([.addRecordType(recordType)])
    }

    /// Adds `field` to `recordType`. Existing records read it as absent; no row is rewritten.
    public func addField(_ field: FieldDefinition, to recordType: String) throws(RecordError) {
        try applySchemaChanges([.addField(recordType: recordType, field)])
    }

    /// Adds index flags to an existing field, creating the indexes they imply.
    public func addIndexFlags(_ flags: IndexFlags, to field: String, of recordType: String) throws(RecordError) {
        try applySchemaChanges([.addIndexFlags(recordType: recordType, field: field, flags)])
    }

    /// Brings the schema to `target`. In `.merge` mode (``importSchema(ckdb:)``) what `target`
    /// adds is applied and what it leaves out is kept; in `.exact` mode leaving something out
    /// means removing it, which is rejected. A change that is not additive fails with
    /// `schemaViolation` naming it, and nothing is applied. Returns the changes applied.
    @discardableResult
    public func updateSchema(to target: Schema, mode: Schema.ComparisonMode = .merge) throws(RecordError) -> [SchemaChange] {
        try performWrite { try $0.updateSchema(to: target, mode: mode) }.changes
    }

    /// Merges the CKDB schema `text` into the current one (`schema import`).
    @discardableResult
    public func importSchema(ckdb text: String) throws(RecordError) -> [SchemaChange] {
        try updateSchema(to: try CKDBParser.parse(text), mode: .merge)
    }

    /// Every applied schema change with its time, oldest first.
    public func schemaHistory() throws(RecordError) -> [SchemaHistoryEntry] {
        try performRead { try SchemaStorage.history($0.db) }
    }

    /// Applies `changes` in one transaction (all or nothing).
    public func applySchemaChanges(_ changes: [SchemaChange]) throws(RecordError) {
        _ = try performWrite { try $0.apply(changes) }
    }
}

extension RecordTransaction {
    /// Applies `changes` (all or nothing) and returns the schema they made.
    func apply(_ changes: [SchemaChange]) throws -> VersionedSchema {
        let updated = try SchemaStorage.apply(changes, to: schema, in: db)
        let version = try SchemaStorage.version(db)
        // SchemaStorage bumps the version exactly when the schema changed.
        if version != schemaVersion { changedSchema = true }
        return VersionedSchema(version: version, schema: updated)
    }

    /// Brings the schema to `target` (``RecordDatabase/updateSchema(to:mode:)``).
    func updateSchema(to target: Schema, mode: Schema.ComparisonMode) throws -> SchemaUpdate {
        let changes = schema.changes(to: target, mode: mode)
        return SchemaUpdate(changes: changes, current: try apply(changes))
    }

    /// Adds to the schema what `target` has and it lacks (what `target` leaves out is kept),
    /// inside this transaction, and works under the grown schema from then on: the schema
    /// changes commit with the transaction's record writes or roll back with them, so a batch
    /// that fails grows nothing (CloudKit's just-in-time schema). Inside ``undoingOnFailure(_:)``,
    /// a step that fails undoes its growth too. Returns the changes applied: none when the
    /// schema has everything already, say because another writer added it first.
    ///
    /// - Throws: ``RecordError`` `schemaViolation` when `target` differs in a way that is not
    ///   additive (a field of another type), naming it; nothing is applied then.
    @discardableResult
    public func extendSchema(to target: Schema) throws -> [SchemaChange] {
        let update = try updateSchema(to: target, mode: .merge)
        guard !update.changes.isEmpty else { return [] }
        // Not the database's cached snapshot: that holds committed schemas only.
        snapshot = SchemaSnapshot(version: update.current.version, schema: update.current.schema)
        return update.changes
    }
}
