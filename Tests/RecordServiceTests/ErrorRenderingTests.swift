import NIOHTTP1
import Testing

@testable import RecordService

@Suite struct ErrorRenderingTests {
    @Test func aRequestStoppedBeforeItFinishedIsAskedToTryAgain() {
        let error = ErrorRendering.serviceError(CancellationError())
        #expect(error.status == .serviceUnavailable)
        #expect(error.code == .tryAgainLater)
        #expect(error.reason.contains("send it again"), "\(error.reason)")
    }

    /// A body the HTTP parser cannot read is the client's error, never the server's.
    @Test func aBodyThatIsNotHTTPIsABadRequestSayingWhy() {
        let malformed = ErrorRendering.serviceError(HTTPParserError.invalidChunkSize)
        #expect(malformed.status == .badRequest)
        #expect(malformed.code == .badRequest)
        #expect(malformed.reason.hasPrefix("the request's body is not HTTP/1.1 (invalid character in chunk size header); send it"))
        let cut = ErrorRendering.serviceError(HTTPParserError.invalidEOFState)
        #expect(cut.status == .badRequest)
        #expect(cut.reason.hasPrefix("the connection ended before the request's body did"))
    }

    @Test func anUnexpectedErrorIsAnInternalError() {
        struct Unexpected: Error {}
        let error = ErrorRendering.serviceError(Unexpected())
        #expect(error.status == .internalServerError)
        #expect(error.code == .internalError)
    }
}
