import Testing

@testable import ShopCLI

/// Server-sent events as `shop --server` reads them for `watch`: split at blank lines however the
/// bytes arrive, comments skipped.
@Suite struct EventStreamParserTests {
    @Test func eventsAreReadAcrossChunksOfAnySize() {
        let stream = ": keep-alive\n\nevent: next\ndata: {\"data\":{\"é\":1}}\n\nevent: complete\ndata: \n\n"
        let bytes = Array(stream.utf8)
        for size in [1, 2, 3, 7, bytes.count] {
            var parser = EventStreamParser()
            var events: [ServerEvent] = []
            for start in stride(from: 0, to: bytes.count, by: size) {
                events += parser.feed(bytes[start..<min(start + size, bytes.count)])
            }
            #expect(events == [ServerEvent(name: "next", data: #"{"data":{"é":1}}"#), ServerEvent(name: "complete", data: "")], "chunks of \(size)")
        }
    }

    @Test func crlfLineEndsAndSeveralDataLinesAreRead() {
        var parser = EventStreamParser()
        #expect(parser.feed(Array("data: a\r\ndata: b\r\n\r\n".utf8)) == [ServerEvent(name: "message", data: "a\nb")])
    }
}
