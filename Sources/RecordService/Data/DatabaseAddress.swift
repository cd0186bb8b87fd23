/// A CloudKit environment: `development` and `production` are separate databases.
public enum ServiceEnvironment: String, Sendable, Hashable, CaseIterable {
    case development
    case production
}

/// Which database of an environment a request addresses.
public enum DatabaseScope: Sendable, Hashable {
    /// The environment's public database.
    case `public`
    /// The private database of the user named.
    case `private`(user: String)
}

/// One database the service serves: `/database/1/{container}/{environment}/{database}/…`.
public struct DatabaseAddress: Sendable, Hashable, CustomStringConvertible {
    public var environment: ServiceEnvironment
    public var scope: DatabaseScope

    public init(environment: ServiceEnvironment, scope: DatabaseScope) {
        self.environment = environment
        self.scope = scope
    }

    /// The public database of `development`, which `/graphql` serves.
    public static let developmentPublic = DatabaseAddress(environment: .development, scope: .public)

    /// Whether it is a user's private database.
    public var isPrivate: Bool {
        if case .private = scope { return true }
        return false
    }

    public var description: String {
        switch scope {
        case .public: "\(environment.rawValue)/public"
        case .private(let user): "\(environment.rawValue)/private(\(user))"
        }
    }
}
