import RecordKit

/// A `records/query` request: `query` (`recordType`, `filterBy`, `sortBy`), `resultsLimit`,
/// `continuationMarker`, `desiredKeys`, `numbersAsStrings`, `zoneID` and `zoneWide`, read against the schema into the engine's
/// ``Query`` and the page to fetch.
struct CloudKitQueryRequest {
    /// CloudKit's most records in one response; also the page size when `resultsLimit` is absent.
    static let maximumResults = 200

    var query: Query
    /// Where the page starts: the `continuationMarker` of the previous response.
    var continuationMarker: String?
    /// How the records are written.
    var form: CloudKitRecordForm

    /// Whether `body` asks for a query of every zone (`zoneWide`, which a `zoneID` overrides).
    static func isZoneWide(_ body: JSONValue) throws(CloudKitError) -> Bool {
        (try JSONValue.flag(body["zoneWide"], key: "zoneWide") ?? false) && body["zoneID"] == nil
    }

    init(_ body: JSONValue, schema: Schema) throws(CloudKitError) {
        guard case .object = body else {
            throw CloudKitError(.badRequest, "the request body must be a JSON object with a query")
        }
        _ = try CloudKitZone.name(body["zoneID"])
        guard let query = body["query"], case .object = query else {
            throw CloudKitError(.badRequest, "records/query needs a query dictionary such as {\"recordType\": \"Items\"}")
        }
        guard case .string(let typeName)? = query["recordType"] else {
            throw CloudKitError(.badRequest, "query.recordType must name a record type")
        }
        guard let type = schema.recordType(named: typeName) else {
            throw CloudKitError(
                .badRequest, "there is no record type \(typeName.debugDescription); known types: \(schema.recordTypes.map(\.name).joined(separator: ", "))",
                recordType: typeName)
        }
        var limit = Self.maximumResults
        switch body["resultsLimit"] {
        case nil: break
        case .integer(let number)? where number > 0: limit = Int(min(number, Int64(Self.maximumResults)))
        case let other?:
            throw CloudKitError(.badRequest, "resultsLimit must be a positive integer, not \(other.serialized)")
        }
        form = try CloudKitRecordForm(body)
        self.query = Query(
            typeName,
            predicate: try CloudKitFilter.predicate(query["filterBy"], on: type, numbersAsStrings: form.numbersAsStrings),
            sort: try CloudKitSort.descriptors(query["sortBy"], on: type),
            limit: limit
        )
        switch body["continuationMarker"] {
        case nil: continuationMarker = nil
        case .string(let marker)?: continuationMarker = marker
        case let other?: throw CloudKitError(.badRequest, "continuationMarker must be the string a previous response returned, not \(other.kindName)")
        }
    }
}
