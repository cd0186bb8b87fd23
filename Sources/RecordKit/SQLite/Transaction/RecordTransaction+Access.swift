import Foundation
internal import GRDB

/// The transaction's ``AccessPolicy`` applied to single records: whether one may be read,
/// created or written, and who is recorded as its creator and modifier. Queries apply the same
/// policy in their SQL (``QueryCompiler/Clauses``).
extension RecordTransaction {
    /// Whether ``access`` may read the record `recordName` of `recordType`.
    func mayRead(_ recordName: String, of recordType: String) throws -> Bool {
        guard access.appliesGrants else { return true }
        return try reaches(access.readScope(of: try schema.requireRecordType(recordType)), recordName)
    }

    /// Refuses a write to the existing record `recordName` of `recordType` that ``access`` may
    /// not make: `unknownItem` when it may not even read it (its existence is not told),
    /// `permissionFailure` otherwise.
    func checkWrite(_ recordName: String, of recordType: String) throws {
        guard access.appliesGrants else { return }
        let type = try schema.requireRecordType(recordType)
        if try reaches(access.writeScope(of: type), recordName) { return }
        guard try mayRead(recordName, of: recordType) else {
            throw RecordError(.unknownItem, "there is no \(recordType) record named '\(recordName)'", recordType: recordType, recordName: recordName)
        }
        throw RecordError(
            .permissionFailure,
            "\(recordType) '\(recordName)' may not be changed by this caller: the record type's grants do not allow it",
            recordType: recordType, recordName: recordName
        )
    }

    /// Refuses a save that ``access`` may not make: a create without the CREATE grant, a
    /// replacement without write access to the stored record.
    func checkSave(_ record: Record, mode: SaveMode) throws {
        guard access.appliesGrants else { return }
        if case .save = mode, let existing = try locate(record.recordName), existing.recordType == record.recordType {
            try checkWrite(record.recordName, of: record.recordType)
            return
        }
        guard access.mayCreate(try schema.requireRecordType(record.recordType)) else {
            throw RecordError(
                .permissionFailure,
                "\(record.recordType) records may not be created by this caller: the record type's grants do not allow it",
                recordType: record.recordType, recordName: record.recordName
            )
        }
    }

    /// Records ``access``'s author as the creator (when `isNew`) and modifier of `recordName`.
    func recordAuthor(of recordName: String, isNew: Bool) throws {
        if isNew {
            try RecordAuthors.created(recordName, by: access.author, in: db)
        } else {
            try RecordAuthors.modified(recordName, by: access.author, in: db)
        }
    }

    /// The user record names of the creator and last modifier of `recordName`
    /// (``AccessPolicy/ownerRecordName`` for the owner).
    public func authors(of recordName: String) throws -> (createdBy: String, modifiedBy: String) {
        let authors = try RecordAuthors.authors(of: recordName, in: db)
        return (authors.createdBy ?? AccessPolicy.ownerRecordName, authors.modifiedBy ?? AccessPolicy.ownerRecordName)
    }

    /// The creators and last modifiers of `recordNames`, read together (a page of records costs
    /// one statement, and none while only the owner ever wrote).
    public func authors(of recordNames: [String]) throws -> RecordAuthorship {
        RecordAuthorship(recorded: try RecordAuthors.authors(of: recordNames, in: db))
    }

    /// Whether some record ``access`` may read holds the asset `sha256` (an asset is shared by
    /// every record holding the same content, so it is readable through any of them).
    func mayReadAsset(sha256: String) throws -> Bool {
        guard access.appliesGrants else { return true }
        for layout in snapshot.storedLayouts {
            guard let holds = AssetColumns.holding("?1", in: layout) else { continue }
            var readable = PredicateCompiler(layout: layout)
            let condition = try readable.compile(access.readScope(of: layout.recordType).predicate)
            let sql = "SELECT EXISTS (SELECT 1 FROM \(layout.table) WHERE (\(holds)) AND \(condition))"
            let found = try Bool.fetchOne(db, sql: sql, arguments: StatementArguments(values: [sha256.databaseValue] + readable.arguments)) ?? false
            if found { return true }
        }
        return false
    }

    /// Whether `scope` reaches the record `recordName`.
    private func reaches(_ scope: AccessPolicy.Scope, _ recordName: String) throws -> Bool {
        switch scope {
        case .all: true
        case .none: false
        case .createdBy(let name): try RecordAuthors.authors(of: recordName, in: db).createdBy == name
        }
    }
}
