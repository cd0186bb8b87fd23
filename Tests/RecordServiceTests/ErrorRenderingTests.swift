import Testing

@testable import RecordService

@Suite struct ErrorRenderingTests {
    @Test func aRequestStoppedBeforeItFinishedIsAskedToTryAgain() {
        let error = ErrorRendering.serviceError(CancellationError())
        #expect(error.status == .serviceUnavailable)
        #expect(error.code == .tryAgainLater)
        #expect(error.reason.contains("send it again"), "\(error.reason)")
    }

    @Test func anUnexpectedErrorIsAnInternalError() {
        struct Unexpected: Error {}
        let error = ErrorRendering.serviceError(Unexpected())
        #expect(error.status == .internalServerError)
        #expect(error.code == .internalError)
    }
}
