import Hummingbird
import Prometheus
import RecordKit

/// Operating the service: `GET /health` (no credential), `GET /metrics` (Prometheus text,
/// admin only) and `GET /openapi.yaml` (the description of every endpoint).
struct OperationsController {
    let state: ServiceState

    func addRoutes(to router: Router<ServiceRequestContext>) {
        router.get("health") { _, _ in try await self.health() }
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml))
            )
        }
        router.group("metrics")
            .add(middleware: ErrorRenderingMiddleware(.cloudKit))
            .add(middleware: state.credentials)
            .get { _, context in try self.metrics(context) }
    }

    /// 200 when the public databases open, 503 naming the one that does not; both with the
    /// container served (every data URL names it: a client that was not told finds it here).
    private func health() async throws -> Response {
        let container = ",\"container\":" + JSONText.string(state.configuration.container) + "}"
        for environment in ServiceEnvironment.allCases {
            do {
                _ = try await state.databases.database(DatabaseAddress(environment: environment, scope: .public))
            } catch {
                return Self.json(.serviceUnavailable, "{\"status\":\"unavailable\",\"reason\":" + JSONText.string(error.message) + container)
            }
        }
        return Self.json(.ok, "{\"status\":\"ok\"" + container)
    }

    private func metrics(_ context: ServiceRequestContext) throws -> Response {
        guard try context.requirePrincipal().isAdmin else {
            throw ServiceError(.forbidden, code: .accessDenied, "metrics are for admin tokens; create one with: shop token create --admin")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: state.metrics.emitToBuffer()))
        )
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
