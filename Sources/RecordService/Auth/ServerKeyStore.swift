public import Crypto
import Foundation
public import RecordKit

/// The server-to-server keys of a data folder (CloudKit's), in the accounts database
/// (``AccountsDatabase``): record type `ServerKeys`, one record per key ID with its P-256 public
/// key in PEM. Only public keys are kept; the private key stays with the back end that signs.
public final class ServerKeyStore: Sendable {
    private let database: RecordDatabase

    /// The store over `accounts`, an opened ``AccountsDatabase``.
    init(accounts: RecordDatabase) {
        database = accounts
    }

    /// The store of `folder`'s accounts database.
    public convenience init(folder: DataFolder) throws(RecordError) {
        self.init(accounts: try AccountsDatabase.open(folder))
    }

    /// Registers `pem`, a P-256 public key in PEM, under `keyID`.
    ///
    /// - Throws: `invalidArguments` for a key ID that is empty, longer than 128 bytes or holds
    ///   other than letters, digits, `-` and `_`, or a PEM that is not a P-256 public key;
    ///   `serverRecordChanged` when the key ID is registered already.
    public func add(keyID: String, pem: String) throws(RecordError) {
        try Self.checkKeyID(keyID)
        do {
            _ = try P256.Signing.PublicKey(pemRepresentation: pem)
        } catch {
            throw RecordError(.invalidArguments, "the file is not a P-256 public key in PEM (make one with: openssl ec -in key.pem -pubout)")
        }
        let record = Record("ServerKeys", recordName: "key-" + keyID, fields: ["keyID": .string(keyID), "publicKey": .string(pem)])
        do {
            _ = try database.modify([.create(record)])
        } catch let error where error.code == .serverRecordChanged {
            throw RecordError(.serverRecordChanged, "the key ID '\(keyID)' is registered already; choose another")
        }
    }

    /// The registered key IDs, in order.
    public func keyIDs() throws(RecordError) -> [String] {
        try database.records(matching: Query("ServerKeys", sort: [SortDescriptor("keyID")])).compactMap { record in
            if case .string(let keyID)? = record.fields["keyID"] { keyID } else { nil }
        }
    }

    /// Forgets the key registered under `keyID`: requests signed with it are refused from the
    /// next one on (a running service reads the key for every signed request).
    ///
    /// - Throws: `unknownItem` when no key has that ID.
    public func remove(keyID: String) throws(RecordError) {
        guard (try? Self.checkKeyID(keyID)) != nil, try database.fetch(recordName: "key-" + keyID) != nil else {
            throw RecordError(.unknownItem, "there is no key '\(keyID)'; list them with: shop key list")
        }
        _ = try database.modify([.delete(recordName: "key-" + keyID)])
    }

    /// The public key registered under `keyID`, or `nil`.
    public func publicKey(keyID: String) throws(RecordError) -> P256.Signing.PublicKey? {
        guard (try? Self.checkKeyID(keyID)) != nil, let record = try database.fetch(recordName: "key-" + keyID),
            case .string(let pem)? = record.fields["publicKey"]
        else { return nil }
        return try? P256.Signing.PublicKey(pemRepresentation: pem)
    }

    static func checkKeyID(_ keyID: String) throws(RecordError) {
        let allowed = keyID.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 45 || byte == 95
        }
        guard (1...128).contains(keyID.utf8.count), allowed else {
            throw RecordError(.invalidArguments, "a key ID is 1 to 128 letters, digits, '-' or '_'; '\(keyID)' is not one")
        }
    }
}
