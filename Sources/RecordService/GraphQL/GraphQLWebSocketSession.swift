import GraphQL
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import RecordKit
import RecordQL
import ServiceLifecycle
import Synchronization

/// One WebSocket connection speaking `graphql-transport-ws`: `connection_init` (with the
/// token) answered by `connection_ack`, then any number of `subscribe` operations, each
/// answered by `next` messages until `complete` (either side) or `error`; `ping`/`pong`.
///
/// Violations close the connection with the protocol's codes: 4400 for a message that is not
/// the protocol's, 4401 for `subscribe` before the acknowledgement, 4403 for a credential that
/// is refused, 4406 without the subprotocol, 4408 when `connection_init` does not come within
/// ``initialisationTimeout``, 4409 for a second subscriber with the same id, 4429 for a second
/// `connection_init`. A subscriber that falls ``LiveFeed/capacity`` results behind is closed
/// with 1008 (policy violation) and the reason.
final class GraphQLWebSocketSession: Sendable {
    /// How long the client has to send `connection_init`.
    static let initialisationTimeout: Duration = .seconds(3)
    /// The largest message read.
    static let maximumMessageSize = 1 << 20

    private struct Acknowledged: Sendable {
        var engine: RecordQLEngine
        var access: AccessPolicy
        /// The token the connection was acknowledged with, asked about again before each event.
        var token: String
    }

    private struct State {
        var initialising = false
        var acknowledged: Acknowledged?
        var operations: [String: Task<Void, Never>] = [:]
    }

    private let credentials: CredentialMiddleware
    private let registry: DatabaseRegistry
    private let target: DatabaseMiddleware.Target
    private let upgrade: Request
    private let parameters: Parameters
    private let outbound: WebSocketOutboundWriter
    /// The connection, closed outright when a subscriber that fell behind does not read its close.
    private let channel: any Channel
    private let state = Mutex(State())

    init(
        credentials: CredentialMiddleware, registry: DatabaseRegistry, target: DatabaseMiddleware.Target, upgrade: Request,
        parameters: Parameters, outbound: WebSocketOutboundWriter, channel: any Channel
    ) {
        self.credentials = credentials
        self.registry = registry
        self.target = target
        self.upgrade = upgrade
        self.parameters = parameters
        self.outbound = outbound
        self.channel = channel
    }

    /// Serves the connection until it closes.
    func run(_ inbound: WebSocketInboundStream, subprotocolAgreed: Bool) async {
        guard subprotocolAgreed else {
            await close(4406, "Subprotocol not acceptable: offer \(GraphQLWebSocketController.subprotocol)")
            return
        }
        let timeout = Task { [weak self] in
            guard (try? await Task.sleep(for: Self.initialisationTimeout)) != nil, let self else { return }
            if self.state.withLock({ $0.acknowledged == nil }) { await self.close(4408, "Connection initialisation timeout") }
        }
        defer {
            timeout.cancel()
            for task in state.withLock({ Array($0.operations.values) }) { task.cancel() }
        }
        do {
            for try await message in inbound.messages(maxSize: Self.maximumMessageSize) {
                guard case .text(let text) = message else {
                    await close(4400, "graphql-transport-ws messages are JSON text, not binary")
                    return
                }
                do throws(GraphQLWebSocketMessage.Invalid) {
                    guard await handle(try GraphQLWebSocketMessage(text: text)) else { return }
                } catch {
                    await close(4400, error.reason)
                    return
                }
            }
        } catch {
            // The connection failed (a frame past the size limit, a protocol error): it is closed.
        }
    }

    /// Closes the session as the server stops: 1001, going away (``OpenWebSocketSessions``).
    func goAway() async {
        await close(1001, "the server is shutting down")
    }

    /// Handles one message; `false` when the connection is closed.
    private func handle(_ message: GraphQLWebSocketMessage) async -> Bool {
        switch message {
        case .connectionInit(let payload):
            return await initialise(payload)
        case .ping:
            await send(GraphQLWebSocketMessage.outgoing("pong"))
            return true
        case .pong:
            return true
        case .subscribe(let id, let payload):
            return await subscribe(id: id, payload: payload)
        case .complete(let id):
            state.withLock { $0.operations.removeValue(forKey: id) }?.cancel()
            return true
        }
    }

