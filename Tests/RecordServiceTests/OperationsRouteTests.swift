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
}
