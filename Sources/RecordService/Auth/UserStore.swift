import Crypto
import Foundation
import HummingbirdBcrypt
public import RecordKit

/// The users of a data folder, in the accounts database (``AccountsDatabase``): record type
/// `Users`, one record per user with its bcrypt password hash (never the password) and whether
/// other users may discover it (`users/discover`).
///
/// Hashing and verifying are slow on purpose (bcrypt); callers on an event loop run them on the
/// blocking pool (``BlockingWork``).
public final class UserStore: Sendable {
    private let database: RecordDatabase
    /// bcrypt's cost: 2^cost rounds.
    let cost: UInt8

    /// The most bytes of a password bcrypt reads; longer ones are refused rather than cut.
    public static let maximumPasswordLength = 72
    /// The fewest characters of a password.
    public static let minimumPasswordLength = 8

    /// The store over `accounts`, an opened ``AccountsDatabase``.
    init(accounts: RecordDatabase, cost: UInt8 = 10) {
        database = accounts
        self.cost = cost
    }

    /// The store of `folder`'s accounts database.
    public convenience init(folder: DataFolder) throws(RecordError) {
        self.init(accounts: try AccountsDatabase.open(folder))
    }

    /// Adds the user `name` with `password` (kept as its bcrypt hash only).
    ///
    /// - Throws: `invalidArguments` for a password shorter than ``minimumPasswordLength`` or
    ///   longer than ``maximumPasswordLength`` bytes; `serverRecordChanged` when the user exists.
    public func add(_ name: UserName, password: String, discoverable: Bool = false) throws(RecordError) {
        try Self.checkPassword(password)
        let hash = Bcrypt.hash(password, cost: cost)
        let record = Record(
            "Users", recordName: Self.recordName(name),
            fields: ["name": .string(name.text), "passwordHash": .string(hash), "discoverable": .int64(discoverable ? 1 : 0)]
        )
        do {
            _ = try database.modify([.create(record)])
        } catch let error where error.code == .serverRecordChanged {
            throw RecordError(.serverRecordChanged, "there is a user named '\(name)' already; choose another name")
        }
    }

    /// Whether the user `name` exists.
    public func exists(_ name: UserName) throws(RecordError) -> Bool {
        try database.fetch(recordName: Self.recordName(name)) != nil
    }

    /// Whether `password` is the password of the user `name`; false for an unknown user, after
    /// the same work as for a known one, so timing does not tell which names exist.
    public func verify(_ name: UserName, password: String) throws(RecordError) -> Bool {
        let record = try database.fetch(recordName: Self.recordName(name))
        guard case .string(let hash)? = record?.fields["passwordHash"] else {
            _ = Bcrypt.verify(password, hash: Self.decoyHash)
            return false
        }
        return Bcrypt.verify(password, hash: hash)
    }

    /// The users who allowed others to discover them, by name.
    public func discoverable() throws(RecordError) -> [UserName] {
        let query = Query("Users", predicate: .compare(key: "discoverable", .equal, .integer(1)), sort: [SortDescriptor("name")])
        return try database.records(matching: query).compactMap { record in
            guard case .string(let name)? = record.fields["name"] else { return nil }
            return try? UserName(name)
        }
    }

    /// Refuses a password bcrypt would cut or that is too short to resist guessing.
    static func checkPassword(_ password: String) throws(RecordError) {
        guard password.count >= minimumPasswordLength else {
            throw RecordError(.invalidArguments, "a password needs at least \(minimumPasswordLength) characters")
        }
        guard password.utf8.count <= maximumPasswordLength else {
            throw RecordError(.invalidArguments, "a password is at most \(maximumPasswordLength) bytes long (bcrypt reads no more)")
        }
    }

    /// The record of the user `name`: named by the SHA-256 of the name, so any name fits.
    private static func recordName(_ name: UserName) -> String {
        "user-" + HexDigits.lowercase(SHA256.hash(data: Data(name.text.utf8)))
    }

    /// A hash verified against when the user is unknown, to spend the same time as for a known one.
    private static let decoyHash = Bcrypt.hash("decoy password of no user", cost: 10)
}
