import HTTPTypes
import HummingbirdTesting
import Testing

@testable import RecordService

@Suite("Calls from web pages (CORS)")
struct BrowserOriginsTests {
    private static let preflight: HTTPFields = [.origin: "https://app.example", .accessControlRequestMethod: "POST"]

    @Test func theOriginsGivenAreReadAsABrowserSendsThem() throws {
        #expect(try BrowserOrigins(arguments: []) == .any)
        #expect(try BrowserOrigins(arguments: ["*"]) == .any)
        #expect(try BrowserOrigins(arguments: ["none"]) == .none)
        #expect(
            try BrowserOrigins(arguments: ["https://App.Example/", "http://localhost:3000", "http://[::1]:8080", "capacitor://localhost"])
                == .only(["https://app.example", "http://localhost:3000", "http://[::1]:8080", "capacitor://localhost"]))
        for refused in ["app.example", "https://app.example/path", "https://app.example?x=1", "https://:80", "http://x:99999", "https://u@x"] {
            #expect(throws: BrowserOriginsError.self, "\(refused)") { try BrowserOrigins(arguments: [refused]) }
        }
        let mixed = #expect(throws: BrowserOriginsError.self) { try BrowserOrigins(arguments: ["*", "https://app.example"]) }
        #expect(mixed?.description.contains("* and none stand alone") == true)
    }

    @Test func anyPageMayCallTheServiceByDefault() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let asked = try await client.send(.options, "/graphql", token: nil, headers: Self.preflight)
            #expect(asked.status == .noContent)
            #expect(asked.headers[.accessControlAllowOrigin] == "*")
            #expect(asked.headers[.accessControlAllowHeaders]?.contains("authorization") == true)
            #expect(asked.headers[.accessControlAllowHeaders]?.contains("idempotency-key") == true)
            let answered = try await client.send(
                .post, "/graphql", token: fixture.adminToken, headers: [.origin: "https://app.example"], json: #"{"query": "{ __typename }"}"#)
            #expect(answered.status == .ok && answered.headers[.accessControlAllowOrigin] == "*")
            // The page may read the service's own headers, named on the answer itself.
            #expect(answered.headers[.accessControlExposeHeaders] == "x-request-id, idempotent-replayed, www-authenticate, retry-after, allow")
            // Without a credential a page gets what any client gets: 401.
            let refused = try await client.send(
                .post, "/graphql", token: nil, headers: [.origin: "https://app.example"], json: #"{"query": "{ __typename }"}"#)
            #expect(refused.status == .unauthorized && refused.headers[.accessControlAllowOrigin] == "*")
        }
    }

    @Test func onlyTheListedOriginsGetAnswersTheirPagesMayRead() async throws {
        let fixture = try ServiceFixture { $0.browserOrigins = .only(["https://app.example"]) }
        try await fixture.test { client in
            let listed = try await client.send(.options, "/graphql", token: nil, headers: Self.preflight)
            #expect(listed.status == .noContent && listed.headers[.accessControlAllowOrigin] == "https://app.example")
            var other = Self.preflight
            other[.origin] = "https://elsewhere.example"
            let refused = try await client.send(.options, "/graphql", token: nil, headers: other)
            #expect(refused.status == .methodNotAllowed && refused.headers[.accessControlAllowOrigin] == nil)
            let answered = try await client.send(.get, "/health", token: nil, headers: [.origin: "https://elsewhere.example"])
            #expect(answered.status == .ok && answered.headers[.accessControlAllowOrigin] == nil)
            #expect(answered.headers[.accessControlExposeHeaders] == nil)
        }
    }

    @Test func noPageMayCallTheServiceWhenNoneIsAllowed() async throws {
        let fixture = try ServiceFixture { $0.browserOrigins = .none }
        try await fixture.test { client in
            #expect(try await client.send(.options, "/graphql", token: nil, headers: Self.preflight).status == .methodNotAllowed)
            let answered = try await client.send(.get, "/health", token: nil, headers: [.origin: "https://app.example"])
            #expect(answered.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test func whichPagesMayOpenAWebSocket() {
        #expect(BrowserOrigins.any.admitWebSocket(from: "https://anywhere.example"))
        #expect(BrowserOrigins.none.admitWebSocket(from: nil) && !BrowserOrigins.none.admitWebSocket(from: "https://app.example"))
        let listed = BrowserOrigins.only(["https://app.example"])
        #expect(listed.admitWebSocket(from: "HTTPS://APP.EXAMPLE") && listed.admitWebSocket(from: nil))
        #expect(!listed.admitWebSocket(from: "https://app.example.evil") && !listed.admitWebSocket(from: "null"))
    }
}
