import Foundation
import GraphQL
import HummingbirdTesting
import RecordQL
import Testing

@testable import RecordService

/// Live queries at the GraphQL endpoint, as far as a router in process can show them (the
/// streams of subscriptions and the WebSocket protocol run against the release binary in
/// Tests/service/test_subscriptions.py).
@Suite("Live queries: server-sent events, the WebSocket protocol's messages, the subscriber's buffer")
struct LiveQueryRouteTests {
    @Test func aQueryAskedAsAnEventStreamIsOneNextThenComplete() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/graphql", token: fixture.adminToken, headers: [.accept: "text/event-stream"], json: #"{"query":"{ Lists { name } }"}"#)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream; charset=utf-8")
            #expect(response.text == "event: next\ndata: {\"data\":{\"Lists\":[]}}\n\nevent: complete\ndata: \n\n")
        }
    }

    @Test func aSubscriptionWithoutAStreamIsToldHowToAskForOne() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/graphql", token: fixture.adminToken, json: #"{"query":"subscription { Lists { name } }"}"#)
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("Accept: text/event-stream"))
            let mutation = try await client.send(
                .post, "/graphql", token: fixture.adminToken, headers: [.accept: "text/event-stream"],
                json: #"{"query":"mutation { createLists(fields: {name: \"G\"}) { name } }"}"#)
            #expect(mutation.status == .notAcceptable)
        }
    }

    @Test(arguments: [
        ("text/event-stream", true), ("application/json, text/event-stream;q=0.5", true), ("text/event-stream;q=0", false),
        ("application/json", false), ("TEXT/EVENT-STREAM", true), ("Text/Event-Stream; q=1", true), ("", false),
        ("text/event\rstream", false), ("application/graphql-response+json", false),
    ])
    func anEventStreamIsAskedForByAccept(_ accept: String, _ asked: Bool) {
        #expect(GraphQLEventStream.isAccepted(accept) == asked)
    }

    /// urql's fetch exchange sends this `Accept` with every query and mutation.
    static let urqlAccept = "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed"

    @Test(arguments: [
        (OperationKind.subscription, urqlAccept, true), (.query, urqlAccept, false), (.mutation, urqlAccept, false),
        (.query, "text/event-stream", true), (.mutation, "text/event-stream", true), (.subscription, "application/json", false),
        (.query, "application/json;q=0.5, text/event-stream", true), (.query, "text/event-stream;q=0.5, application/json", false),
        (.mutation, "*/*, text/event-stream", false), (.query, "application/json", false),
    ])
    func aStreamAnswersASubscriptionAlwaysAQueryPreferringItAndAMutationAcceptingNothingElse(
        _ kind: OperationKind, _ accept: String, _ streamed: Bool
    ) {
        #expect(GraphQLEventStream.answers(kind, accept: accept) == streamed)
    }

    @Test func aClientAcceptingJSONAndStreamsGetsJSONForQueriesAndMutations() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            for document in [#"mutation { createLists(fields: {name: \"U\"}) { name } }"#, "{ Lists { name } }"] {
                let answer = try await client.send(
                    .post, "/graphql", token: fixture.adminToken, headers: [.accept: Self.urqlAccept], json: #"{"query":"\#(document)"}"#)
                #expect(answer.status == .ok, "\(answer.text)")
                #expect(answer.headers[.contentType] == "application/graphql-response+json; charset=utf-8")
                #expect(answer.text.contains(#""name":"U""#))
            }
        }
    }

    @Test func theBufferOverflowsPastItsCapacityAndTakesNothingAfter() {
        let buffer = SubscriberBuffer(capacity: 2)
        #expect(buffer.push("a") == .taken && buffer.push("b") == .taken)
        #expect(buffer.push("c") == .overflowed)
        #expect(buffer.push("d") == .refused)
        let batch = buffer.take()
        #expect(batch.results == ["a", "b"] && batch.overflowed)
        #expect(buffer.take().results.isEmpty)
    }

    @Test func aBufferTakenInTimeNeverOverflows() {
        let buffer = SubscriberBuffer(capacity: 2)
        for round in 0..<100 {
            #expect(buffer.push("\(round)") == .taken)
            #expect(buffer.take().results == ["\(round)"])
        }
        buffer.end()
        #expect(buffer.take().ended)
        #expect(buffer.push("late") == .refused)
    }

    @Test func messagesOfTheProtocolAreRead() throws {
        guard case .connectionInit(let payload) = try GraphQLWebSocketMessage(text: #"{"type":"connection_init","payload":{"Authorization":"Bearer abc"}}"#)
        else { Issue.record("not connection_init"); return }
        #expect(GraphQLWebSocketMessage.token(in: payload) == "abc")
        #expect(GraphQLWebSocketMessage.token(in: ["headers": .dictionary(["authorization": .string("bearer xyz")])]) == "xyz")
        #expect(GraphQLWebSocketMessage.token(in: ["token": .string("t1")]) == "t1")
        #expect(GraphQLWebSocketMessage.token(in: [:]) == nil)
        guard case .subscribe(let id, _) = try GraphQLWebSocketMessage(text: #"{"id":"7","type":"subscribe","payload":{"query":"{ Lists { name } }"}}"#)
        else { Issue.record("not subscribe"); return }
        #expect(id == "7")
        for invalid in [
            "not json", "[]", #"{"id":"1"}"#, #"{"type":"subscribe","payload":{}}"#, #"{"type":"subscribe","id":"1"}"#, #"{"type":"next","id":"1"}"#,
        ] {
            #expect(throws: GraphQLWebSocketMessage.Invalid.self, "\(invalid)") { try GraphQLWebSocketMessage(text: invalid) }
        }
        #expect(GraphQLWebSocketMessage.outgoing("next", id: "a\"b", payload: "{}") == #"{"type":"next","id":"a\"b","payload":{}}"#)
    }
}
