import RecordKit

/// A `records/modify` request typed against the schema, ready to apply in one write
/// transaction, with CloudKit's change-tag rules:
///
/// | operation | record missing | stored tag differs |
/// |---|---|---|
/// | `create` | creates | `EXISTS` (the name is taken) |
/// | `update` | `NOT_FOUND` | `CONFLICT`; only the fields given change (`null` removes) |
/// | `forceUpdate` | creates | ignored |
/// | `replace` | `NOT_FOUND` | `CONFLICT`; fields left out are removed |
/// | `forceReplace` | creates | ignored |
/// | `delete` | `NOT_FOUND` | `CONFLICT` when a tag is given |
/// | `forceDelete` | `NOT_FOUND` | ignored |
///
/// Every value is typed before the transaction opens, so the transaction only meets the
/// engine's errors. As CloudKit answers, a failed operation is its error dictionary in its place
/// in `records` (``failure(_:)`` names it), the response 200. Atomic (the default): nothing is
/// applied when an operation fails — a value that cannot be written refuses the batch before
/// the transaction opens (``refusal``), an engine failure rolls it back
/// (``atomicResults(failingWith:)``) — and every other operation is `ATOMIC_ERROR`. Non-atomic:
/// each operation is an undoable step, and the others apply.
struct CloudKitModification: Sendable {
    /// One operation with its values typed.
    struct Planned: Sendable {
        var operation: CloudKitModifyRequest.Operation
        var recordName: String
        /// `nil` for an update or replace of a record that does not exist.
        var recordType: RecordType?
        /// `nil` values remove the field (updates).
        var fields: [String: Value?]
        /// The schema with what this operation adds to it (``CloudKitSchemaGrowth``), which the
        /// operation's step extends the transaction's schema to; `nil` when it adds nothing.
        var schemaGrowth: Schema? = nil
        /// Why the operation's values cannot be written, found typing them: answered in the
        /// operation's place (an atomic request then applies nothing, a non-atomic one the
        /// others).
        var failure: CloudKitError? = nil

        /// The name of the record's type, when the operation gives it or the record exists.
        var typeName: String? { recordType?.name ?? operation.recordType }
    }

    let planned: [Planned]
    let atomic: Bool
    let form: CloudKitRecordForm
    /// The zone the records are in, as each saved record's `zoneID` names it.
    let zone: String
    let assetURL: @Sendable (Asset) -> String

    /// Types `request` against `schema` grown by `additions` (``CloudKitSchemaGrowth``), which
    /// each operation adds its share of when it runs; `storedTypes` gives the type of stored
    /// records that operations without a `recordType` name.
    init(
        _ request: CloudKitModifyRequest, schema current: Schema, additions: [SchemaChange] = [], storedTypes: [String: String], zone: String,
        uploads: CloudKitFieldValue.UploadLookup, assetURL: @escaping @Sendable (Asset) -> String
    ) throws(CloudKitError) {
        let schema: Schema
        do {
            schema = try current.applying(additions)
        } catch {
            throw CloudKitError(error)
        }
        var planned: [Planned] = []
        for operation in request.operations {
            let name = operation.recordName ?? Record.generatedName()
            guard !operation.type.isDeletion else {
                planned.append(Planned(operation: operation, recordName: name, recordType: nil, fields: [:]))
                continue
            }
            guard let typeName = operation.recordType ?? storedTypes[name] else {
                planned.append(Planned(operation: operation, recordName: name, recordType: nil, fields: [:]))
                continue
            }
            guard let type = schema.recordType(named: typeName) else {
                throw CloudKitError(
                    .badRequest, "\(operation.path): there is no record type \(typeName.debugDescription)", recordName: name, recordType: typeName)
            }
            let fields: [String: Value?]
            do {
                fields = try Self.values(of: operation, type: type, zone: zone, numbersAsStrings: request.form.numbersAsStrings, uploads: uploads)
            } catch {
                let reason = error.reason.hasPrefix(operation.path) ? error.reason : "\(operation.path): \(error.reason)"
                let failure = CloudKitError(error.code, reason, recordName: name, recordType: typeName)
                planned.append(Planned(operation: operation, recordName: name, recordType: type, fields: [:], failure: failure))
                continue
            }
            let share = CloudKitSchemaGrowth.share(of: additions, for: operation, typeName: typeName)
            var growth: Schema?
            do {
                growth = share.isEmpty ? nil : try current.applying(share)
            } catch {
                throw CloudKitError(error)
            }
            planned.append(Planned(operation: operation, recordName: name, recordType: type, fields: fields, schemaGrowth: growth))
        }
        self.planned = planned
        self.atomic = request.atomic
        self.form = request.form
        self.zone = zone
        self.assetURL = assetURL
    }

