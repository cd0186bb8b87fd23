import RecordKit

/// A `records/query` request: `query` (`recordType`, `filterBy`, `sortBy`), `resultsLimit`,
/// `continuationMarker`, `desiredKeys` and `zoneID`, read against the schema into the engine's
/// ``Query`` and the page to fetch.
struct CloudKitQueryRequest {
    /// CloudKit's most records in one response; also the page size when `resultsLimit` is absent.
    static let maximumResults = 200

    var query: Query
    /// Where the page starts: the `continuationMarker` of the previous response.
    var continuationMarker: String?
    /// The fields to return, or `nil` for all of them.
    var desiredKeys: Set<String>?

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
        self.query = Query(
            typeName,
            predicate: try CloudKitFilter.predicate(query["filterBy"], on: type),
            sort: try CloudKitSort.descriptors(query["sortBy"], on: type),
            limit: limit
        )
        switch body["continuationMarker"] {
        case nil: continuationMarker = nil
        case .string(let marker)?: continuationMarker = marker
        case let other?: throw CloudKitError(.badRequest, "continuationMarker must be the string a previous response returned, not \(other.kindName)")
        }
        desiredKeys = try Self.desiredKeys(body["desiredKeys"])
    }

    /// The `desiredKeys` array as a set of field names.
    static func desiredKeys(_ json: JSONValue?) throws(CloudKitError) -> Set<String>? {
        guard let json else { return nil }
        guard case .array(let keys) = json else {
            throw CloudKitError(.badRequest, "desiredKeys must be an array of field names, not \(json.kindName)")
        }
        var names = Set<String>()
        for key in keys {
            guard case .string(let name) = key else {
                throw CloudKitError(.badRequest, "desiredKeys must hold field names (strings), not \(key.kindName)")
            }
            names.insert(name)
        }
        return names
    }
}
