public import ServiceLifecycle
import Synchronization

/// The GraphQL WebSocket sessions open now, so that a server stopping closes each with 1001
/// ("going away", which a client reads as "connect again later") before the HTTP server's own
/// shutdown closes the connections with 1000 ("done").
///
/// As a service it runs beside the application, listed after it: a group stops its services in
/// reverse order, each after the one before has returned, so this one closes the sessions and
/// waits (at most ``closingTime``) for them to end before the HTTP server stops.
public final class OpenWebSocketSessions: Service, Sendable {
    /// How long a stopping server waits for the sessions it closed to end.
    static let closingTime = Duration.seconds(2)

    private let sessions = Mutex<[ObjectIdentifier: GraphQLWebSocketSession]>([:])

    public init() {}

    /// Runs `body`, serving `session`, with the session counted open meanwhile.
    func serving(_ session: GraphQLWebSocketSession, _ body: () async -> Void) async {
        sessions.withLock { $0[ObjectIdentifier(session)] = session }
        await body()
        _ = sessions.withLock { $0.removeValue(forKey: ObjectIdentifier(session)) }
    }

    /// How many sessions are open.
    var count: Int { sessions.withLock(\.count) }

    /// Waits for the server to stop, then closes every open session with 1001.
    public func run() async throws {
        try await gracefulShutdown()
        let open = sessions.withLock { Array($0.values) }
        await withTaskGroup(of: Void.self) { group in
            for session in open { group.addTask { await session.goAway() } }
        }
        let deadline = ContinuousClock.now + Self.closingTime
        while count > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
