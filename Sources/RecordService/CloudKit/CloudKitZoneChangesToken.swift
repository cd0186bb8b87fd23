import Foundation
import RecordKit

/// The database-wide sync token of `zones/changes`: where the change feed of every zone stood
/// (zone id, the identity of its change log, last sequence number, name). Opaque to clients:
/// base64url text. A token is its database's alone: the logs' identities tell another
/// database's token (or one of a copy restored from a backup), which then has expired.
struct CloudKitZoneChangesToken: Sendable, Equatable {
    struct Position: Sendable, Equatable {
        var id: Int64
        /// The identity of the zone's change log (``ChangeToken/log``).
        var log: String
        var name: String
        var sequence: Int64
    }

    var positions: [Position]

    private static let prefix = "shop-zones.2."
    /// The prefix of the tokens before they named the logs; they have expired.
    private static let unboundPrefix = "shop-zones.1."

    func position(of id: Int64) -> Position? {
        positions.first { $0.id == id }
    }

    /// The token of now: every zone of `database` at the end of its change log.
    static func current(of database: RecordDatabase) throws(RecordError) -> CloudKitZoneChangesToken {
        var positions: [Position] = []
        for zone in try database.zones() {
            let records = try database.zone(zone.name).database
            let end: ChangeToken
            do {
                end = try records.read { try $0.changeLogEnd() }
            } catch {
                throw error as? RecordError ?? RecordError(wrapping: error)
            }
            positions.append(Position(id: zone.id, log: end.log ?? "", name: zone.name, sequence: end.sequence))
        }
        return CloudKitZoneChangesToken(positions: positions)
    }

    var text: String {
        // Zone names hold no ':' or ',' (``RecordZone/validate(_:)``).
        let body = positions.map { "\($0.id):\($0.sequence):\($0.log):\($0.name)" }.joined(separator: ",")
        return Base64URL.encode(Self.prefix + body)
    }

    /// The token a request's `syncToken` holds, checked against `now`, the database's token of
    /// now; `nil` when absent; `BAD_REQUEST` when it is not one this service issued;
    /// `CHANGE_TOKEN_EXPIRED` when it is another database's (the log of a zone both name
    /// differs), or one issued before tokens named their logs.
    static func parse(_ json: JSONValue?, now: CloudKitZoneChangesToken) throws(CloudKitError) -> CloudKitZoneChangesToken? {
        guard let json else { return nil }
        let invalid = CloudKitError(
            .badRequest, "syncToken is not a zones/changes token of this database; send the syncToken of an earlier answer, or none to list every zone")
        let expired = CloudKitError(
            .changeTokenExpired, "syncToken is not one of this database's zone lists (another database's, or too old); fetch every zone again without one")
        guard case .string(let text) = json, text.count <= 65_536 else { throw invalid }
        guard let decoded = Base64URL.decodeText(text) else { throw invalid }
        if decoded.hasPrefix(unboundPrefix) { throw expired }
        guard decoded.hasPrefix(prefix) else { throw invalid }
        var positions: [Position] = []
        for entry in decoded.dropFirst(prefix.count).split(separator: ",") {
            let parts = entry.split(separator: ":", maxSplits: 3)
            guard parts.count == 4, let id = Int64(parts[0]), let sequence = Int64(parts[1]) else { throw invalid }
            let position = Position(id: id, log: String(parts[2]), name: String(parts[3]), sequence: sequence)
            if let current = now.position(of: id), current.log != position.log { throw expired }
            positions.append(position)
        }
        return CloudKitZoneChangesToken(positions: positions)
    }
}
