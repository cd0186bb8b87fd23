import Foundation
import Hummingbird
import NIOCore
import RecordKit

/// `records/query` in CloudKit Web Services: one zone's records, or with `zoneWide` every
/// zone's, a page at a time.
extension CloudKitController {
    @Sendable func query(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let access = try context.requireAccess()
        let database = try context.requireDatabase()
        let body = try await Self.body(of: request, context: context)
        let assetURL = try Self.assetURL(request, context: context)
        if try CloudKitQueryRequest.isZoneWide(body) {
            // Even while the default zone is the only one, so that a continuationMarker goes on
            // reading every zone when another is created between pages.
            let zones = try await Self.blocking { () throws(RecordError) in try database.database.zones() }
            return try await Self.zoneWideQuery(body, zones: zones, in: database.database, access: access, assetURL: assetURL)
        }
        let zone = try await CloudKitZone.resolve(body["zoneID"], in: database.database)
        let outcome = try await CloudKitStore(database: zone.database, access: access).read { transaction -> Result<ByteBuffer, CloudKitError> in
            do {
                let query = try CloudKitQueryRequest(body, schema: transaction.schema)
                let page = try Self.continuing { try transaction.page(query.query, after: query.continuationMarker) }
                let type = transaction.schema.recordType(named: query.query.recordType)
                let authors = try transaction.authors(of: page.records.map(\.recordName))
                let records = page.records.map { (record: $0, zone: zone.zone.name, authors: authors.of($0.recordName)) }
                return .success(Self.queryResponse(records, cursor: page.cursor, type: type, form: query.form, assetURL: assetURL))
            } catch let error as CloudKitError {
                return .failure(error)
            }
        }
        return Self.json(try outcome.get())
    }

    /// A zone-wide query: each zone's page read in a transaction of its own (a zone's records
    /// are a database of their own) and merged in the query's order (``ZoneWideQuery``), each
    /// record answered with its zone.
    private static func zoneWideQuery(
        _ body: JSONValue, zones: [RecordZone], in database: RecordDatabase, access: AccessPolicy, assetURL: @escaping @Sendable (Asset) -> String
    ) async throws -> Response {
        let schema = try await CloudKitStore(database: database, access: access).schema()
        let request = try CloudKitQueryRequest(body, schema: schema)
        let query = try continuing { try ZoneWideQuery(request.query, after: request.continuationMarker) }
        var pages: [(zone: RecordZone, page: PositionedPage)] = []
        var authors: [Int64: RecordAuthorship] = [:]
        for zone in zones {
            let start = query.cursor(of: zone)
            // A zone deleted since the list was read is left out, as the next page leaves it out
            // (one created again under its name is another zone, read from the next page on).
            guard let records = try await blocking({ () throws(RecordError) in try Self.database(of: zone, in: database) }) else { continue }
            let (page, zoneAuthors) = try await CloudKitStore(database: records, access: access).read { transaction in
                let page = try Self.continuing { try transaction.positionedPage(request.query, after: start) }
                return (page, try transaction.authors(of: page.records.map(\.record.recordName)))
            }
            pages.append((zone, page))
            authors[zone.id] = zoneAuthors
        }
        let page = query.merge(pages)
        let records = page.records.map { zone, record in (record: record, zone: zone.name, authors: authors[zone.id]?.of(record.recordName)) }
        return json(
            queryResponse(records, cursor: page.cursor, type: schema.recordType(named: request.query.recordType), form: request.form, assetURL: assetURL))
    }

    /// The database holding `zone`'s records, `nil` when the zone was deleted — also when a zone
    /// of its name was created again since, which is another zone.
    static func database(of zone: RecordZone, in database: RecordDatabase) throws(RecordError) -> RecordDatabase? {
        do {
            let current = try database.zone(zone.name)
            return current.zone.id == zone.id ? current.database : nil
        } catch  where error.reason == .unknownZone {
            return nil
        }
    }

    /// A `records/query` response: the records, each written with its zone and authors, and the
    /// `continuationMarker` of the next page when there is one — its keys in sorted order, the
    /// records written straight into its body.
    private static func queryResponse(
        _ records: [(record: Record, zone: String, authors: (createdBy: String, modifiedBy: String)?)], cursor: String?, type: RecordType?,
        form: CloudKitRecordForm, assetURL: @Sendable (Asset) -> String
    ) -> ByteBuffer {
        var json = JSONBuffer(capacity: 256 + 512 * records.count)
        json.raw("{")
        if let cursor {
            json.raw("\"continuationMarker\":")
            json.string(cursor)
            json.raw(",")
        }
        json.raw("\"records\":[")
        for (index, entry) in records.enumerated() {
            if index > 0 { json.raw(",") }
            CloudKitRecord.write(entry.record, type: type, form: form, authors: entry.authors, zone: entry.zone, assetURL: assetURL, to: &json)
        }
        json.raw("]}")
        return json.byteBuffer
    }

    /// What `body` reads from a page's cursor; a marker the same query did not return is refused
    /// in CloudKit's words.
    private static func continuing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RecordError where error.reason == .invalidCursor {
            throw CloudKitError(
                .badRequest, "continuationMarker is not one this query returned; pass the continuationMarker of the previous response to the same query")
        }
    }
}
