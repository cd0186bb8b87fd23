/// Who a request acts as, resolved from its credential.
///
/// An admin may do everything; a user acts as that user, with CloudKit's roles `_icloud` and
/// `_creator`, and owns a private database; an API token alone is `_world`, which reads the
/// public database as the grants allow and writes nothing; a server-to-server key acts as the
/// owner of the public databases (and has no private database).
public struct Principal: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case admin
        case user(name: String)
        case world
        /// A request signed with a registered server-to-server key.
        case serverKey(id: String)
    }

    public var kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public static let admin = Principal(.admin)
    public static let world = Principal(.world)
    public static func user(_ name: String) -> Principal { Principal(.user(name: name)) }

    /// The CloudKit roles the principal holds, as schema grants name them.
    public var roles: Set<String> {
        switch kind {
        case .admin, .serverKey: ["_world", "_icloud", "_creator"]
        case .user: ["_world", "_icloud", "_creator"]
        case .world: ["_world"]
        }
    }

    public var isAdmin: Bool { kind == .admin }

    /// Whether the principal may write to public databases.
    public var mayWrite: Bool { kind != .world }

    /// A stable key naming the principal: what idempotency keys and stored transactions belong to.
    public var key: String {
        switch kind {
        case .admin: "_admin"
        case .user(let name): "user:" + name
        case .world: "_world"
        case .serverKey(let id): "key:" + id
        }
    }

    public var description: String {
        switch kind {
        case .admin: "admin"
        case .user(let name): "user \(name)"
        case .world: "_world (API token)"
        case .serverKey(let id): "server-to-server key \(id)"
        }
    }
}
