public import Foundation
public import RecordKit

/// What `shop token list` shows of a token: never the token, which is not kept.
public struct TokenInfo: Sendable, Hashable {
    public var label: String
    public var principal: Principal
    public var createdAt: Date?
}

/// The tokens of a data folder, kept as SHA-256 digests in the accounts database
/// (``AccountsDatabase``): record type `Tokens`, one record per token named by its digest.
public final class TokenStore: Sendable {
    private let database: RecordDatabase
    /// The principals of tokens checked moments ago (``cachedPrincipal(for:)``).
    private let recentlyChecked = PrincipalCache()

    /// The store of the data folder `folder`, created when new.
    public convenience init(folder: DataFolder) throws(RecordError) {
        self.init(accounts: try AccountsDatabase.open(folder))
    }

    /// The store over `accounts`, an opened ``AccountsDatabase``.
    init(accounts: RecordDatabase) {
        database = accounts
    }

    /// Creates a token for `principal` under `label` (a generated one when `nil`) and returns it:
    /// the only time its text is known.
    ///
    /// - Throws: `invalidArguments` when the label is empty or longer than 255 bytes,
    ///   `transactionConflict` when another token has it.
    public func create(for principal: Principal, label: String? = nil) throws -> (token: AccessToken, info: TokenInfo) {
        let token = AccessToken.generate()
        let label = label ?? Self.generatedLabel(for: principal, digest: token.digest)
        guard !label.isEmpty, label.utf8.count <= 255 else {
            throw RecordError(.invalidArguments, "a token label must be 1 to 255 bytes long")
        }
        var fields: [String: Value] = ["label": .string(label)]
        switch principal.kind {
        case .admin: fields["kind"] = .string("admin")
        case .world: fields["kind"] = .string("api")
        case .user(let name):
            fields["kind"] = .string("user")
            fields["user"] = .string(name)
        case .serverKey:
            throw RecordError(.invalidArguments, "a server-to-server key signs its requests; it has no token")
        }
        let saved = try database.write { transaction in
            let existing = try transaction.records(matching: Query("Tokens", predicate: .compare(key: "label", .equal, .string(label))))
            guard existing.isEmpty else {
                throw RecordError(
                    .transactionConflict, "a token labelled '\(label)' exists; choose another --label or revoke it with: shop token revoke \(label)")
            }
            return try transaction.apply(.create(Record("Tokens", recordName: token.digest, fields: fields))).record
        }
        return (token, TokenInfo(label: label, principal: principal, createdAt: saved?.createdAt))
    }

    /// Every token, by label.
    public func list() throws(RecordError) -> [TokenInfo] {
        try database.records(matching: Query("Tokens", sort: [SortDescriptor("label")])).compactMap(Self.info)
    }

    /// Forgets the token labelled `label`: requests bearing it fail from now on.
    ///
    /// - Throws: `unknownItem` when no token has that label.
    public func revoke(label: String) throws {
        try database.write { transaction in
            let found = try transaction.records(matching: Query("Tokens", predicate: .compare(key: "label", .equal, .string(label))))
            guard !found.isEmpty else {
                throw RecordError(.unknownItem, "there is no token labelled '\(label)'; list them with: shop token list")
            }
            for record in found { _ = try transaction.apply(.delete(recordName: record.recordName)) }
        }
        recentlyChecked.removeAll()
    }

    /// The principal `token` stands for, or `nil` when it is unknown or revoked, read from the
    /// accounts database.
    public func principal(for token: AccessToken) throws(RecordError) -> Principal? {
        let digest = token.digest
        let checkedAt = ContinuousClock.now
        guard let record = try database.fetch(recordName: digest), AccessToken.constantTimeEqual(record.recordName, digest),
            let principal = Self.info(record)?.principal
        else {
            return nil
        }
        recentlyChecked.remember(principal, digest: digest, checkedAt: checkedAt)
        return principal
    }

    /// The principal of `token` when ``principal(for:)`` found it less than a second ago,
    /// without reading the database; `nil` when it must be read. A token revoked through this
    /// store is read again at once; one revoked by another process within a second.
    public func cachedPrincipal(for token: AccessToken) -> Principal? {
        recentlyChecked.principal(digest: token.digest)
    }

    private static func info(_ record: Record) -> TokenInfo? {
        guard case .string(let label) = record.fields["label"], case .string(let kind) = record.fields["kind"] else { return nil }
        let principal: Principal
        switch kind {
        case "admin": principal = .admin
        case "api": principal = .world
        case "user":
            guard case .string(let name) = record.fields["user"] else { return nil }
            principal = .user(name)
        default: return nil
        }
        return TokenInfo(label: label, principal: principal, createdAt: record.createdAt)
    }

    private static func generatedLabel(for principal: Principal, digest: String) -> String {
        let prefix: String
        switch principal.kind {
        case .admin: prefix = "admin"
        case .world: prefix = "api"
        case .user(let name): prefix = name
        case .serverKey(let id): prefix = id
        }
        return prefix + "-" + digest.prefix(8)
    }
}