    /// Checks the credential of `connection_init` and acknowledges it.
    private func initialise(_ payload: [String: Map]) async -> Bool {
        let first = state.withLock { state in
            defer { state.initialising = true }
            return !state.initialising
        }
        guard first else {
            await close(4429, "Too many initialisation requests")
            return false
        }
        let token: String?
        if let given = GraphQLWebSocketMessage.token(in: payload) {
            token = given
        } else if case .token(let text)? = Credential(upgrade) {
            token = text
        } else {
            token = nil
        }
        guard let token else {
            await close(4403, "Forbidden: send a token, as {\"Authorization\": \"Bearer TOKEN\"} in the connection_init payload")
            return false
        }
        let acknowledged: Acknowledged
        do throws(ServiceError) {
            let principal = try await credentials.principal(for: token)
            let address = try target.address(parameters, principal: principal)
            let database: ServiceDatabase
            do throws(RecordError) {
                database = try await registry.database(address)
            } catch {
                throw ServiceError(error)
            }
            acknowledged = Acknowledged(engine: database.graphQL, access: principal.access(in: address), token: token)
        } catch {
            await close(4403, "Forbidden: \(error.reason)")
            return false
        }
        state.withLock { $0.acknowledged = acknowledged }
        await send(GraphQLWebSocketMessage.outgoing("connection_ack"))
        return true
    }

    /// Starts the operation `id`.
    private func subscribe(id: String, payload: Map) async -> Bool {
        guard let acknowledged = state.withLock({ $0.acknowledged }) else {
            await close(4401, "Unauthorized")
            return false
        }
        let request: GraphQLHTTPRequest
        do throws(GraphQLHTTPRequest.Malformed) {
            request = try GraphQLHTTPRequest(parameters: payload)
        } catch {
            await close(4400, error.reason)
            return false
        }
        let started = state.withLock { state -> Bool in
            guard state.operations[id] == nil else { return false }
            state.operations[id] = Task { [self] in
                await run(request, id: id, acknowledged)
                _ = self.state.withLock { $0.operations.removeValue(forKey: id) }
            }
            return true
        }
        guard started else {
            await close(4409, "Subscriber for \(id) already exists")
            return false
        }
        return true
    }

    /// Runs the operation `id` to its end: a query's one result, a subscription's results until
    /// it is completed or the connection closes.
    private func run(_ request: GraphQLHTTPRequest, id: String, _ acknowledged: Acknowledged) async {
        let operation: PreparedOperation
        do throws(RequestFailure) {
            operation = try await acknowledged.engine.prepare(
                document: request.query, variables: request.variables, operationName: request.operationName)
        } catch {
            await send(GraphQLWebSocketMessage.outgoing("error", id: id, payload: error.response.errorsJSON))
            return
        }
        switch operation.kind {
        case .mutation:
            let refusal = GraphQLResponse.refusal(.invalidArguments, "a mutation is sent with POST to the GraphQL endpoint, not over the WebSocket")
            await send(GraphQLWebSocketMessage.outgoing("error", id: id, payload: refusal.errorsJSON))
        case .query:
            let response = await acknowledged.engine.run(operation, access: acknowledged.access)
            await send(GraphQLWebSocketMessage.outgoing("next", id: id, payload: response.json))
            await send(GraphQLWebSocketMessage.outgoing("complete", id: id))
        case .subscription:
            let feed = LiveFeed(acknowledged.engine.subscribe(operation, access: acknowledged.access), pulsing: true) { [channel] in
                // Closed even if the client never reads the close frame.
                _ = channel.eventLoop.scheduleTask(in: GraphQLEventStream.overflowGrace) { channel.close(promise: nil) }
            }
            defer { feed.stop() }
            var wakeups = feed.buffer.wakeups.makeAsyncIterator()
            while !Task.isCancelled {
                let batch = feed.buffer.take()
                if !batch.results.isEmpty || batch.pulse, await !credentials.isStillValid(acknowledged.token) {
                    await close(4403, "Forbidden: the token was revoked; connect again with a valid token")
                    return
                }
                for result in batch.results {
                    await send(GraphQLWebSocketMessage.outgoing("next", id: id, payload: result))
                }
                if batch.overflowed {
                    await close(1008, "subscriber \(id) fell \(LiveFeed.capacity) results behind; read messages as they come, then subscribe again")
                    return
                }
                guard await wakeups.next() != nil else { return }
            }
        }
    }

    private func send(_ text: String) async {
        try? await outbound.writeTextMessage(text)
    }

    private func close(_ code: Int, _ reason: String) async {
        try? await outbound.close(WebSocketErrorCode(codeNumber: code), reason: String(reason.utf8.prefix(120)) ?? "")
    }
}
