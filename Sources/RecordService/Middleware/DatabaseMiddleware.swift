public import Hummingbird
import RecordKit

/// Resolves the database a data route serves into the context: a fixed one (`/graphql`), or
/// the one `/database/1/{container}/{environment}/{database}/…` names. Another container, an
/// unknown environment or database get 404.
public struct DatabaseMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext

    enum Target: Sendable {
        case fixed(DatabaseAddress)
        /// From the path parameters `container`, `environment` and `database`.
        case path(container: String)
    }

    let registry: DatabaseRegistry
    let target: Target

    init(registry: DatabaseRegistry, target: Target) {
        self.registry = registry
        self.target = target
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let address = try target.address(context.parameters, principal: context.principal)
        do {
            context.database = try await registry.database(address)
        } catch {
            throw ServiceError(error)
        }
        return try await next(request, context)
    }

}

extension DatabaseMiddleware.Target {
    /// The database a route of this target serves, for the path's `parameters` and the
    /// `principal` (whose private database `…/private/…` is).
    func address(_ parameters: Parameters, principal: Principal?) throws(ServiceError) -> DatabaseAddress {
        switch self {
        case .fixed(let address):
            return address
        case .path(let container):
            guard parameters.get("container") == container else {
                throw ServiceError(
                    .notFound, code: .notFound,
                    "this service serves the container '\(container)', not '\(parameters.get("container") ?? "")'"
                )
            }
            guard let name = parameters.get("environment"), let environment = ServiceEnvironment(rawValue: name) else {
                throw ServiceError(
                    .notFound, code: .notFound, "the environment must be 'development' or 'production', not '\(parameters.get("environment") ?? "")'")
            }
            switch parameters.get("database") {
            case "public":
                return DatabaseAddress(environment: environment, scope: .public)
            case "private":
                guard case .user(let name)? = principal?.kind else {
                    throw ServiceError(.notFound, code: .notFound, "a private database belongs to a user: send a user's token")
                }
                return DatabaseAddress(environment: environment, scope: .private(user: name))
            case let other:
                throw ServiceError(.notFound, code: .notFound, "the database must be 'public' or 'private', not '\(other ?? "")'")
            }
        }
    }
}
