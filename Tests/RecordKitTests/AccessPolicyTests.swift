import Foundation
import Testing

@testable import RecordKit

/// CloudKit's security roles as the engine enforces them (``AccessPolicy``): reads filtered in
/// the query, writes checked, for every record type × actor × operation of a generated table.
@Suite struct AccessPolicyTests {
    static let schemaText = """
        DEFINE SCHEMA
            RECORD TYPE Archive (
                title           STRING QUERYABLE SORTABLE,
                GRANT READ TO "_world"
            );
            RECORD TYPE Diaries (
                title           STRING QUERYABLE SORTABLE,
                GRANT READ, WRITE TO "_creator",
                GRANT CREATE TO "_icloud"
            );
            RECORD TYPE Members (
                title           STRING QUERYABLE SORTABLE,
                GRANT READ TO "_icloud",
                GRANT CREATE, WRITE TO "_icloud"
            );
            RECORD TYPE Notes (
                title           STRING QUERYABLE SORTABLE
            );
            RECORD TYPE Pages (
                title           STRING QUERYABLE SORTABLE,
                diary           REFERENCE QUERYABLE
            );
        """

    static let ann = AccessPolicy.publicDatabase(.user(recordName: "_ann"))
    static let bob = AccessPolicy.publicDatabase(.user(recordName: "_bob"))
    static let world = AccessPolicy.publicDatabase(.world)

    /// What an actor may do with a type holding one record of the owner and one of Ann.
    struct Row: Sendable, CustomTestStringConvertible {
        var type: String
        var actor: String
        /// The records the actor sees, by recordName.
        var sees: [String]
        var mayCreate: Bool
        /// What updating Ann's record does: nil when allowed, else the error code.
        var updateAnns: RecordError.Code?
        /// Whether deleting the owner's record is allowed.
        var deletesOwners: Bool
        var testDescription: String { "\(type) as \(actor)" }
    }

    /// The expected table, written from the GRANT lines above (CloudKit's rules): no GRANT lines
    /// is READ _world, CREATE _icloud, WRITE _creator; WRITE implies READ; _world never writes.
    static let table: [Row] = [
        Row(type: "Archive", actor: "owner", sees: ["ann", "owner"], mayCreate: true, updateAnns: nil, deletesOwners: true),
        Row(type: "Archive", actor: "ann", sees: ["ann", "owner"], mayCreate: false, updateAnns: .permissionFailure, deletesOwners: false),
        Row(type: "Archive", actor: "bob", sees: ["ann", "owner"], mayCreate: false, updateAnns: .permissionFailure, deletesOwners: false),
        Row(type: "Archive", actor: "world", sees: ["ann", "owner"], mayCreate: false, updateAnns: .permissionFailure, deletesOwners: false),
        Row(type: "Diaries", actor: "owner", sees: ["ann", "owner"], mayCreate: true, updateAnns: nil, deletesOwners: true),
        Row(type: "Diaries", actor: "ann", sees: ["ann"], mayCreate: true, updateAnns: nil, deletesOwners: false),
        Row(type: "Diaries", actor: "bob", sees: [], mayCreate: true, updateAnns: .unknownItem, deletesOwners: false),
        Row(type: "Diaries", actor: "world", sees: [], mayCreate: false, updateAnns: .unknownItem, deletesOwners: false),
        Row(type: "Members", actor: "owner", sees: ["ann", "owner"], mayCreate: true, updateAnns: nil, deletesOwners: true),
        Row(type: "Members", actor: "ann", sees: ["ann", "owner"], mayCreate: true, updateAnns: nil, deletesOwners: true),
        Row(type: "Members", actor: "bob", sees: ["ann", "owner"], mayCreate: true, updateAnns: nil, deletesOwners: true),
        Row(type: "Members", actor: "world", sees: [], mayCreate: false, updateAnns: .unknownItem, deletesOwners: false),
        Row(type: "Notes", actor: "owner", sees: ["ann", "owner"], mayCreate: true, updateAnns: nil, deletesOwners: true),
        Row(type: "Notes", actor: "ann", sees: ["ann", "owner"], mayCreate: true, updateAnns: nil, deletesOwners: false),
        Row(type: "Notes", actor: "bob", sees: ["ann", "owner"], mayCreate: true, updateAnns: .permissionFailure, deletesOwners: false),
        Row(type: "Notes", actor: "world", sees: ["ann", "owner"], mayCreate: false, updateAnns: .permissionFailure, deletesOwners: false),
    ]

    static func policy(_ actor: String) -> AccessPolicy {
        switch actor {
        case "ann": ann
        case "bob": bob
        case "world": world
        default: .owner
        }
    }

