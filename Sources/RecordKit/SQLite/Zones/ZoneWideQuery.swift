import Foundation

/// One page of a query over every zone of a database (CloudKit's zone-wide query).
///
/// Each zone's records live in a database of their own, so each zone's page is read in its own
/// transaction (``RecordTransaction/positionedPage(_:after:)``) from where the cursor left that
/// zone, and ``merge(_:)`` takes the page's records from those pages in the query's order. The
/// cursor of the next page holds each zone's position: a zone created after the first page is
/// read from its start, a deleted one is left out, and a zone deleted and created again under
/// its name is another zone.
public struct ZoneWideQuery: Sendable {
    /// Where a page reads a zone.
    public enum Position: Sendable, Hashable {
        /// From its first record.
        case start
        /// After the record this cursor of the zone's query names.
        case after(String)
        /// Nowhere: every record of the zone was in earlier pages.
        case exhausted
    }

    /// The query, whose limit is the page size.
    public let query: Query
    /// Each zone's position by ``key(of:)``; a zone not named starts at its first record.
    private let positions: [String: Position]

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

    /// Where this page reads `zone`.
    public func position(of zone: RecordZone) -> Position {
        positions[Self.key(of: zone)] ?? .start
    }

    /// The page: at most the query's limit of the records of `pages` — each zone's page read
    /// from its ``position(of:)``, every zone not exhausted given, in the database's order of
    /// zones — in the query's order (a tie goes to the zone given first), with the cursor of the
    /// next page, `nil` when every zone has given all its records.
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
        // Zones given no page were exhausted before (or deleted since): only the exhausted
        // ones are kept, so a deleted zone never keeps the cursor alive.
        var following = positions.filter { $0.value == .exhausted }
        for (index, (zone, page)) in pages.enumerated() {
            following[Self.key(of: zone)] = position(of: zone, after: taken[index], of: page)
        }
        let isDone = following.values.allSatisfy { $0 == .exhausted }
        return ZoneWidePage(records: records, cursor: isDone ? nil : Self.encoded(following, for: query))
    }

    /// Where the next page reads `zone` once this page took `count` records of its `page`.
    private func position(of zone: RecordZone, after count: Int, of page: PositionedPage) -> Position {
        if count == page.records.count && !page.hasMore { return .exhausted }
        if count > 0 { return .after(page.records[count - 1].cursor) }
        return position(of: zone)
    }

    /// A zone's name in a cursor: its id and name, so a zone created again is another zone.
    private static func key(of zone: RecordZone) -> String { "\(zone.id):\(zone.name)" }

    /// The cursor's text: `{"q": fingerprint, "z": {zone: cursor, "" for the start, or null}}` as
    /// JSON in base64url without padding.
    private static func encoded(_ positions: [String: Position], for query: Query) -> String {
        var json = "{\"q\":"
        JSONText.append(PageCursor.fingerprint(of: query), to: &json)
        json += ",\"z\":{"
        for (index, (zone, position)) in positions.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { json += "," }
            JSONText.append(zone, to: &json)
            json += ":"
            switch position {
            case .start: json += "\"\""
            case .after(let cursor): JSONText.append(cursor, to: &json)
            case .exhausted: json += "null"
            }
        }
        json += "}}"
        return Base64URL.encode(json)
    }

    private static func positions(decoding text: String, for query: Query) throws(RecordError) -> [String: Position] {
        guard let data = Base64URL.decode(text), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let fingerprint = object["q"] as? String, fingerprint == PageCursor.fingerprint(of: query),
            let zones = object["z"] as? [String: Any]
        else {
            throw PageCursor.invalid(for: query)
        }
        var positions: [String: Position] = [:]
        for (zone, value) in zones {
            switch value {
            case is NSNull: positions[zone] = .exhausted
            case let cursor as String: positions[zone] = cursor.isEmpty ? .start : .after(cursor)
            default:
                throw PageCursor.invalid(for: query)
            }
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
