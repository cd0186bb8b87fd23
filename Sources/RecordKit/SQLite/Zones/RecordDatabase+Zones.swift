public import Foundation
internal import GRDB
import Synchronization

/// The record zones of a database (``RecordZone``): the default zone is the database itself;
/// each custom zone is a database file of its own beside it (`<file>-zones/<name>.sqlite`, in
/// memory for an in-memory database), registered in the database's `_zones` table and kept at
/// the database's schema. So batches, references and change tokens are per zone, and deleting
/// a zone deletes its records.
extension RecordDatabase {
    /// Every zone, the default zone first, then by name.
    public func zones() throws(RecordError) -> [RecordZone] {
        [.defaultZone] + (try performRead { try ZoneRegistry.zones($0.db) })
    }

    /// The zone named `name`, or `nil`.
    public func zone(named name: String) throws(RecordError) -> RecordZone? {
        if name == RecordZone.defaultName { return .defaultZone }
        return try performRead { try ZoneRegistry.zone(named: name, $0.db) }
    }

    /// Creates the zone `name` (with the database's schema), or returns it when it exists.
    ///
    /// - Throws: ``RecordError`` `invalidArguments` for a name ``RecordZone/validate(_:)`` refuses.
    @discardableResult
    public func createZone(_ name: String) throws(RecordError) -> RecordZone {
        if name == RecordZone.defaultName { return .defaultZone }
        try RecordZone.validate(name)
        if let path { try Self.createFolder(Self.zoneFolder(of: path)) }
        let zone = try performWrite { try ZoneRegistry.create(name, $0.db) }
        _ = try database(of: zone)
        return zone
    }

    /// Deletes the zone `name` and every record in it.
    ///
    /// - Throws: ``RecordError`` `unknownItem` (reason ``RecordError/Reason/unknownZone``) when
    ///   there is no such zone; `invalidArguments` for the default zone, which always exists.
    public func deleteZone(_ name: String) throws(RecordError) {
        guard name != RecordZone.defaultName else {
            throw RecordError(.invalidArguments, "the default zone cannot be deleted; delete its records instead")
        }
        guard try performWrite({ try ZoneRegistry.delete(name, $0.db) }) else { throw RecordZone.notFound(name) }
        openZones.withLock { _ = $0.removeValue(forKey: name) }
        guard let path else { return }
        let file = Self.zoneFile(of: path, zone: name)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: file + suffix)
        }
    }

    /// The zone `name` with the database holding its records: this one for the default zone.
    ///
    /// - Throws: ``RecordError`` `unknownItem` (reason ``RecordError/Reason/unknownZone``) when
    ///   there is no such zone.
    public func zone(_ name: String) throws(RecordError) -> ZoneDatabase {
        if name == RecordZone.defaultName { return ZoneDatabase(zone: .defaultZone, database: self) }
        guard let zone = try zone(named: name) else { throw RecordZone.notFound(name) }
        return ZoneDatabase(zone: zone, database: try database(of: zone))
    }

    /// Prunes the change log of the default zone and of every custom zone of entries logged
    /// before `cutoff` (``pruneChanges(olderThan:)``, one write transaction per zone); returns
    /// the number of entries removed.
    @discardableResult
    public func pruneChangesInEveryZone(olderThan cutoff: Date) throws(RecordError) -> Int {
        var removed = try pruneChanges(olderThan: cutoff)
        for zone in try performRead({ try ZoneRegistry.zones($0.db) }) {
            removed += try database(of: zone).pruneChanges(olderThan: cutoff)
        }
        return removed
    }

    /// The open database of `zone`, opened (or created) when it is not, at this database's schema.
    private func database(of zone: RecordZone) throws(RecordError) -> RecordDatabase {
        let schema = try self.schema
        let database: RecordDatabase
        // An entry of another id is a zone deleted (by any process) and created again.
        if let open = openZones.withLock({ $0[zone.name] }), open.id == zone.id {
            database = open.database
        } else {
            if let path {
                database = try RecordDatabase(path: Self.zoneFile(of: path, zone: zone.name), bootstrap: schema, readers: readers)
            } else {
                database = try .inMemory(bootstrap: schema)
            }
            openZones.withLock { $0[zone.name] = (zone.id, database) }
        }
        // Another process (or a write in development) may have grown this database's schema.
        if try database.schema != schema { try database.updateSchema(to: schema, mode: .merge) }
        return database
    }

    private static func zoneFolder(of path: String) -> String { path + "-zones" }

    private static func zoneFile(of path: String, zone: String) -> String { zoneFolder(of: path) + "/" + zone + ".sqlite" }

    private static func createFolder(_ folder: String) throws(RecordError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RecordError(
                .invalidArguments, "the folder of the zones, \(folder), cannot be created",
                underlyingError: error, reason: .folderUnavailable
            )
        }
    }
}

/// A zone with the database holding its records (``RecordDatabase/zone(_:)``).
public struct ZoneDatabase: Sendable {
    public let zone: RecordZone
    public let database: RecordDatabase

    public init(zone: RecordZone, database: RecordDatabase) {
        self.zone = zone
        self.database = database
    }
}