    /// A database with, per record type, a record of the owner (`owner`) and one of Ann (`ann`).
    static func seeded() throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(bootstrap: try CKDBParser.parse(schemaText))
        for type in ["Archive", "Diaries", "Members", "Notes"] {
            _ = try db.write { try $0.apply(.create(Record(type, recordName: "\(type)-owner", fields: ["title": .string("owner")]))) }
            // Ann in her own private database writes anything, and is recorded as the creator.
            _ = try db.write(access: .privateDatabase(of: "_ann")) {
                try $0.apply(.create(Record(type, recordName: "\(type)-ann", fields: ["title": .string("ann")])))
            }
        }
        return db
    }

    @Test(arguments: table)
    func eachActorReadsCreatesAndUpdatesAsTheGrantsSay(row: Row) async throws {
        let db = try Self.seeded()
        let access = Self.policy(row.actor)
        let seen = try await db.read(access: access) { transaction in
            try transaction.records(matching: Query(row.type, sort: [SortDescriptor("title")])).compactMap { $0["title"] }
        }
        #expect(seen == row.sees.map { .string($0) })
        let count = try await db.read(access: access) { try $0.count(matching: Query(row.type)) }
        #expect(count == row.sees.count)
        let looked = try await db.read(access: access) { try $0.fetch(recordName: "\(row.type)-ann") != nil }
        #expect(looked == row.sees.contains("ann"))

        let created = Result { try db.write(access: access) { try $0.apply(.create(Record(row.type, recordName: "new", fields: [:]))) } }
        #expect(((try? created.get()) != nil) == row.mayCreate)
        if !row.mayCreate { #expect((created.failure as? RecordError)?.code == .permissionFailure) }

        let updated = Result {
            try db.write(access: access) { try $0.update(recordType: row.type, recordName: "\(row.type)-ann", fields: ["title": .string("changed")]) }
        }
        #expect((updated.failure as? RecordError)?.code == row.updateAnns)
        let deleted = Result { try db.write(access: access) { try $0.delete(recordName: "\(row.type)-owner") } }
        #expect((deleted.failure == nil) == row.deletesOwners)
    }

    @Test func theCreatorAndModifierAreRecordedAndQueryable() async throws {
        let db = try Self.seeded()
        let authors = try await db.read { try $0.authors(of: "Notes-ann") }
        #expect(authors.createdBy == "_ann" && authors.modifiedBy == "_ann")
        #expect(try await db.read { try $0.authors(of: "Notes-owner") }.createdBy == AccessPolicy.ownerRecordName)
        try await db.write(access: Self.ann) { _ = try $0.update(recordType: "Notes", recordName: "Notes-ann", fields: ["title": .string("x")]) }
        try await db.write { _ = try $0.update(recordType: "Notes", recordName: "Notes-ann", fields: ["title": .string("y")]) }
        let after = try await db.read { try $0.authors(of: "Notes-ann") }
        #expect(after.createdBy == "_ann" && after.modifiedBy == AccessPolicy.ownerRecordName)
        let byAnn = try db.records(matching: Query("Notes", predicate: .compare(key: "___createdBy", .equal, .string("_ann")))).recordNames
        #expect(byAnn == ["Notes-ann"])
        let byOwner = try db.records(matching: Query("Notes", predicate: .compare(key: "___createdBy", .equal, .string(AccessPolicy.ownerRecordName))))
        #expect(byOwner.recordNames == ["Notes-owner"])
    }

    @Test func thePageOfRecordsHasItsAuthorsReadTogetherEachAsTheSingleReadSaysIt() async throws {
        let db = try Self.seeded()
        try await db.write { _ = try $0.update(recordType: "Notes", recordName: "Notes-ann", fields: ["title": .string("y")]) }
        let names = ["Notes-ann", "Notes-owner", "Diaries-ann", "no-such-record"]
        let (together, single) = try await db.read { transaction in
            (try transaction.authors(of: names), try names.map { try transaction.authors(of: $0) })
        }
        for (name, alone) in zip(names, single) {
            #expect(together.of(name) == alone, "\(name)")
        }
        #expect(together.of("Notes-ann") == ("_ann", AccessPolicy.ownerRecordName))
        #expect(together.of("no-such-record") == (AccessPolicy.ownerRecordName, AccessPolicy.ownerRecordName))
    }

    @Test func aDeletedRecordForgetsItsCreatorSoANewRecordOfTheNameDoesNotInheritIt() async throws {
        let db = try Self.seeded()
        try await db.write { _ = try $0.delete(recordName: "Diaries-ann") }
        try await db.write { _ = try $0.apply(.create(Record("Diaries", recordName: "Diaries-ann", fields: [:]))) }
        let seen = try await db.read(access: Self.ann) { try $0.records(matching: Query("Diaries")).recordNames }
        #expect(seen.isEmpty)
    }

    @Test func referencesToUnreadableRecordsAreNullAndReferrersAreFiltered() async throws {
        let db = try Self.seeded()
        try await db.write {
            _ = try $0.apply(.create(Record("Pages", recordName: "P1", fields: ["title": .string("p"), "diary": .reference(Reference("Diaries-ann"))])))
        }
        let projection = Projection([
            .init("diary", .reference(field: "diary", ["Diaries": Projection([.init("title", .field("title"))])]))
        ])
        let asBob = try await db.read(access: Self.bob) { try $0.json(Query("Pages"), projection: projection) }
        let asAnn = try await db.read(access: Self.ann) { try $0.json(Query("Pages"), projection: projection) }
        #expect(asBob == #"[{"diary":null}]"#)
        #expect(asAnn == #"[{"diary":{"title":"ann"}}]"#)
        let referrers = Projection([
            .init("pages", .referrers(recordType: "Pages", field: "diary", predicate: .all, sort: [], limit: nil, Projection([.init("t", .field("title"))])))
        ])
        let diaries = try await db.read(access: Self.ann) { try $0.json(Query("Diaries"), projection: referrers) }
        #expect(diaries == #"[{"pages":[{"t":"p"}]}]"#)
        let none = try await db.read(access: Self.bob) { try $0.json(Query("Diaries"), projection: referrers) }
        #expect(none == "[]")
    }

    @Test func theChangeFeedLeavesOutRecordsTheReaderMayNotReadButKeepsRealDeletions() async throws {
        let db = try Self.seeded()
        try await db.write { _ = try $0.delete(recordName: "Notes-owner") }
        func names(_ access: AccessPolicy) async throws -> [String] {
            try await db.read(access: access) { transaction in
                try transaction.changePage(ChangeFeedRequest(after: nil, limit: 100)).entries.map(\.recordName).sorted()
            }
        }
        let asBob = try await names(Self.bob)
        #expect(!asBob.contains("Diaries-ann") && !asBob.contains("Diaries-owner"))
        #expect(asBob.contains("Notes-ann") && asBob.contains("Notes-owner"))
        #expect(try await names(Self.ann).contains("Diaries-ann"))
        #expect(try await names(.owner).contains("Diaries-owner"))
    }

    /// A deleted record's tombstone goes only to those who could read it: a name in the feed
    /// tells of a record as a lookup would. Deleted alone or by a cascade, the same.
    @Test func aTombstoneGoesOnlyToThoseWhoCouldReadTheRecord() async throws {
        let db = try Self.seeded()
        try await db.write(access: .privateDatabase(of: "_ann")) { transaction in
            let page = Record("Pages", recordName: "Pages-ann", fields: ["diary": .reference(Reference("Diaries-ann", action: .deleteSelf))])
            _ = try transaction.apply(.create(page))
        }
        try await db.write { transaction in
            for name in ["Diaries-owner", "Diaries-ann", "Notes-owner"] { _ = try transaction.delete(recordName: name) }
        }
        func tombstones(_ access: AccessPolicy) async throws -> [String] {
            try await db.read(access: access) { transaction in
                try transaction.changePage(ChangeFeedRequest(after: nil, limit: 100)).entries.compactMap { entry in
                    if case .deleted(let name, _) = entry { name } else { nil }
                }.sorted()
            }
        }
        #expect(try await tombstones(Self.bob) == ["Notes-owner", "Pages-ann"])
        #expect(try await tombstones(Self.world) == ["Notes-owner", "Pages-ann"])
        #expect(try await tombstones(Self.ann) == ["Diaries-ann", "Notes-owner", "Pages-ann"])
        #expect(try await tombstones(.owner) == ["Diaries-ann", "Diaries-owner", "Notes-owner", "Pages-ann"])
    }

    @Test func anAssetIsReadOnlyThroughARecordTheCallerMayRead() async throws {
        var schema = try CKDBParser.parse(Self.schemaText)
        var diaries = try schema.requireRecordType("Diaries")
        diaries.fields.append(FieldDefinition("scan", .asset))
        schema.upsert(diaries)
        let db = try RecordDatabase.inMemory(bootstrap: schema)
        let asset = Asset(content: Data("secret scan".utf8))
        try await db.write(access: .privateDatabase(of: "_ann")) {
            _ = try $0.apply(.create(Record("Diaries", recordName: "D", fields: ["scan": .asset(asset)])))
        }
        #expect(try await db.read(access: Self.ann) { try $0.assetContent(sha256: asset.sha256) } == Data("secret scan".utf8))
        #expect(try await db.read(access: Self.bob) { try $0.assetContent(sha256: asset.sha256) } == nil)
        // Saved by its checksum alone (as a record read back is), an asset must be one the
        // writer may read: Ann's record keeps hers; Bob cannot take it into a record of his.
        let stored = Asset(size: asset.size, sha256: asset.sha256)
        try await db.write(access: Self.ann) { _ = try $0.apply(.save(Record("Diaries", recordName: "D", fields: ["scan": .asset(stored)]), ifChangeTag: nil)) }
        await #expect(throws: RecordError.self) {
            try await db.write(access: Self.bob) { _ = try $0.apply(.create(Record("Diaries", recordName: "B", fields: ["scan": .asset(stored)]))) }
        }
        await #expect(throws: RecordError.self) {
            try await db.write { _ = try $0.apply(.create(Record("Diaries", recordName: "C", fields: ["scan": .asset(Asset(size: 1, sha256: asset.sha256))]))) }
        }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
