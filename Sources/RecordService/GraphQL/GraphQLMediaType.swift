/// The media types of GraphQL over HTTP responses, and the choice between them by `Accept`.
enum GraphQLMediaType: String, Sendable, CaseIterable {
    /// The GraphQL-over-HTTP response type: status codes carry the outcome.
    case graphQLResponse = "application/graphql-response+json"
    /// The legacy type, for clients that accept only it: every response that has data is 200.
    case json = "application/json"

    /// The result of negotiating an `Accept` header.
    enum Negotiation: Equatable {
        case chosen(GraphQLMediaType)
        /// Nothing the header accepts is served (406).
        case notAcceptable

        /// The `Content-Type` value to answer with, `nil` when nothing is acceptable.
        var responseType: String? {
            if case .chosen(let type) = self { return type.rawValue + "; charset=utf-8" }
            return nil
        }
    }

    /// The type to answer a request whose `Accept` header is `accept` with: the acceptable type
    /// of highest quality, `application/graphql-response+json` on a tie, and for a request
    /// without `Accept`.
    static func negotiate(_ accept: String?) -> Negotiation {
        best(accept).map { .chosen($0.type) } ?? .notAcceptable
    }

    /// ``negotiate(_:)``'s choice with the quality `accept` gives it (1 without `Accept`); `nil`
    /// when nothing is acceptable.
    static func best(_ accept: String?) -> (type: GraphQLMediaType, quality: Double)? {
        // A client sending one of the two types exactly (nearly every one) needs no parsing.
        if let accept, let type = GraphQLMediaType(rawValue: accept) { return (type, 1) }
        guard let accept, !accept.allSatisfy(\.isWhitespace) else { return (.graphQLResponse, 1) }
        var best: (type: GraphQLMediaType, quality: Double)?
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingWhitespace() }
            guard let name = parts.first?.lowercased(), !name.isEmpty else { continue }
            var quality = 1.0
            var charsetAccepted = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace().lowercased() }
                guard pair.count == 2 else { continue }
                switch pair[0] {
                case "q": quality = Double(pair[1]) ?? 0
                case "charset": charsetAccepted = pair[1].trimmingCharacters(in: "\"") == "utf-8"
                default: break
                }
            }
            guard quality > 0, charsetAccepted else { continue }
            for type in matches(name) where best == nil || quality > best!.quality {
                best = (type, quality)
            }
        }
        return best
    }

    /// The served types a media range names, preferred first.
    private static func matches(_ range: String) -> [GraphQLMediaType] {
        switch range {
        case "*/*", "application/*": [.graphQLResponse]
        case GraphQLMediaType.graphQLResponse.rawValue: [.graphQLResponse]
        case GraphQLMediaType.json.rawValue: [.json]
        default: []
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        trimming { $0 == " " || $0 == "\t" }
    }

    fileprivate func trimmingCharacters(in set: String) -> String {
        trimming { set.contains($0) }
    }

    /// The text between the first and the last character `isTrimmed` does not pick, sliced in
    /// place (every request's credential passes here: no reversed copies).
    private func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = lastIndex(where: { !isTrimmed($0) }) ?? first
        return String(self[first...last])
    }
}
