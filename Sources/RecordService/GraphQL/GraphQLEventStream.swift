import Hummingbird
import NIOCore
import RecordKit
import RecordQL
import ServiceLifecycle

/// GraphQL over server-sent events, in the GraphQL-over-SSE protocol's "distinct connections"
/// mode: a GraphQL request (POST or GET, as over HTTP) whose `Accept` asks for
/// `text/event-stream` is answered with a stream of `event: next` (`data:` one execution
/// result) ending with `event: complete`. A query gets its result and completes; a subscription
/// gets the query's result at once and again after each commit that changes it, until the
/// client disconnects. A subscriber that falls ``LiveFeed/capacity`` results behind gets
/// `event: error` and the connection is closed.
enum GraphQLEventStream {
    /// The media type of the stream.
    static let mediaType = "text/event-stream"
    /// How long a subscriber whose buffer overflowed may take to read its error event before
    /// its connection is closed anyway.
    static let overflowGrace: TimeAmount = .seconds(5)

    /// Whether `accept` asks for an event stream (a `text/event-stream` range with a quality
    /// above 0).
    static func isAccepted(_ accept: String?) -> Bool {
        quality(in: accept) > 0
    }

    /// The quality `accept` gives an event stream: that of its `text/event-stream` range, 0
    /// when it names none.
    static func quality(in accept: String?) -> Double {
        // Nearly every request names no event stream at all: no parsing for those.
        guard let accept, mentionsEventStream(accept) else { return 0 }
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
            guard parts.first == mediaType else { continue }
            return parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
        }
        return 0
    }

    /// Whether an operation of `kind` is answered as a stream for a request whose `Accept` is
    /// `accept`: a subscription whenever a stream is acceptable; a query when the stream has the
    /// higher quality than JSON (JSON on a tie, so a client listing both, as urql does, gets
    /// JSON); a mutation only when JSON is not acceptable at all (which is then refused).
    static func answers(_ kind: OperationKind, accept: String?) -> Bool {
        let stream = quality(in: accept)
        guard stream > 0 else { return false }
        let json = GraphQLMediaType.best(accept)?.quality ?? 0
        switch kind {
        case .subscription: return true
        case .query: return stream > json
        case .mutation: return json == 0
        }
    }

    /// Whether `text` may name an event stream: true for `event-stream` in any ASCII case (and
    /// for a few look-alikes the full parse then refuses), read byte by byte, without the
    /// lowercased copy and substring search it took for the `Accept` header of every request.
    static func mentionsEventStream(_ text: String) -> Bool {
        let pattern = eventStreamBytes
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= pattern.count else { return false }
            return (0...bytes.count - pattern.count).contains { start in
                pattern.indices.allSatisfy { bytes[start + $0] | 0x20 == pattern[$0] | 0x20 }
            }
        }
    }

    private static let eventStreamBytes = Array("event-stream".utf8)

    /// The stream answering `operation` (a query or a subscription) acting for `access`; a
    /// subscription asks `isAuthorized` before each event and pulse it sends, and ends with
    /// `event: error` once its credential is revoked.
    static func response(
        _ operation: PreparedOperation, engine: RecordQLEngine, access: AccessPolicy, channel: any Channel,
        isAuthorized: @escaping @Sendable () async -> Bool
    ) -> Response {
        let headers: HTTPFields = [.contentType: mediaType + "; charset=utf-8", .cacheControl: "no-cache"]
        guard operation.kind == .subscription else {
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    let response = await engine.run(operation, access: access)
                    try await writer.write(ByteBuffer(string: event("next", response.json) + event("complete", "")))
                    try await writer.finish(nil)
                })
        }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let feed = LiveFeed(engine.subscribe(operation, access: access), pulsing: true) {
                    // Closed even if the client never reads its error event.
                    _ = channel.eventLoop.scheduleTask(in: overflowGrace) { channel.close(promise: nil) }
                }
                defer { feed.stop() }
                // A server shutting down completes the stream.
                try await withGracefulShutdownHandler {
                    var wakeups = feed.buffer.wakeups.makeAsyncIterator()
                    while true {
                        let batch = feed.buffer.take()
                        if !batch.results.isEmpty || batch.pulse, await !isAuthorized() {
                            try await writer.write(ByteBuffer(string: event("error", GraphQLResponse.revoked.json)))
                            break
                        }
                        var text = batch.results.map { event("next", $0) }.joined()
                        if batch.pulse, text.isEmpty { text = ":\n\n" }
                        if batch.overflowed {
                            text += event("error", GraphQLResponse.tooSlow.json)
                        } else if batch.ended {
                            text += event("complete", "")
                        }
                        if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
                        if batch.overflowed || batch.ended { break }
                        guard await wakeups.next() != nil else { break }
                    }
                } onGracefulShutdown: {
                    feed.buffer.end()
                }
                try await writer.finish(nil)
            })
    }

    /// One event: its name, and `data` on one line (a compact JSON text has no line breaks).
    static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\ndata: \(data)\n\n"
    }
}
