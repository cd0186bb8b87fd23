public import Foundation

/// One write of a ``RecordStore/modify(_:atSchemaVersion:transaction:response:)`` batch.
public struct RecordWrite: Sendable, Hashable {
    public var operation: RecordOperation
    /// For a save: how to return the saved record as a JSON object, built in the same
    /// transaction (``RecordWriteResult/saved(_:json:)``); `nil` for none.
    public var projection: Projection?
    /// For a delete: the type the record must have; a record of another type is reported as
    /// missing (`unknownItem`), as CloudKit does. `nil` accepts any.
    public var recordType: String?
    /// For a delete: when an earlier write of the batch deleted the record already (its cascade
    /// included), remove nothing and report no names instead of failing with `unknownItem`.
    public var skipsIfAlreadyDeleted: Bool

    public init(_ operation: RecordOperation, projection: Projection? = nil, recordType: String? = nil, skipsIfAlreadyDeleted: Bool = false) {
        self.operation = operation
        self.projection = projection
        self.recordType = recordType
        self.skipsIfAlreadyDeleted = skipsIfAlreadyDeleted
    }
}

/// What one ``RecordWrite`` did.
public enum RecordWriteResult: Sendable, Hashable {
    /// The record as stored, and its JSON when the write asked for a projection.
    case saved(Record, json: String?)
    /// Every recordName removed: the record itself first, then the cascade.
    case deleted([String])
    /// A ``RecordOperation/requireUnchanged(recordName:changeTag:)`` held.
    case unchanged(recordName: String)
}

/// A request stored under a transaction ID, so that running it again (a retry after a dropped
/// connection) returns the stored response instead of applying it twice.
public struct TransactionRequest: Sendable, Hashable {
    /// 1 to 255 bytes, chosen by the client.
    public let id: String
    /// The request as stored: equal requests encode to equal bytes (sorted keys).
    public let request: Data

    /// `request` under `id`.
    ///
    /// - Throws: ``RecordError`` `invalidArguments` when the ID is empty or longer than 255
    ///   bytes, or the request cannot be encoded.
    public init<Request: Encodable>(id: String, request: Request) throws(RecordError) {
        let encoded: Data
        do {
            encoded = try JSONEncoder.sorted.encode(request)
        } catch {
            throw RecordError(.invalidArguments, "the request cannot be stored: \(error)", underlyingError: UncheckedCause(error))
        }
        try self.init(id: id, json: encoded)
    }

    /// The request `json` under `id`: JSON text its caller writes the same way for equal
    /// requests (and differently for any two that differ).
    ///
    /// - Throws: ``RecordError`` `invalidArguments` when the ID is empty or longer than 255 bytes.
    public init(id: String, json: Data) throws(RecordError) {
        guard !id.isEmpty, id.utf8.count <= 255 else {
            throw RecordError(.invalidArguments, "a transaction ID must be 1 to 255 bytes long")
        }
        self.id = id
        self.request = json
    }
}

/// The answer of ``RecordStore/modify(_:atSchemaVersion:transaction:response:)``.
public enum WriteOutcome: Sendable, Hashable {
    /// The batch was applied now: its results, and the response built from them (stored under
    /// the transaction ID, if one was given).
    case applied([RecordWriteResult], response: Data)
    /// The transaction ID was used before for an equal request: nothing was applied; this is
    /// the response stored then.
    case replayed(response: Data)
    /// Nothing ran: the schema is at another version than the batch was planned against.
    case schemaChanged(VersionedSchema)
}

/// The failure of one write of a batch (``RecordStore/modify(_:atSchemaVersion:transaction:response:)``);
/// the whole batch was rolled back.
public struct OperationFailure: Error, Sendable {
    /// The position of the write that failed in the batch.
    public var index: Int
    /// Why it failed.
    public var error: RecordError

    public init(index: Int, error: RecordError) {
        self.index = index
        self.error = error
    }
}
