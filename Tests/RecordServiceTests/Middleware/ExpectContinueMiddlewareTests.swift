import Testing

@testable import RecordService

@Suite struct ExpectContinueMiddlewareTests {
    @Test func only100ContinueInAnyCaseIsAnExpectationToMeet() {
        for value in ["100-continue", "100-Continue", " 100-CONTINUE\t"] {
            #expect(ExpectContinueMiddleware.expectsContinue(value), "\(value)")
        }
        for value in [nil, "", "200-ok", "100-continue-please", "100-continue, foo=bar"] {
            #expect(!ExpectContinueMiddleware.expectsContinue(value), "\(value ?? "nil")")
        }
    }
}