    /// The operation's field values typed by `type`, for a record in `zone`; `nil` for a field
    /// given as `null`. With `numbersAsStrings`, a number may be given as a string of it.
    private static func values(
        of operation: CloudKitModifyRequest.Operation, type: RecordType, zone: String, numbersAsStrings: Bool,
        uploads: CloudKitFieldValue.UploadLookup
    ) throws(CloudKitError) -> [String: Value?] {
        var values: [String: Value?] = [:]
        for (name, json) in operation.fields {
            guard let field = type.field(named: name), field.systemField == nil else {
                throw CloudKitError(
                    .badRequest, "\(operation.path).record.fields: \(type.name) has no field \(name.debugDescription)", recordName: operation.recordName,
                    recordType: type.name)
            }
            if let other = referencedZones(in: json).first(where: { $0 != zone }) {
                throw CloudKitError(
                    .badRequest,
                    "\(type.name).\(name) references a record of zone \(other.debugDescription), but a reference points into its own record's zone (\(zone)); save the record in that zone, or reference one of this zone",
                    recordName: operation.recordName, recordType: type.name)
            }
            values[name] =
                removes(json)
                ? .some(nil)
                : try CloudKitFieldValue.decode(
                    json, as: field.type, where: "\(type.name).\(name)", numbersAsStrings: numbersAsStrings, uploads: uploads)
        }
        return values
    }

    /// The zone names the reference dictionaries of a field dictionary give (`value.zoneID`, or
    /// each element's in a list).
    private static func referencedZones(in json: JSONValue) -> [String] {
        let value = json["value"]
        let references: [JSONValue] = if case .array(let elements)? = value { elements } else { value.map { [$0] } ?? [] }
        return references.compactMap { reference in
            if case .string(let zone)? = reference["zoneID"]?["zoneName"] { zone } else { nil }
        }
    }

    /// Whether a field dictionary removes the field's value: `null`, or `{"value": null}`.
    private static func removes(_ json: JSONValue) -> Bool {
        if json == .null { return true }
        if case .object(let members) = json, members["value"] == .some(.null) { return true }
        return false
    }

    // MARK: Applying

    /// The `records` of the response, one per operation, in order. Throws the error of the
    /// first failed operation of an atomic request (see ``atomicResults(failingWith:)``), which
    /// is answered before the transaction opens when it is a value that cannot be written
    /// (``refusal``).
    func apply(in transaction: RecordTransaction) throws -> [JSONValue] {
        if atomic {
            // Atomic, a record may be saved before the record it references (checked at the end).
            return try transaction.deferringReferenceChecks { try planned.map { try apply($0, in: transaction) } }
        }
        var results: [JSONValue] = []
        results.reserveCapacity(planned.count)
        for operation in planned {
            do {
                results.append(try transaction.undoingOnFailure { try apply(operation, in: transaction) })
            } catch {
                results.append(failure(error).operationResult)
            }
        }
        return results
    }

    /// One operation's result; its engine error names the operation's record (a reference
    /// violation names the missing target otherwise), so ``failure(_:)`` finds the operation.
    private func apply(_ planned: Planned, in transaction: RecordTransaction) throws -> JSONValue {
        if let failure = planned.failure { throw failure }
        do {
            return try perform(planned, in: transaction)
        } catch var error as RecordError {
            error.recordName = planned.recordName
            error.recordType = planned.recordType?.name ?? planned.operation.recordType ?? error.recordType
            throw error
        }
    }

