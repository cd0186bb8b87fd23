import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import Testing

@testable import RecordService

@Suite struct LaterHeadErrorHandlerTests {
    private static let request = HTTPRequest(method: .get, scheme: nil, authority: "x", path: "/health")

    private func channel() -> EmbeddedChannel {
        EmbeddedChannel(handler: LaterHeadErrorHandler(logger: Logger(label: "test")))
    }

    private func written(_ channel: EmbeddedChannel) throws -> [HTTPResponsePart] {
        var parts: [HTTPResponsePart] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) { parts.append(part) }
        return parts
    }

    @Test func aHeadThatCannotBeReadBetweenRequestsIsA400SayingWhy() throws {
        let channel = channel()
        channel.pipeline.fireErrorCaught(HTTPParserError.invalidMethod)
        let parts = try written(channel)
        guard parts.count == 3, case .head(let head) = parts[0], case .body(let body) = parts[1], case .end = parts[2] else {
            Issue.record("expected a whole answer, got \(parts)")
            return
        }
        #expect(head.status == .badRequest && head.headerFields[.connection] == "close")
        let error = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
        #expect((error?["reason"] as? String)?.hasPrefix("the request is not HTTP/1.1 (invalid HTTP method)") == true)
        #expect(error?["uuid"] as? String == head.headerFields[.xRequestID])
        try channel.throwIfErrorCaught()
    }

    @Test func theAnswerToAPipelinedHeadThatCannotBeReadWaitsForTheAnswerBeforeIt() throws {
        let channel = channel()
        try channel.writeInbound(HTTPRequestPart.head(Self.request))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.pipeline.fireErrorCaught(HTTPParserError.invalidMethod)
        #expect(try written(channel).isEmpty)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        #expect(try written(channel).count == 1)
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        let parts = try written(channel)
        guard parts.count == 4, case .end = parts[0], case .head(let head) = parts[1] else {
            Issue.record("expected the answer's end, then the 400, got \(parts)")
            return
        }
        #expect(head.status == .badRequest)
    }

    @Test func aBodyThatCannotBeReadIsLeftToTheRouteReadingIt() throws {
        let channel = channel()
        try channel.writeInbound(HTTPRequestPart.head(Self.request))
        channel.pipeline.fireErrorCaught(HTTPParserError.invalidChunkSize)
        #expect(try written(channel).isEmpty)
        #expect(throws: HTTPParserError.invalidChunkSize) { try channel.throwIfErrorCaught() }
    }

    @Test func aConnectionEndingInTheMiddleOfAHeadIsAnsweredNothing() throws {
        let channel = channel()
        channel.pipeline.fireErrorCaught(HTTPParserError.invalidEOFState)
        #expect(try written(channel).isEmpty)
        try channel.throwIfErrorCaught()
    }
}
