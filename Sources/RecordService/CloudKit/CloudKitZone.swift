/// Record zones. Every database has CloudKit's default zone, `_defaultZone`, and no other yet:
/// a request naming another zone gets `ZONE_NOT_FOUND`.
enum CloudKitZone {
    static let defaultZoneName = "_defaultZone"
    /// CloudKit's name for the current user as a zone owner (`CKCurrentUserDefaultName`).
    static let defaultOwnerName = "__defaultOwner__"

    /// The zone ID dictionary of the default zone.
    static var defaultZoneID: JSONValue {
        .object(["zoneName": .string(defaultZoneName), "ownerRecordName": .string(defaultOwnerName)])
    }

    /// The zone dictionary `zones/list` and `zones/lookup` return for the default zone: its ID
    /// and `atomic` (a batch in it is all or nothing).
    static var defaultZone: JSONValue {
        .object(["zoneID": defaultZoneID, "atomic": .bool(true)])
    }

    /// Throws `ZONE_NOT_FOUND` unless `zoneID` (a request's zone ID dictionary, absent for the
    /// default zone) names the default zone, or `BAD_REQUEST` when it is not a zone ID.
    static func requireDefault(_ zoneID: JSONValue?) throws(CloudKitError) {
        guard let zoneID else { return }
        guard case .object = zoneID else {
            throw CloudKitError(.badRequest, "zoneID must be a dictionary such as {\"zoneName\": \"_defaultZone\"}, not \(zoneID.kindName)")
        }
        switch zoneID["zoneName"] {
        case nil, .string(defaultZoneName)?: return
        case .string(let name)?:
            throw CloudKitError(.zoneNotFound, "there is no zone named \(name.debugDescription); records live in \(defaultZoneName)")
        case let other?:
            throw CloudKitError(.badRequest, "zoneID.zoneName must be a string, not \(other.kindName)")
        }
    }
}