    private func perform(_ planned: Planned, in transaction: RecordTransaction) throws -> JSONValue {
        if let growth = planned.schemaGrowth { try transaction.extendSchema(to: growth) }
        let operation = planned.operation
        let name = planned.recordName
        if operation.type.isDeletion {
            let tag = operation.type == .delete ? operation.changeTag : nil
            let (recordType, _) = try transaction.delete(recordName: name, ifChangeTag: tag)
            return CloudKitRecord.deleted(recordName: name, recordType: recordType)
        }
        guard let type = planned.recordType else {
            throw RecordError(.unknownItem, "there is no record named '\(name)' to \(operation.type.rawValue)", recordName: name)
        }
        let record = Record(type.name, recordName: name, fields: planned.fields.compactMapValues { $0 })
        let saved: Record
        switch operation.type {
        case .create:
            saved = try create(record, in: transaction)
        case .update, .forceUpdate:
            let tag = operation.type == .update ? operation.changeTag : nil
            do {
                saved = try transaction.update(recordType: type.name, recordName: name, fields: planned.fields, ifChangeTag: tag)
            } catch let error as RecordError where error.code == .unknownItem && operation.type == .forceUpdate {
                // Missing to this caller: created, unless a record it may not read holds the
                // name, which stays as missing to it as to the update (nothing told about it).
                do {
                    saved = try create(record, in: transaction)
                } catch let taken as RecordError where taken.code == .serverRecordChanged {
                    throw error
                }
            }
        case .replace, .forceReplace:
            let tag = operation.type == .replace ? operation.changeTag : nil
            saved = try transaction.apply(.save(record, ifChangeTag: tag)).record!
        case .delete, .forceDelete:
            preconditionFailure("deletions are applied above")
        }
        return CloudKitRecord.encode(
            saved, type: type, form: form, authors: try transaction.authors(of: name), zone: zone, assetURL: assetURL)
    }

    /// Creates `record`. A name held by a record of another type is refused by the engine as a
    /// bad argument; to CloudKit the name simply exists, like a name of the same type.
    private func create(_ record: Record, in transaction: RecordTransaction) throws -> Record {
        do {
            return try transaction.apply(.create(record)).record!
        } catch let error as RecordError where error.code == .invalidArguments {
            guard try transaction.fetch(recordName: record.recordName) != nil else { throw error }
            throw RecordError(.serverRecordChanged, error.message, recordType: record.recordType, recordName: record.recordName)
        }
    }

    // MARK: Failures

    /// The `records` answering an atomic request whose values cannot all be written as given,
    /// before anything is: each such operation's error in its place, `ATOMIC_ERROR` in every
    /// other's; `nil` when the request is not atomic or every operation can be attempted.
    var refusal: [JSONValue]? {
        guard atomic else { return nil }
        let refused = planned.compactMap { operation in operation.failure.map { (recordName: operation.recordName, error: $0) } }
        return refused.isEmpty ? nil : atomicResults(refused)
    }

    /// The `records` answering an atomic request that `error` stopped and rolled back: the
    /// failed operation's error in its place, `ATOMIC_ERROR` in every other's; `nil` when `error`
    /// is not one operation's but the request's (a database that failed, a reused
    /// Idempotency-Key), answered as a whole.
    func atomicResults(failingWith error: RecordError) -> [JSONValue]? {
        guard atomic, Self.isOperationFailure(error), let name = error.recordName, planned.contains(where: { $0.recordName == name }) else {
            return nil
        }
        return atomicResults([(name, failure(error))])
    }

    /// Every operation's result when those of `failures` (by recordName; a request has one
    /// operation per record) failed and nothing was applied.
    private func atomicResults(_ failures: [(recordName: String, error: CloudKitError)]) -> [JSONValue] {
        let failed = Dictionary(failures, uniquingKeysWith: { first, _ in first })
        let culprits = planned.filter { failed[$0.recordName] != nil }.map { "\($0.operation.path) (\($0.recordName.debugDescription))" }
        let reason =
            "not applied: \(culprits.joined(separator: ", ")) failed and the batch is atomic, so none of it was; mend \(culprits.count == 1 ? "that operation" : "those operations") and send the batch again, or send \"atomic\": false to apply the operations that can be"
        return planned.map { operation in
            failed[operation.recordName]?.operationResult
                ?? CloudKitError(.atomicError, reason, recordName: operation.recordName, recordType: operation.typeName).operationResult
        }
    }

    /// Whether `error` is about its operation's record — answered in the operation's place — and
    /// not about the request or the service (its zone, its Idempotency-Key, a database that is
    /// full, read-only or failing).
    private static func isOperationFailure(_ error: RecordError) -> Bool {
        switch (error.reason, error.code) {
        case (.unknownZone?, _), (.changeTokenExpired?, _), (.diskFull?, _), (.readOnly?, _), (_, .transactionConflict), (_, .internalError): false
        default: true
        }
    }

    /// `error`, thrown by an operation, as CloudKit reports it: the engine's code as CloudKit's
    /// (`EXISTS` for a create of a name that exists), naming the record and its type.
    func failure(_ error: any Error) -> CloudKitError {
        guard let error = error as? RecordError else {
            return error as? CloudKitError ?? CloudKitError(.internalError, "the operation failed unexpectedly: \(error)")
        }
        let failed = error.recordName.flatMap { name in planned.first { $0.recordName == name } }
        return CloudKitError(error, creating: failed?.operation.type == .create)
    }
}
