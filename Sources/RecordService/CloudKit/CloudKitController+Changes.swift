import Foundation
import Hummingbird
import RecordKit

/// The change feed of CloudKit Web Services: `records/changes`, what changed in a zone after a
/// sync token (`zones/changes` tells which zones changed).
extension CloudKitController {
    /// `records/changes`: one page of the zone's changes after `syncToken` — saved records as
    /// `records/lookup` returns them, deleted ones as `{recordName, recordType, deleted: true}` —
    /// with the next `syncToken` and `moreComing`. A token the log can no longer serve gets
    /// `CHANGE_TOKEN_EXPIRED`: fetch again without one.
    @Sendable func recordChanges(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let access = try context.requireAccess()
        let database = try context.requireDatabase()
        let body = try await Self.body(of: request, context: context)
        let changes = try CloudKitChangesRequest(body)
        let assetURL = try Self.assetURL(request, context: context)
        let zone = try await CloudKitZone.resolve(body["zoneID"], in: database.database)
        let zoneID = zone.zone.id
        if let token = changes.feed.after, token.zone != zoneID {
            // A zone of the token's that no longer exists was deleted (perhaps created again under
            // its name): its token has expired, as CloudKit says of a re-created zone's.
            let zones = try await Self.blocking { () throws(RecordError) in try database.database.zones() }
            guard token.zone == 0 || zones.contains(where: { $0.id == token.zone }) else {
                throw CloudKitError(
                    .changeTokenExpired, "the syncToken is of a zone that was deleted since; fetch the changes again without one to rebuild the copy")
            }
            throw CloudKitError(.badRequest, "the syncToken belongs to another zone; send the syncToken of this zone's last answer, or none to start over")
        }
        // Read as the caller: the engine leaves out records the grants do not let it read. Each
        // saved record is encoded in the same snapshot, with its authors, as records/lookup does.
        let (page, records) = try await CloudKitStore(database: zone.database, access: access).read { transaction in
            let page = try transaction.changePage(changes.feed)
            let authors = try transaction.authors(
                of: page.entries.compactMap { entry in
                    if case .saved(let record, _) = entry { record.recordName } else { nil }
                })
            let records = page.entries.map { entry -> JSONValue in
                switch entry {
                case .saved(let record, _):
                    return CloudKitRecord.encode(
                        record, type: transaction.schema.recordType(named: record.recordType), form: changes.form,
                        authors: authors.of(record.recordName), zone: zone.zone.name, assetURL: assetURL)
                case .deleted(let recordName, let recordType):
                    return CloudKitRecord.deleted(recordName: recordName, recordType: recordType)
                }
            }
            return (page, records)
        }
        var next = page.next
        next.zone = zoneID
        return Self.json(
            .object([
                "zoneID": CloudKitZone.zoneID(zone.zone.name), "records": .array(CloudKitZone.stamped(records, zone: zone.zone.name)),
                "syncToken": .string(next.text), "moreComing": .bool(page.moreComing),
            ]))
    }
}
