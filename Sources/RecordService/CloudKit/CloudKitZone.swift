import RecordKit

/// Record zones as CloudKit Web Services names them: `{"zoneName", "ownerRecordName"}` zone IDs
/// and `{"zoneID", "atomic", "syncToken"?}` zone dictionaries. Every database has
/// `_defaultZone`; `zones/modify` creates and deletes others (``RecordDatabase/createZone(_:)``).
/// A request naming no zone works in the default zone; one naming a zone that does not exist
/// gets `ZONE_NOT_FOUND`.
enum CloudKitZone {
    static let defaultZoneName = RecordZone.defaultName
    /// CloudKit's name for the current user as a zone owner (`CKCurrentUserDefaultName`).
    static let defaultOwnerName = "__defaultOwner__"

    /// The zone ID dictionary of the zone `name`.
    static func zoneID(_ name: String) -> JSONValue {
        .object(["zoneName": .string(name), "ownerRecordName": .string(defaultOwnerName)])
    }

    /// The zone ID dictionary of the default zone.
    static var defaultZoneID: JSONValue { zoneID(defaultZoneName) }

    /// The zone dictionary of `zone`: its ID, `atomic` (a batch in it is all or nothing) and,
    /// when given, the sync token of its change feed.
    static func dictionary(_ zone: RecordZone, syncToken: ChangeToken? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["zoneID": zoneID(zone.name), "atomic": .bool(true)]
        if let syncToken { members["syncToken"] = .string(syncToken.text) }
        return .object(members)
    }

    /// The zone dictionary of the default zone.
    static var defaultZone: JSONValue { dictionary(.defaultZone) }

    /// `records` (deletion results and errors; a saved record's dictionary has its zone ID from
    /// ``CloudKitRecord``) with the zone ID of `zone` in each one that names a record.
    static func stamped(_ records: [JSONValue], zone: String) -> [JSONValue] {
        records.map { record in
            guard case .object(var members) = record, members["recordName"] != nil else { return record }
            members["zoneID"] = zoneID(zone)
            return .object(members)
        }
    }

    /// The result of a zone that does not exist, in its place in `zones/lookup`.
    static func notFound(_ zoneID: JSONValue) -> JSONValue {
        let name = (try? Self.name(zoneID)) ?? ""
        return .object([
            "zoneID": zoneID, "serverErrorCode": .string(ServiceError.Code.zoneNotFound.rawValue),
            "reason": .string("there is no zone named \(name.debugDescription); create it with zones/modify"),
        ])
    }

    /// The zone name a request's `zoneID` dictionary names: the default zone when it is absent
    /// or names none; `BAD_REQUEST` when it is not a zone ID.
    static func name(_ zoneID: JSONValue?) throws(CloudKitError) -> String {
        guard let zoneID else { return defaultZoneName }
        guard case .object = zoneID else {
            throw CloudKitError(.badRequest, "zoneID must be a dictionary such as {\"zoneName\": \"_defaultZone\"}, not \(zoneID.kindName)")
        }
        switch zoneID["zoneName"] {
        case nil: return defaultZoneName
        case .string(let name)?: return name
        case let other?: throw CloudKitError(.badRequest, "zoneID.zoneName must be a string, not \(other.kindName)")
        }
    }

    /// The zone `zoneID` names in `database` with the database holding its records;
    /// `ZONE_NOT_FOUND` when there is no such zone. Runs off the event loop.
    static func resolve(_ zoneID: JSONValue?, in database: RecordDatabase) async throws(CloudKitError) -> ZoneDatabase {
        let name = try Self.name(zoneID)
        if name == defaultZoneName { return ZoneDatabase(zone: .defaultZone, database: database) }
        do {
            return try await BlockingWork.run { () throws(RecordError) in try database.zone(name) }
        } catch {
            throw CloudKitError(error)
        }
    }
}
