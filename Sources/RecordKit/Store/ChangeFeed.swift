import Foundation

/// A position in the change feed, handed to clients as opaque text (CloudKit's `syncToken`).
///
/// A token names the last log entry its holder has seen, in the log that issued it: each
/// database file, and each custom zone's file, has a log of its own with its own identity
/// (``log``), and a token of another log is refused rather than read at positions that mean
/// nothing here. The text is versioned so that another encoding can come later; text this
/// engine did not issue is refused, never guessed at.
public struct ChangeToken: Sendable, Hashable, CustomStringConvertible {
    /// The sequence number of the last change the holder has seen; 0 before any.
    public var sequence: Int64
    /// The id of the zone whose feed it is (``RecordZone/id``); 0 for the default zone.
    public var zone: Int64
    /// The identity of the change log that issued it (16 lowercase hexadecimal digits); `nil`
    /// for a token made without one, which any log reads at its position.
    public var log: String?
    /// The log's floor when the token was issued, for a token below it: a fetch from the start
    /// pages through what pruning kept under the floor, and may go on from there as long as
    /// the floor has not moved (nothing was pruned since). `nil` for a token at or above it.
    public var floor: Int64?

    public init(sequence: Int64, zone: Int64 = 0, log: String? = nil, floor: Int64? = nil) {
        self.sequence = sequence
        self.zone = zone
        self.log = log
        self.floor = floor
    }

    private static let prefix = "shop-changes.1."

    /// The opaque text of the token: base64url, no padding.
    public var text: String {
        var body = String(sequence)
        if let floor {
            body += ".\(zone).\(log ?? "").\(floor)"
        } else if let log {
            body += ".\(zone).\(log)"
        } else if zone != 0 {
            body += ".\(zone)"
        }
        return Base64URL.encode(Self.prefix + body)
    }

    public var description: String { text }

    /// The token whose ``text`` is `text`; `invalidArguments` when it is not one this engine issued.
    public init(text: String) throws(RecordError) {
        let parts =
            text.count <= 160
            ? Base64URL.decodeText(text).flatMap { decoded in
                decoded.hasPrefix(Self.prefix) ? decoded.dropFirst(Self.prefix.count).split(separator: ".", omittingEmptySubsequences: false) : nil
            } : nil
        guard let parts, (1...4).contains(parts.count), let sequence = Int64(parts[0]), sequence >= 0,
            let zone = parts.count >= 2 ? Int64(parts[1]) : 0, zone >= 0,
            parts.count < 3 || Self.isIdentity(parts[2]) || (parts.count == 4 && parts[2].isEmpty),
            let floor = parts.count == 4 ? Int64(parts[3]) : 0, floor > sequence || parts.count < 4
        else {
            throw RecordError(
                .invalidArguments,
                "'\(text.prefix(80))' is not a change token of this database; send the token of an earlier answer, or none to fetch every change from the start"
            )
        }
        self.sequence = sequence
        self.zone = zone
        self.log = parts.count >= 3 && !parts[2].isEmpty ? String(parts[2]) : nil
        self.floor = parts.count == 4 ? floor : nil
    }

    /// Whether `text` is a log identity: 16 lowercase hexadecimal digits.
    private static func isIdentity(_ text: Substring) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// What one page of the change feed asks for (``RecordRead/changes(_:)``).
public struct ChangeFeedRequest: Sendable, Hashable {
    /// The position to continue after; `nil` fetches from the start (every record that exists).
    public var after: ChangeToken?
    /// The most entries the page holds, at least 1.
    public var limit: Int
    /// Only changes of these record types; `nil` for all.
    public var recordTypes: Set<String>?
    /// Builds each saved record's JSON with the projection of its record type (the query
    /// language's selection); a saved record of a type without one carries no JSON.
    public var projections: [String: Projection]

    public init(after: ChangeToken?, limit: Int, recordTypes: Set<String>? = nil, projections: [String: Projection] = [:]) {
        self.after = after
        self.limit = limit
        self.recordTypes = recordTypes
        self.projections = projections
    }
}

/// One page of the change feed: for every record changed after the request's token (up to the
/// limit), its state now — the saved record, or a tombstone when it no longer exists — in the
/// order of its last change; then the token to continue from.
///
/// Applying pages in order from any token brings a copy of the database to its current state:
/// each page says where every record it names stands now, and ``next`` is past every change
/// the page accounts for.
public struct ChangePage: Sendable, Hashable {
    /// One record's state.
    public enum Entry: Sendable, Hashable {
        /// The record as it is now, with its JSON when the request had a projection for its type.
        case saved(Record, json: String?)
        /// The record no longer exists; it was of `recordType`.
        case deleted(recordName: String, recordType: String)

        public var recordName: String {
            switch self {
            case .saved(let record, _): record.recordName
            case .deleted(let recordName, _): recordName
            }
        }

        public var recordType: String {
            switch self {
            case .saved(let record, _): record.recordType
            case .deleted(_, let recordType): recordType
            }
        }
    }

    public var entries: [Entry]
    /// The token to ask the next page with.
    public var next: ChangeToken
    /// Whether changes after ``next`` were already there when the page was read.
    public var moreComing: Bool

    public init(entries: [Entry], next: ChangeToken, moreComing: Bool) {
        self.entries = entries
        self.next = next
        self.moreComing = moreComing
    }
}
