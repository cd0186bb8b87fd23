import Foundation

/// One page of a query over every zone of a database (CloudKit's zone-wide query).
///
/// Each zone's records live in a database of their own, so each zone's page is read in its own
/// transaction (``RecordTransaction/positionedPage(_:after:)``) from where the cursor left that
/// zone, and ``merge(_:)`` takes the page's records from those pages in the query's order. The
/// cursor of the next page holds each zone's position, so each zone pages as a query of one
/// zone does (a record saved after the position comes in a later page): a zone created after
/// the first page is read from its start, a deleted one is left out, and a zone deleted and
/// created again under its name is another zone.
public struct ZoneWideQuery: Sendable {
    /// The query, whose limit is the page size.
    public let query: Query
    /// The cursor each zone's page starts after, by ``key(of:)``; a zone not named starts at its
    /// first record.
    private let positions: [String: String]

    /// The page of `query` after `cursor` (the first page when `nil`).
    ///
    /// - Throws: ``RecordError`` `invalidArguments` for a query without a limit, or a cursor that
    ///   is not one of this query's pages (reason `invalidCursor`).
    public init(_ query: Query, after cursor: String? = nil) throws(RecordError) {
        guard query.limit != nil else {
            throw RecordError(.invalidArguments, "a paged query needs a limit (the page size)", recordType: query.recordType)
        }
        self.query = query
        positions = try cursor.map { text throws(RecordError) in try Self.positions(decoding: text, for: query) } ?? [:]
    }

    /// The cursor this page reads `zone` after (``RecordTransaction/positionedPage(_:after:)``),
    /// `nil` for its first record.
    public func cursor(of zone: RecordZone) -> String? {
        positions[Self.key(of: zone)]
    }

    /// The page: at most the query's limit of the records of `pages` — each zone's page read
    /// after its ``cursor(of:)``, every zone of the database given, in the database's order of
    /// zones — in the query's order (a tie goes to the zone given first), with the cursor of the
    /// next page, `nil` when this page holds the last record of every zone.
    public func merge(_ pages: [(zone: RecordZone, page: PositionedPage)]) -> ZoneWidePage {
        let limit = query.limit ?? 0
        var taken = Array(repeating: 0, count: pages.count)
        var records: [(zone: RecordZone, record: Record)] = []
        while records.count < limit {
            var next: Int?
            for (index, entry) in pages.enumerated() where taken[index] < entry.page.records.count {
                let candidate = entry.page.records[taken[index]]
                if let current = next, !candidate.precedes(pages[current].page.records[taken[current]]) { continue }
                next = index
            }
            guard let next else { break }
            records.append((pages[next].zone, pages[next].page.records[taken[next]].record))
            taken[next] += 1
        }
        // A zone given no page was deleted: it is left out of the next cursor.
        var following: [String: String] = [:]
        for (index, (zone, page)) in pages.enumerated() {
            following[Self.key(of: zone)] = taken[index] > 0 ? page.records[taken[index] - 1].cursor : cursor(of: zone)
        }
        let isDone = pages.indices.allSatisfy { taken[$0] == pages[$0].page.records.count && !pages[$0].page.hasMore }
        return ZoneWidePage(records: records, cursor: isDone ? nil : Self.encoded(following, for: query))
    }

    /// A zone's name in a cursor: its id and name, so a zone created again is another zone.
    private static func key(of zone: RecordZone) -> String { "\(zone.id):\(zone.name)" }

    /// The cursor's text: `{"q": fingerprint, "z": {zone: cursor}}` as JSON in base64url without
    /// padding.
    private static func encoded(_ positions: [String: String], for query: Query) -> String {
        var json = "{\"q\":"
        JSONText.append(PageCursor.fingerprint(of: query), to: &json)
        json += ",\"z\":{"
        for (index, (zone, cursor)) in positions.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { json += "," }
            JSONText.append(zone, to: &json)
            json += ":"
            JSONText.append(cursor, to: &json)
        }
        json += "}}"
        return Base64URL.encode(json)
    }

    private static func positions(decoding text: String, for query: Query) throws(RecordError) -> [String: String] {
        guard let data = Base64URL.decode(text), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let fingerprint = object["q"] as? String, fingerprint == PageCursor.fingerprint(of: query),
            let zones = object["z"] as? [String: Any]
        else {
            throw PageCursor.invalid(for: query)
        }
        var positions: [String: String] = [:]
        for (zone, value) in zones {
            guard let cursor = value as? String else { throw PageCursor.invalid(for: query) }
            positions[zone] = cursor
        }
        return positions
    }
}

/// A page of a ``ZoneWideQuery``: its records, each with its zone, in the query's order, and the
/// cursor of the next page (`nil` on the last).
public struct ZoneWidePage: Sendable {
    public var records: [(zone: RecordZone, record: Record)]
    public var cursor: String?
}
