/// Who a unit of work acts for, and so which records it may read, create and write: the one
/// implementation of CloudKit's security roles, applied by the engine to every read (as part of
/// the query's predicate: what may not be read is filtered out, never refused) and to every
/// write (refused with `permissionFailure`, or `unknownItem` for a record that may not even be
/// read), whichever API the work comes from.
///
/// The rules are the record type's GRANT lines (``RecordType/effectiveGrants``): `READ`,
/// `CREATE` and `WRITE` (update and delete; it implies `READ`) to the system roles `_world`
/// (anyone), `_icloud` (any signed-in user) and `_creator` (the user who created the record).
/// A signed-in user holds all three; an anonymous caller (an API token) holds `_world` only and
/// never writes, as in CloudKit. Custom roles are held by no one but the owner. The owner (the
/// REPL on a local file, an admin token, a server-to-server key) and a user in their own private
/// database are not restricted.
public struct AccessPolicy: Sendable, Hashable {
    /// Who acts.
    public enum Actor: Sendable, Hashable {
        /// The database's owner.
        case owner
        /// A signed-in user, by user record name (written as the records' creator and modifier).
        case user(recordName: String)
        /// An anonymous caller: role `_world` only.
        case world
    }

    /// Which records of a type a rule reaches.
    public enum Scope: Sendable, Hashable {
        case all
        /// Those whose creator is this user record name.
        case createdBy(String)
        case none

        /// The scope as a predicate over the system key `___createdBy`.
        public var predicate: Predicate {
            switch self {
            case .all: .all
            case .createdBy(let name): .compare(key: "___createdBy", .equal, .string(name))
            case .none: .not(.all)
            }
        }

        /// Whether the scope reaches a record created by `creator` (`nil`: the owner).
        public func reaches(createdBy creator: String?) -> Bool {
            switch self {
            case .all: true
            case .createdBy(let name): creator == name
            case .none: false
            }
        }
    }

    public let actor: Actor
    /// Whether the schema's grants decide (a public database); `false` when the actor owns the
    /// database (the owner anywhere, a user in their private database).
    public let appliesGrants: Bool

    /// The owner: reads and writes everything; records it saves have no user as creator.
    public static let owner = AccessPolicy(actor: .owner, appliesGrants: false)

    /// `actor` in a public database: the grants apply, except to the owner.
    public static func publicDatabase(_ actor: Actor) -> AccessPolicy {
        AccessPolicy(actor: actor, appliesGrants: actor != .owner)
    }

    /// The user `recordName` in their own private database: everything is theirs.
    public static func privateDatabase(of recordName: String) -> AccessPolicy {
        AccessPolicy(actor: .user(recordName: recordName), appliesGrants: false)
    }

    /// The user record name of the owner, as `___createdBy` and `created.userRecordName` show it
    /// (CloudKit's name for the current user when none is signed in).
    public static let ownerRecordName = "__defaultOwner__"

    /// The user record name written as the creator and modifier of saved records; `nil` for the
    /// owner.
    public var author: String? {
        if case .user(let name) = actor { return name }
        return nil
    }

    /// The records of `type` the actor may read.
    public func readScope(of type: RecordType) -> Scope {
        guard appliesGrants else { return .all }
        return scope(of: type, granting: [.read, .write])
    }

    /// The existing records of `type` the actor may update and delete.
    public func writeScope(of type: RecordType) -> Scope {
        guard appliesGrants else { return .all }
        guard case .user = actor else { return .none }
        return scope(of: type, granting: [.write])
    }

    /// Whether the actor may create records of `type`.
    public func mayCreate(_ type: RecordType) -> Bool {
        guard appliesGrants else { return true }
        guard case .user = actor else { return false }
        return type.effectiveGrants.contains { $0.permissions.contains(.create) && ($0.role == Role.world || $0.role == Role.icloud) }
    }

    /// The widest scope any grant of `permissions` gives the actor.
    private func scope(of type: RecordType, granting permissions: Set<Grant.Permission>) -> Scope {
        let roles = Set(type.effectiveGrants.filter { !permissions.isDisjoint(with: $0.permissions) }.map(\.role))
        switch actor {
        case .owner:
            return .all
        case .world:
            return roles.contains(Role.world) ? .all : .none
        case .user(let name):
            if roles.contains(Role.world) || roles.contains(Role.icloud) { return .all }
            return roles.contains(Role.creator) ? .createdBy(name) : .none
        }
    }

    /// CloudKit's system roles.
    public enum Role {
        public static let world = "_world"
        public static let icloud = "_icloud"
        public static let creator = "_creator"
        /// All three, in the order messages name them.
        static let all = [world, icloud, creator]
        /// The three quoted, as GRANT lines write them: `"_world", "_icloud" and "_creator"`.
        static let quotedNames = all.map { "\"\($0)\"" }.listed(joinedBy: "and")
    }
}

extension RecordType {
    /// The grants that apply to the type: its GRANT lines, or — when it has none — CloudKit's
    /// default for a public database: `READ` to `_world`, `CREATE` to `_icloud`, `WRITE` to
    /// `_creator`.
    public var effectiveGrants: [Grant] {
        guard grants.isEmpty else { return grants }
        return [
            Grant([.read], to: AccessPolicy.Role.world),
            Grant([.create], to: AccessPolicy.Role.icloud),
            Grant([.write], to: AccessPolicy.Role.creator),
        ]
    }
}
