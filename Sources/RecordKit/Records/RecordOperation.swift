/// One operation of an atomic batch (``RecordDatabase/modify(_:transactionID:)``).
public enum RecordOperation: Sendable, Hashable, Codable {
    /// Creates the record; fails with `serverRecordChanged` if its recordName exists.
    case create(Record)
    /// Creates the record or replaces the stored one's fields entirely; with `ifChangeTag`,
    /// fails with `serverRecordChanged` unless the stored record still has that tag.
    case save(Record, ifChangeTag: String? = nil)
    /// Changes only the given fields of an existing record (`nil` removes a field's value).
    case update(recordType: String, recordName: String, fields: [String: Value?], ifChangeTag: String? = nil)
    /// Deletes the record and, transitively, every record holding a DELETE_SELF reference to it.
    case delete(recordName: String)
    /// Changes nothing: fails with `serverRecordChanged` unless the stored record still has
    /// `changeTag`, and with `unknownItem` when it is gone. A batch's precondition — it applies
    /// only while the records its writes were worked out from are as they were read
    /// (optimistic concurrency across records, where `ifChangeTag` guards one).
    case requireUnchanged(recordName: String, changeTag: String)

    /// The record the operation writes, deletes or checks.
    public var recordName: String {
        switch self {
        case .create(let record), .save(let record, _): record.recordName
        case .update(_, let recordName, _, _), .delete(let recordName), .requireUnchanged(let recordName, _): recordName
        }
    }
}

/// What one operation did.
public enum OperationResult: Sendable, Hashable, Codable {
    /// The record as stored, with its new system fields.
    case saved(Record)
    /// Every recordName removed: the record itself first, then the cascade.
    case deleted([String])
    /// The record checked by ``RecordOperation/requireUnchanged(recordName:changeTag:)`` has
    /// its change tag still.
    case unchanged(recordName: String)

    /// The saved record, for a save result.
    public var record: Record? {
        if case .saved(let record) = self { return record }
        return nil
    }

    /// The deleted recordNames, for a delete result.
    public var deletedRecordNames: [String] {
        if case .deleted(let names) = self { return names }
        return []
    }
}

/// What a batch did, one result per operation, in order.
public struct BatchResult: Sendable, Hashable, Codable {
    public var results: [OperationResult]
    /// True when the batch was not applied now: a stored result for its transaction ID was returned.
    public var isReplay: Bool

    public init(results: [OperationResult], isReplay: Bool = false) {
        self.results = results
        self.isReplay = isReplay
    }

    private enum CodingKeys: String, CodingKey { case results }

    public init(from decoder: any Decoder) throws {
        results = try decoder.container(keyedBy: CodingKeys.self).decode([OperationResult].self, forKey: .results)
        isReplay = false
    }
}
