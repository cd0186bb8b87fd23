import Foundation
import HummingbirdTesting
import Testing

@testable import RecordService

@Suite("Operating the service")
struct OperationsRouteTests {
    @Test func healthAnswersWithoutACredential() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.get, "/health", token: nil)
            #expect(response.status == .ok)
            #expect(response.text == #"{"status":"ok","container":"iCloud.shop"}"#)
        }
    }

    @Test func aMethodAPathDoesNotTakeIs405NamingTheMethodsItTakes() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let graphQL = try await client.send(.delete, "/graphql", token: nil)
            #expect(graphQL.status == .methodNotAllowed)
            #expect(graphQL.headers[.allow] == "GET, HEAD, POST")
            #expect(graphQL.text.contains(#""errors":[{"message":"/graphql does not take DELETE; send GET, HEAD, POST"#))
            let path = "/database/1/\(ServiceConfiguration.defaultContainer)/development/public/records/query"
            let query = try await client.send(.get, path, token: nil)
            #expect(query.status == .methodNotAllowed)
            #expect(query.headers[.allow] == "POST")
            #expect(query.text.contains(#""serverErrorCode":"BAD_REQUEST""#))
            // HEAD is answered wherever GET is; a path that does not exist is still 404.
            let head = try await client.send(.head, "/health", token: nil)
            #expect(head.status == .ok)
            #expect(head.text.isEmpty)
            #expect(try await client.send(.put, "/no-such-path", token: nil).status == .notFound)
        }
    }

    @Test func everyResponseEchoesTheClientsRequestID() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let echoed = try await client.send(.get, "/health", token: nil, headers: [.xRequestID: "abc-123"])
            #expect(echoed.headers[.xRequestID] == "abc-123")
            let generated = try await client.send(.get, "/health", token: nil)
            #expect(generated.headers[.xRequestID]?.count == 36)
        }
    }

    @Test func aCloudKitErrorsUUIDIsTheRequestsID() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let given = try await client.send(.get, "/no-such-path", token: nil, headers: [.xRequestID: "trace-42"])
            #expect(given.status == .notFound)
            #expect(given.text.hasPrefix(#"{"uuid":"trace-42","serverErrorCode":"NOT_FOUND""#))
            let refused = try await client.send(.post, "/database/1/iCloud.shop/development/public/records/query", token: nil)
            #expect(refused.status == .unauthorized)
            let id = try #require(refused.headers[.xRequestID])
            #expect(refused.text.hasPrefix(#"{"uuid":"\#(id)","#))
            let wrongMethod = try await client.send(.delete, "/health", token: nil, headers: [.xRequestID: "trace-43"])
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.text.hasPrefix(#"{"uuid":"trace-43","#))
        }
    }

    @Test func metricsCountAndTimeEachRequestByRouteMethodAndStatus() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            try await client.send(.get, "/health", token: nil)
            try await client.send(.get, "/health", token: nil)
            #expect(try await client.send(.get, "/graphql", token: nil).status == .unauthorized)
            let metrics = try await client.send(.get, "/metrics", token: fixture.adminToken)
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let health = #"{http_route="/health",http_request_method="GET",http_response_status_code="200"}"#
            #expect(metrics.text.contains("hb_requests\(health) 2\n"))
            #expect(metrics.text.contains("http_server_request_duration_count\(health) 2\n"))
            #expect(metrics.text.contains(#"hb_requests{http_route="/graphql",http_request_method="GET",http_response_status_code="401"} 1"# + "\n"))
            // An error is an answer with an error status, counted under it; other answers count none.
            #expect(metrics.text.contains(#"hb_request_errors{http_route="/graphql",http_request_method="GET",error_type="401"} 1"# + "\n"))
            #expect(!metrics.text.contains(#"error_type="200""#))
            // The request for /metrics itself is the one in hand.
            #expect(metrics.text.contains(#"http_server_active_requests{http_request_method="GET"} 1.0"# + "\n"))
        }
    }

    @Test func metricsAreForAdminTokensOnly() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let user = try fixture.token(for: .user("ada"), label: "ada")
            let refused = try await client.send(.get, "/metrics", token: user)
            #expect(refused.status == .forbidden)
            #expect(refused.text.contains("metrics are for admin tokens"))
            #expect(try await client.send(.get, "/metrics", token: nil).status == .unauthorized)
        }
    }

    @Test func theRequestLogWritesDurationsInMillisecondsWithThreeDecimals() {
        #expect(RequestLogMiddleware.milliseconds(.microseconds(12_345)) == "12.345")
        #expect(RequestLogMiddleware.milliseconds(.microseconds(7)) == "0.007")
        #expect(RequestLogMiddleware.milliseconds(.seconds(2) + .nanoseconds(40_999)) == "2000.040")
        #expect(RequestLogMiddleware.milliseconds(.zero) == "0.000")
    }

    @Test func generatedRequestIDsAreDistinctLowercaseVersion4UUIDs() {
        let ids = (0..<1_000).map { _ in RequestIDMiddleware.generatedID() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(20) {
            #expect(UUID(uuidString: id) != nil)
            #expect(id == id.lowercased() && id.count == 36)
            #expect(Array(id)[14] == "4")
            #expect("89ab".contains(Array(id)[19]))
        }
    }
}
