import Foundation
import GraphQL
import Hummingbird
import RecordKit
import RecordQL

/// GraphQL over HTTP (the GraphQL-over-HTTP draft): `GET` and `POST` of `…/graphql`.
///
/// With `application/graphql-response+json` the status tells the outcome: 400 for a body or
/// parameters that are not a GraphQL request or a document that does not parse, 422 for a
/// document that fails validation, variables that do not fit, an operation that is not there or
/// a transaction ID used before for another request, 405 for a mutation over GET, 200 once the
/// operation ran (field errors included). A client that accepts only `application/json` gets
/// 200 for every GraphQL request error, as the draft's legacy type says. 401/403 without a
/// fitting credential, 406 for an `Accept` the service cannot meet, 415 for a body that is not
/// `application/json`. A subscription whose request accepts `text/event-stream` is answered as
/// server-sent events (``GraphQLEventStream``), and a query whose `Accept` prefers the stream to
/// JSON (``GraphQLEventStream/answers(_:accept:)``).
struct GraphQLController {
    let writes: IdempotentWrites
    /// Asked again by a subscription's stream before each event (``CredentialMiddleware/isStillValid(_:)``).
    let credentials: CredentialMiddleware

    func addRoutes(to group: RouterGroup<ServiceRequestContext>) {
        group.get("graphql") { request, context in try await self.get(request, context: context) }
        group.post("graphql") { request, context in try await self.post(request, context: context) }
    }

    private func get(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let mediaType = try Self.responseType(for: request)
        let items = GraphQLHTTPRequest.formItems(request.uri.query)
        return try await answer(
            { () throws(GraphQLHTTPRequest.Malformed) in try GraphQLHTTPRequest(queryItems: items) },
            request: request, method: .get, principal: principal, mediaType: mediaType, context: context
        )
    }

    private func post(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let mediaType = try Self.responseType(for: request)
        try Self.checkContentType(request.headers[.contentType])
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        return try await answer(
            { () throws(GraphQLHTTPRequest.Malformed) in try GraphQLHTTPRequest(body: body.readableBytesView) },
            request: request, method: .post, principal: principal, mediaType: mediaType, context: context
        )
    }

    private func answer(
        _ readParameters: () throws(GraphQLHTTPRequest.Malformed) -> GraphQLHTTPRequest,
        request: Request, method: HTTPRequest.Method, principal: Principal, mediaType: GraphQLMediaType, context: ServiceRequestContext
    ) async throws -> Response {
        let parameters: GraphQLHTTPRequest
        do throws(GraphQLHTTPRequest.Malformed) {
            parameters = try readParameters()
        } catch {
            return Self.requestError(.badRequest, error.reason, mediaType: mediaType)
        }
        let engine = try context.requireDatabase().graphQL
        let operation: PreparedOperation
        do {
            operation = try await engine.prepare(document: parameters.query, variables: parameters.variables, operationName: parameters.operationName)
        } catch {
            if error.kind == .mutation, method != .post { throw Self.mutationOverGet }
            // A failure once the operation was being planned (its arguments translated) is a
            // field error with `"data": null`: 200, as for one met running it.
            let status: HTTPResponse.Status =
                switch error.stage {
                case .parse: .badRequest
                case .execution: .ok
                case .validation, .variables, .transaction: .unprocessableContent
                }
            return Self.response(status: status, json: error.response.json, mediaType: mediaType)
        }
        let access = try context.requireAccess()
        if GraphQLEventStream.answers(operation.kind, accept: request.headers[.accept]) {
            guard operation.kind != .mutation else {
                throw ServiceError(
                    .notAcceptable, code: .badRequest,
                    "a mutation is answered with JSON, not an event stream; send it with 'Accept: application/graphql-response+json'")
            }
            let credentials = self.credentials
            let token: String? = if case .token(let text)? = Credential(request) { text } else { nil }
            return GraphQLEventStream.response(operation, engine: engine, access: access, channel: context.channel) {
                guard let token else { return true }
                return await credentials.isStillValid(token)
            }
        }
        guard operation.kind != .subscription else {
            return Self.requestError(
                .unprocessableContent,
                "a subscription is answered as a stream: send it with 'Accept: text/event-stream' (server-sent events) "
                    + "or over a WebSocket with the graphql-transport-ws protocol",
                mediaType: mediaType)
        }
        guard operation.kind == .mutation else {
            return Self.response(status: .ok, json: await engine.run(operation, access: access).json, mediaType: mediaType)
        }
        guard method == .post else { throw Self.mutationOverGet }
        return try await mutate(
            operation, key: try IdempotencyKey.of(request), principal: try context.requireWriter(), access: access, mediaType: mediaType, engine: engine)
    }

