internal import GRDB

extension RecordTransaction {
    /// One page of the change feed (``ChangePage``), read in this transaction.
    ///
    /// The page reads up to `limit` log entries after the token (of the record types asked),
    /// and names each record they touch once, in the order of its last entry there, with its
    /// state in this snapshot: the record, or a tombstone when it no longer exists (or exists
    /// now as another type, after a delete and a new save). A record changed again after the
    /// page's last entry is named again by a later page, so pages applied in order always end
    /// at the current state. Saved records the transaction's ``AccessPolicy`` may not read are
    /// left out. With no entries left, the next token jumps to the end of the log,
    /// so a client asking for some record types only never falls behind the floor.
    ///
    /// - Throws: ``RecordError`` `invalidArguments` for a limit below 1; `changeTokenExpired`
    ///   (``checkServable(_:)``) for a token the log can no longer serve.
    public func changePage(_ request: ChangeFeedRequest) throws -> ChangePage {
        guard request.limit >= 1 else {
            throw RecordError(.invalidArguments, "a page of changes holds at least 1 entry; the limit asked was \(request.limit)")
        }
        if let token = request.after { try checkServable(token) }
        let after = request.after?.sequence ?? 0
        var sql = "SELECT seq, recordType, recordName, createdBy FROM _changes WHERE seq > ?"
        var arguments: StatementArguments = [after]
        if let recordTypes = request.recordTypes {
            sql += " AND recordType IN (SELECT value FROM json_each(?))"
            arguments += [JSONText.array(recordTypes.sorted())]
        }
        sql += " ORDER BY seq LIMIT ?"
        arguments += [request.limit + 1]
        let rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        let moreComing = rows.count > request.limit
        let window = rows.prefix(request.limit)
        // Each record once, at its last entry in the window, with the type that entry logged.
        var last: [String: (index: Int, recordType: String, createdBy: String?)] = [:]
        for (index, row) in window.enumerated() {
            last[row["recordName"]] = (index, row["recordType"], row["createdBy"])
        }
        var entries: [ChangePage.Entry] = []
        entries.reserveCapacity(last.count)
        for (recordName, logged) in last.sorted(by: { $0.value.index < $1.value.index }) {
            // The grants filter the feed as they filter every read: a record the reader may not
            // read is left out (neither its values nor a tombstone).
            guard let entry = try currentState(of: recordName, loggedAs: logged.recordType, createdBy: logged.createdBy, request: request) else {
                continue
            }
            entries.append(entry)
        }
        let next: Int64 = moreComing ? window.last?["seq"] ?? after : max(window.last?["seq"] ?? after, try lastChangeSequence())
        return ChangePage(entries: entries, next: try changeToken(at: next), moreComing: moreComing)
    }

    /// The token of the end of the change log: past every change made so far.
    public func changeLogEnd() throws -> ChangeToken {
        try changeToken(at: try lastChangeSequence())
    }

    /// The state now of `recordName`, last logged as a `recordType` record (by `createdBy`, when
    /// that entry is its deletion); `nil` when ``access`` may not read it, or could not read it
    /// before it was deleted: its tombstone would tell a name the reader never saw.
    private func currentState(
        of recordName: String, loggedAs recordType: String, createdBy: String?, request: ChangeFeedRequest
    ) throws -> ChangePage.Entry? {
        guard let record = try fetch(recordName: recordName), record.recordType == recordType else {
            if access.appliesGrants {
                if let existing = try locate(recordName), existing.recordType == recordType { return nil }
                if let type = schema.recordType(named: recordType), !access.readScope(of: type).reaches(createdBy: createdBy) { return nil }
            }
            return .deleted(recordName: recordName, recordType: recordType)
        }
        let json = try request.projections[recordType].flatMap { try self.json(recordName: recordName, recordType: recordType, projection: $0) }
        return .saved(record, json: json)
    }
}
