import Foundation
import GraphQL
import OrderedCollections
import RecordKit
import RecordQL

/// A message of the `graphql-transport-ws` protocol (GraphQL over WebSocket) as the client
/// sends it, read from one text frame.
enum GraphQLWebSocketMessage: Sendable {
    case connectionInit(payload: [String: Map])
    case ping(payload: Map?)
    case pong
    case subscribe(id: String, payload: Map)
    case complete(id: String)

    /// Why a frame is not a message of the protocol: the connection is closed with 4400 and this reason.
    struct Invalid: Error, Sendable {
        var reason: String
    }

    /// The message in the frame `text`.
    init(text: String) throws(Invalid) {
        let message: JSONValue
        do throws(JSONSyntaxError) {
            message = try JSONValue(parsing: text)
        } catch {
            throw Invalid(reason: "a message must be JSON (\(error))")
        }
        guard case .dictionary(let object) = message.map else { throw Invalid(reason: "a message is a JSON object with a 'type'") }
        guard case .string(let type)? = object["type"] else { throw Invalid(reason: "a message needs a 'type' string") }
        func id() throws(Invalid) -> String {
            guard case .string(let id)? = object["id"], !id.isEmpty else { throw Invalid(reason: "a '\(type)' message needs an 'id' string") }
            return id
        }
        switch type {
        case "connection_init":
            switch object["payload"] {
            case nil, .null?, .undefined?: self = .connectionInit(payload: [:])
            case .dictionary(let members)?: self = .connectionInit(payload: Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }))
            default: throw Invalid(reason: "the payload of 'connection_init' must be an object")
            }
        case "ping": self = .ping(payload: object["payload"])
        case "pong": self = .pong
        case "subscribe":
            let id = try id()
            guard let payload = object["payload"], case .dictionary = payload else {
                throw Invalid(reason: "a 'subscribe' message needs a 'payload' object with the 'query'")
            }
            self = .subscribe(id: id, payload: payload)
        case "complete": self = .complete(id: try id())
        default: throw Invalid(reason: "'\(type)' is not a message a client sends in graphql-transport-ws")
        }
    }

    /// The token the `connection_init` payload carries: `Authorization` (`Bearer TOKEN` or the
    /// token alone, in any case, also under `headers`), or `token`.
    static func token(in payload: [String: Map]) -> String? {
        var candidates = payload
        if case .dictionary(let headers)? = payload["headers"] {
            for (key, value) in headers { candidates[key] = candidates[key] ?? value }
        }
        for (key, value) in candidates {
            guard case .string(let text) = value else { continue }
            switch key.lowercased() {
            case "authorization":
                let parts = text.split(separator: " ", maxSplits: 1)
                return parts.count == 2 && parts[0].lowercased() == "bearer" ? parts[1].trimmingWhitespace() : text.trimmingWhitespace()
            case "token":
                return text.trimmingWhitespace()
            default:
                continue
            }
        }
        return nil
    }

    /// The text of a message the server sends: `type`, then `id` and `payload` (JSON text) when given.
    static func outgoing(_ type: String, id: String? = nil, payload: String? = nil) -> String {
        var text = "{\"type\":\"\(type)\""
        if let id { text += ",\"id\":" + JSONText.string(id) }
        if let payload { text += ",\"payload\":" + payload }
        return text + "}"
    }
}
