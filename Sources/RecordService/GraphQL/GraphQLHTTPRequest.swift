import Foundation
import GraphQL
import OrderedCollections
import RecordQL

/// The parameters of a GraphQL-over-HTTP request (`query`, `operationName`, `variables`,
/// `extensions`), read from a POST's JSON body or a GET's query string.
struct GraphQLHTTPRequest: Sendable {
    var query: String
    var operationName: String?
    var variables: [String: Map]

    /// Why the parameters could not be read: the request is not a well-formed
    /// GraphQL-over-HTTP request (400).
    struct Malformed: Error, Sendable {
        var reason: String
    }

    /// The parameters of a POST body.
    init(body: some DataProtocol) throws(Malformed) {
        let object: JSONValue
        do throws(JSONSyntaxError) {
            object = try JSONValue(parsing: body)
        } catch {
            throw Malformed(reason: "the body is not JSON (\(error)); send {\"query\": \"…\"}")
        }
        try self.init(parameters: object.map)
    }

    /// The parameters of a JSON object (a POST body, a WebSocket `subscribe` payload).
    init(parameters object: Map) throws(Malformed) {
        guard case .dictionary(let members) = object else {
            throw Malformed(reason: "the body must be a JSON object such as {\"query\": \"{ __typename }\"}")
        }
        var parameters: [String: Map] = [:]
        for (key, value) in members { parameters[key] = value }
        try self.init(
            query: parameters["query"],
            operationName: parameters["operationName"],
            variables: parameters["variables"],
            extensions: parameters["extensions"]
        )
    }

    /// The parameters of a GET query string: `variables` and `extensions` are JSON texts.
    init(queryItems: [String: String]) throws(Malformed) {
        func json(_ name: String) throws(Malformed) -> Map? {
            guard let text = queryItems[name] else { return nil }
            do throws(JSONSyntaxError) {
                return try JSONValue(parsing: text).map
            } catch {
                throw Malformed(reason: "the '\(name)' parameter is not JSON (\(error))")
            }
        }
        try self.init(
            query: queryItems["query"].map(Map.string),
            operationName: queryItems["operationName"].map(Map.string),
            variables: try json("variables"),
            extensions: try json("extensions")
        )
    }

    private init(query: Map?, operationName: Map?, variables: Map?, extensions: Map?) throws(Malformed) {
        guard let query else {
            throw Malformed(reason: "the request has no 'query' parameter; send the GraphQL document in 'query'")
        }
        guard case .string(let text) = query else {
            throw Malformed(reason: "the 'query' parameter must be a string holding the GraphQL document")
        }
        self.query = text
        switch operationName {
        case nil, .null?, .undefined?: self.operationName = nil
        case .string(let name)?: self.operationName = name
        default: throw Malformed(reason: "the 'operationName' parameter must be a string or null")
        }
        switch variables {
        case nil, .null?, .undefined?: self.variables = [:]
        case .dictionary(let members)?:
            var values: [String: Map] = [:]
            for (key, value) in members { values[key] = value }
            self.variables = values
        default: throw Malformed(reason: "the 'variables' parameter must be a JSON object or null")
        }
        switch extensions {
        case nil, .null?, .undefined?, .dictionary?: break
        default: throw Malformed(reason: "the 'extensions' parameter must be a JSON object or null")
        }
    }

    /// The parameters of a query string in `application/x-www-form-urlencoded` form (`+` is a
    /// space, `%XX` a byte); the first of repeated names wins.
    static func formItems(_ query: String?) -> [String: String] {
        var items: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String? { text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = parts.first.flatMap(decode), let value = decode(parts.count > 1 ? parts[1] : "") else { continue }
            if items[name] == nil { items[name] = value }
        }
        return items
    }
}
