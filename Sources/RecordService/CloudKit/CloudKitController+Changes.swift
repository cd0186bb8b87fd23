import Foundation
import Hummingbird
import RecordKit

/// The change feed of CloudKit Web Services: `records/changes` (what changed in a zone after a
/// sync token) and `zones/changes` (which zones changed after a database's sync token).
extension CloudKitController {
    /// `records/changes`: one page of the zone's changes after `syncToken` — saved records as
    /// `records/lookup` returns them, deleted ones as `{recordName, recordType, deleted: true}` —
    /// with the next `syncToken` and `moreComing`. A token the log can no longer serve gets
    /// `CHANGE_TOKEN_EXPIRED`: fetch again without one.
    @Sendable func recordChanges(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        let database = try context.requireDatabase()
        let body = try await Self.body(of: request, context: context)
        let changes = try CloudKitChangesRequest(body)
        let assetURL = Self.assetURL(request, context: context)
        let (page, schema) = try await CloudKitStore(database: database.database).read { transaction in
            (try transaction.changePage(changes.feed), transaction.schema)
        }
        let records = page.entries.map { entry -> JSONValue in
            switch entry {
            case .saved(let record, _):
                CloudKitRecord.encode(record, type: schema.recordType(named: record.recordType), desiredKeys: changes.desiredKeys, assetURL: assetURL)
            case .deleted(let recordName, let recordType):
                CloudKitRecord.deleted(recordName: recordName, recordType: recordType)
            }
        }
        return Self.json(
            .object([
                "zoneID": CloudKitZone.defaultZoneID, "records": .array(records),
                "syncToken": .string(page.next.text), "moreComing": .bool(page.moreComing),
            ]))
    }

    /// `zones/changes`: the zones with changes after the database's `syncToken` (every zone
    /// without one), each with its own current `syncToken`, and the database's next `syncToken`.
    @Sendable func zoneChanges(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try context.requirePrincipal()
        let database = try context.requireDatabase()
        // The body is optional here: none asks for every zone.
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let body = buffer.readableBytes == 0 ? JSONValue.object([:]) : try JSONValue.parse(Data(buffer: buffer))
        let asked = try CloudKitChangesRequest.syncToken(body["syncToken"])
        let (changed, end) = try await CloudKitStore(database: database.database).read { transaction in
            let end = try transaction.changeLogEnd()
            guard let asked else { return (true, end) }
            return (!(try transaction.changePage(ChangeFeedRequest(after: asked, limit: 1)).entries.isEmpty), end)
        }
        let zone: JSONValue = .object(["zoneID": CloudKitZone.defaultZoneID, "atomic": .bool(true), "syncToken": .string(end.text)])
        return Self.json(
            .object([
                "zones": .array(changed ? [zone] : []), "syncToken": .string(end.text), "moreComing": .bool(false),
            ]))
    }
}
