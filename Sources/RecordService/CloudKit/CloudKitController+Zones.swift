import Foundation
import Hummingbird
import NIOFoundationEssentialsCompat
import RecordKit

/// Record zones in CloudKit Web Services: `zones/list`, `zones/lookup`, `zones/modify` (create
/// and delete; deleting a zone deletes its records) and `zones/changes`.
extension CloudKitController {
    /// `zones/list`: every zone of the database, the default zone first.
    @Sendable func listZones(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        let database = try context.requireDatabase().database
        let zones = try await Self.blocking { () throws(RecordError) in try database.zones() }
        return Self.json(.object(["zones": .array(zones.map { CloudKitZone.dictionary($0) })]))
    }

    /// `zones/lookup`: the zones named by `zones` (zone IDs), each in its place; an unknown one
    /// is `{zoneID, serverErrorCode: ZONE_NOT_FOUND, reason}`.
    @Sendable func lookupZones(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        let database = try context.requireDatabase().database
        let body = try await Self.body(of: request, context: context)
        let zoneIDs = try Self.array("zones", of: body, example: #"[{"zoneName": "_defaultZone"}]"#)
        var names: [String] = []
        for zoneID in zoneIDs { names.append(try CloudKitZone.name(zoneID)) }
        let asked = names
        let found = try await Self.blocking { () throws(RecordError) in
            var zones: [RecordZone?] = []
            for name in asked { zones.append(try database.zone(named: name)) }
            return zones
        }
        let results = zip(zoneIDs, found).map { zoneID, zone -> JSONValue in
            guard let zone else { return CloudKitZone.notFound(zoneID) }
            return CloudKitZone.dictionary(zone)
        }
        return Self.json(.object(["zones": .array(results)]))
    }

    /// `zones/modify`: `operations` of `{"operationType": "create" | "delete", "zone": {"zoneID"}}`,
    /// each applied in order; the result of each is in its place: the zone, `{zoneID, deleted:
    /// true}`, or `{zoneID, serverErrorCode, reason}`.
    ///
    /// Only the database's owner manages its zones: a user in their private database, an admin
    /// or a server-to-server key in a public one. A zone of a public database holds the records of
    /// many users, and deleting it deletes them all, so a user there gets 403 `ACCESS_DENIED`.
    @Sendable func modifyZones(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requireWriter()
        guard !(try context.requireAccess()).appliesGrants else {
            throw CloudKitError(
                .accessDenied,
                "\(principal) may not create or delete zones of the public database, which hold every user's records; use an admin token, or zones of your private database (…/private/zones/modify)"
            )
        }
        let database = try context.requireDatabase().database
        let body = try await Self.body(of: request, context: context)
        let operations = try Self.array("operations", of: body, example: #"[{"operationType": "create", "zone": {"zoneID": {"zoneName": "Work"}}}]"#)
        var parsed: [(create: Bool, zoneID: JSONValue, name: String)] = []
        for (index, operation) in operations.enumerated() {
            guard case .string(let type)? = operation["operationType"], type == "create" || type == "delete" else {
                throw CloudKitError(.badRequest, "operations[\(index)].operationType must be create or delete")
            }
            guard let zoneID = operation["zone"]?["zoneID"] else {
                throw CloudKitError(.badRequest, "operations[\(index)] needs a zone with a zoneID, such as {\"zone\": {\"zoneID\": {\"zoneName\": \"Work\"}}}")
            }
            parsed.append((type == "create", zoneID, try CloudKitZone.name(zoneID)))
        }
        let asked = parsed
        let results = try await Self.blocking { () throws(RecordError) in
            asked.map { operation -> JSONValue in
                do throws(RecordError) {
                    if operation.create { return CloudKitZone.dictionary(try database.createZone(operation.name)) }
                    try database.deleteZone(operation.name)
                    return .object(["zoneID": CloudKitZone.zoneID(operation.name), "deleted": .bool(true)])
                } catch {
                    let failure = CloudKitError(error)
                    return .object(["zoneID": operation.zoneID, "serverErrorCode": .string(failure.code.rawValue), "reason": .string(failure.reason)])
                }
            }
        }
        return Self.json(.object(["zones": .array(results)]))
    }

    /// `zones/changes`: the zones created, changed or deleted after the database's
    /// `syncToken` (every zone without one), with the database's next `syncToken`.
    @Sendable func zoneChanges(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        let database = try context.requireDatabase().database
        // The body is optional here: none asks for every zone.
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let body = buffer.readableBytes == 0 ? JSONValue.object([:]) : try JSONValue.parse(Data(buffer: buffer))
        let now = try await Self.blocking { () throws(RecordError) in try CloudKitZoneChangesToken.current(of: database) }
        let asked = try CloudKitZoneChangesToken.parse(body["syncToken"], now: now)
        var zones: [JSONValue] = []
        for position in now.positions where asked?.position(of: position.id).map({ $0.sequence < position.sequence }) ?? true {
            zones.append(CloudKitZone.dictionary(RecordZone(name: position.name, id: position.id, createdAt: nil)))
        }
        // A zone deleted and created again under its name is named once, as it is now (its old
        // records' tokens are 410); only a name that is gone is named deleted.
        let names = Set(now.positions.map(\.name))
        for position in asked?.positions ?? [] where now.position(of: position.id) == nil && !names.contains(position.name) {
            zones.append(.object(["zoneID": CloudKitZone.zoneID(position.name), "deleted": .bool(true)]))
        }
        return Self.json(.object(["zones": .array(zones), "syncToken": .string(now.text), "moreComing": .bool(false)]))
    }

    /// Runs synchronous database work off the event loop, its failure as CloudKit's error.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws(RecordError) -> T) async throws(CloudKitError) -> T {
        do {
            return try await BlockingWork.run(body)
        } catch {
            throw CloudKitError(error)
        }
    }
}
