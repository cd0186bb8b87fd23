import Crypto
import Foundation
import RecordKit

/// Where a principal's transaction IDs are stored in a database: each is kept under a prefix
/// derived from the principal, so the keys of different credentials' principals never meet,
/// and listing shows a principal its own keys only.
public struct TransactionScope: Sendable, Hashable {
    /// The prefix of the principal's stored IDs: 16 hex characters of the SHA-256 of its key, and `/`.
    public let prefix: String

    public init(_ principal: Principal) {
        prefix = HexDigits.lowercase(SHA256.hash(data: Data(principal.key.utf8)).prefix(8)) + "/"
    }

    /// The stored ID of the client's `id`.
    public func storedID(_ id: String) -> String { prefix + id }

    /// The client's ID of a stored one, `nil` when it belongs to another principal.
    public func clientID(_ storedID: String) -> String? {
        storedID.hasPrefix(prefix) ? String(storedID.dropFirst(prefix.count)) : nil
    }
}
