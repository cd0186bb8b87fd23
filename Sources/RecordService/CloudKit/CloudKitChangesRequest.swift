import RecordKit

/// A `records/changes` request: `zoneID`, `syncToken` (absent: from the start), `resultsLimit`,
/// `desiredKeys` and `desiredRecordTypes`, read into the engine's ``ChangeFeedRequest``.
struct CloudKitChangesRequest {
    var feed: ChangeFeedRequest
    /// The fields to return, or `nil` for all of them.
    var form: CloudKitRecordForm

    init(_ body: JSONValue) throws(CloudKitError) {
        guard case .object = body else {
            throw CloudKitError(.badRequest, "the request body must be a JSON object such as {\"zoneID\": {\"zoneName\": \"_defaultZone\"}}")
        }
        _ = try CloudKitZone.name(body["zoneID"])
        let token = try Self.syncToken(body["syncToken"])
        var limit = CloudKitQueryRequest.maximumResults
        switch body["resultsLimit"] {
        case nil: break
        case .integer(let number)? where number > 0: limit = Int(min(number, Int64(CloudKitQueryRequest.maximumResults)))
        case let other?:
            throw CloudKitError(.badRequest, "resultsLimit must be a positive integer, not \(other.serialized)")
        }
        let recordTypes = try JSONValue.names(body["desiredRecordTypes"], key: "desiredRecordTypes", naming: "record type names")
        feed = ChangeFeedRequest(after: token, limit: limit, recordTypes: recordTypes)
        form = try CloudKitRecordForm(body)
    }

    /// The `syncToken` member as the engine's token; `nil` when absent (from the start).
    static func syncToken(_ json: JSONValue?) throws(CloudKitError) -> ChangeToken? {
        switch json {
        case nil: return nil
        case .string(let text)?:
            do {
                return try ChangeToken(text: text)
            } catch {
                throw CloudKitError(.badRequest, error.message)
            }
        case let other?:
            throw CloudKitError(.badRequest, "syncToken must be the string a previous response returned, not \(other.kindName)")
        }
    }
}
