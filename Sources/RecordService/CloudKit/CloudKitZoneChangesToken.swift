import Foundation
import RecordKit

/// The database-wide sync token of `zones/changes`: where the change feed of every zone stood
/// (zone id, name, last sequence number). Opaque to clients: base64url text.
struct CloudKitZoneChangesToken: Sendable, Equatable {
    struct Position: Sendable, Equatable {
        var id: Int64
        var name: String
        var sequence: Int64
    }

    var positions: [Position]

    private static let prefix = "shop-zones.1."

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
            positions.append(Position(id: zone.id, name: zone.name, sequence: end.sequence))
        }
        return CloudKitZoneChangesToken(positions: positions)
    }

    var text: String {
        // Zone names hold no ':' or ',' (``RecordZone/validate(_:)``).
        let body = positions.map { "\($0.id):\($0.sequence):\($0.name)" }.joined(separator: ",")
        return Base64URL.encode(Self.prefix + body)
    }

    /// The token a request's `syncToken` holds; `nil` when absent; `BAD_REQUEST` when it is not
    /// one this service issued.
    static func parse(_ json: JSONValue?) throws(CloudKitError) -> CloudKitZoneChangesToken? {
        guard let json else { return nil }
        let invalid = CloudKitError(
            .badRequest, "syncToken is not a zones/changes token of this database; send the syncToken of an earlier answer, or none to list every zone")
        guard case .string(let text) = json, text.count <= 65_536 else { throw invalid }
        guard let decoded = Base64URL.decodeText(text), decoded.hasPrefix(prefix) else { throw invalid }
        var positions: [Position] = []
        for entry in decoded.dropFirst(prefix.count).split(separator: ",") {
            let parts = entry.split(separator: ":", maxSplits: 2)
            guard parts.count == 3, let id = Int64(parts[0]), let sequence = Int64(parts[1]) else { throw invalid }
            positions.append(Position(id: id, name: String(parts[2]), sequence: sequence))
        }
        return CloudKitZoneChangesToken(positions: positions)
    }
}
