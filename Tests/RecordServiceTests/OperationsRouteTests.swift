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
            #expect(response.text == #"{"status":"ok"}"#)
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
