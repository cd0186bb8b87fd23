public import RecordKit

extension Principal {
    /// What the principal may read and write in the database at `address`, as the engine
    /// enforces it: the owner everywhere for an admin (and in public databases for a
    /// server-to-server key); in a public database a user holds
    /// `_world`, `_icloud` and `_creator`, an API token `_world` alone; in a user's private
    /// database, that user owns everything.
    public func access(in address: DatabaseAddress) -> AccessPolicy {
        switch (address.scope, kind) {
        case (.private(let user), _):
            return .privateDatabase(of: CloudKitUser.recordName(of: .user(user)))
        case (.public, .admin), (.public, .serverKey):
            return .owner
        case (.public, .user):
            return .publicDatabase(.user(recordName: CloudKitUser.recordName(of: self)))
        case (.public, .world):
            return .publicDatabase(.world)
        }
    }
}
