import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import RecordService

@Suite struct WebSocketOriginHandlerTests {
    private func channel() -> EmbeddedChannel {
        EmbeddedChannel(handler: WebSocketOriginHandler(origins: .only(["https://app.example"]), logger: Logger(label: "test")))
    }

    private static func upgrade(_ path: String = "/graphql", origin: String?) -> HTTPServerRequestPart {
        var headers: HTTPHeaders = [
            "Host": "localhost", "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        ]
        if let origin { headers.add(name: "Origin", value: origin) }
        return .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers))
    }

    private func written(_ channel: EmbeddedChannel) throws -> [HTTPServerResponsePart] {
        var parts: [HTTPServerResponsePart] = []
        while let part = try channel.readOutbound(as: HTTPServerResponsePart.self) { parts.append(part) }
        return parts
    }

    @Test func anUpgradeFromAPageOfAnOriginNotListedIsA403NamingTheOriginAndWhatToDo() throws {
        for (path, shape) in [("/graphql", "errors"), ("/database/1/iCloud.shop/development/public/graphql?x=1", "errors")] {
            let channel = channel()
            try channel.writeInbound(Self.upgrade(path, origin: "https://elsewhere.example"))
            try channel.writeInbound(HTTPServerRequestPart.end(nil))
            #expect(try channel.readInbound(as: HTTPServerRequestPart.self) == nil, "nothing goes on to the upgrade")
            let parts = try written(channel)
            guard parts.count == 3, case .head(let head) = parts[0], case .body(.byteBuffer(let body)) = parts[1] else {
                Issue.record("expected a whole answer, got \(parts)")
                continue
            }
            #expect(head.status == .forbidden && head.headers["Connection"] == ["close"])
            let text = String(buffer: body)
            #expect(text.contains(shape) && text.contains("ACCESS_DENIED"))
            #expect(text.contains("origin 'https://elsewhere.example'") && text.contains("--allow-origin https://elsewhere.example"))
        }
    }

    @Test func aListedPageAClientWithoutOriginAndAnOrdinaryRequestGoOn() throws {
        let allowed: [HTTPServerRequestPart] = [
            Self.upgrade(origin: "https://App.Example"), Self.upgrade(origin: nil),
            .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/health", headers: ["Origin": "https://elsewhere.example"])),
        ]
        for head in allowed {
            let channel = channel()
            try channel.writeInbound(head)
            #expect(try channel.readInbound(as: HTTPServerRequestPart.self) != nil)
            #expect(try written(channel).isEmpty)
            // Only the first head is looked at: the handler has left.
            #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: WebSocketOriginHandler.self) }
        }
    }

    @Test func upgradeIsReadInAnyCaseAndAmongOtherProtocols() {
        #expect(WebSocketOriginHandler.asksForWebSocket(["Upgrade": "h2c, WebSocket"]))
        #expect(!WebSocketOriginHandler.asksForWebSocket(["Upgrade": "h2c"]) && !WebSocketOriginHandler.asksForWebSocket([:]))
    }
}