    private static var mutationOverGet: ServiceError {
        ServiceError(.methodNotAllowed, code: .badRequest, "a mutation must be sent with POST, not GET", headers: [.allow: "POST"])
    }

    /// Runs a mutation acting for `access`, under the request's `Idempotency-Key` (or its
    /// `@transaction(id:)`) in the principal's scope: a retry gets the stored response with `Idempotent-Replayed: true`,
    /// a key reused for another request 422, a retry while the first runs 409.
    private func mutate(
        _ operation: PreparedOperation, key: IdempotencyKey?, principal: Principal, access: AccessPolicy, mediaType: GraphQLMediaType,
        engine: RecordQLEngine
    ) async throws -> Response {
        let scope = TransactionScope(principal)
        let options = TransactionOptions(id: key?.text, scope: scope.prefix)
        let run = { @Sendable () async -> GraphQLResponse in await engine.run(operation, transaction: options, access: access) }
        let response = if let key { try await writes.inFlight.whileRunning(scope.storedID(key.text), run) } else { await run() }
        if response.failedStage == .transaction {
            return Self.response(status: .unprocessableContent, json: response.json, mediaType: mediaType)
        }
        var answer = Self.response(status: .ok, json: response.json, mediaType: mediaType)
        if response.isReplay { answer.headers[.idempotentReplayed] = "true" }
        return answer
    }

    /// The JSON media type to answer with (for a request accepting only an event stream, its
    /// errors' `application/graphql-response+json`), or 406.
    static func responseType(for request: Request) throws(ServiceError) -> GraphQLMediaType {
        let accept = request.headers[.accept]
        guard case .chosen(let type) = GraphQLMediaType.negotiate(accept) else {
            if GraphQLEventStream.isAccepted(accept) { return .graphQLResponse }
            throw ServiceError(
                .notAcceptable, code: .badRequest,
                "the Accept header allows neither application/graphql-response+json nor application/json (charset utf-8)"
            )
        }
        return type
    }

    /// 415 unless the body is `application/json` (in UTF-8, the only charset accepted).
    static func checkContentType(_ value: String?) throws(ServiceError) {
        if value == "application/json" { return }
        let parts = (value ?? "").split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
        let charset = parts.dropFirst().first { $0.hasPrefix("charset=") }.map { $0.dropFirst("charset=".count) }
        guard parts.first == "application/json", charset == nil || charset == "utf-8" || charset == "\"utf-8\"" else {
            throw ServiceError(
                .unsupportedMediaType, code: .badRequest,
                "a GraphQL POST body must be 'Content-Type: application/json' (UTF-8), not '\(value ?? "none")'"
            )
        }
    }

    /// A GraphQL request error: `status` under `application/graphql-response+json`, 200 under
    /// the legacy `application/json`.
    static func requestError(_ status: HTTPResponse.Status, _ message: String, mediaType: GraphQLMediaType) -> Response {
        let json = "{\"errors\":[{\"message\":" + JSONText.string(message) + ",\"extensions\":{\"code\":\"invalidArguments\"}}]}"
        return response(status: status, json: json, mediaType: mediaType)
    }

    static func response(status: HTTPResponse.Status, json: String, mediaType: GraphQLMediaType) -> Response {
        let status = mediaType == .json && status != .methodNotAllowed ? .ok : status
        return Response(
            status: status,
            headers: [.contentType: mediaType.rawValue + "; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: json))
        )
    }
}
