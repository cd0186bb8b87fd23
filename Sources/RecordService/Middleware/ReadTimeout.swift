import HTTPTypes
import NIOCore

/// The service's read timeout as its two handlers apply it (``FirstHeadTimeoutHandler`` before
/// HTTP decoding, ``RequestReadTimeoutHandler`` after): the amount, the error a request that did
/// not arrive in time is answered with, and how its connection is closed.
struct ReadTimeout {
    let amount: TimeAmount
    /// The timeout as a 408's reason says it: "30 s", "1500 ms".
    let text: String

    init(_ timeout: Duration) {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        amount = .milliseconds(milliseconds)
        text = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    /// The 408's error: the request's `part` ("headers", "body") did not arrive in time.
    func error(_ part: String) -> ServiceError {
        ServiceError(
            .requestTimeout, code: .badRequest,
            "the request's \(part) did not arrive within \(text); send the whole request at once (the connection was closed)")
    }

    /// Closes the way out first and the connection a moment later, discarding what the client
    /// still sends meanwhile: closing at once with bytes of its unread would reset the connection,
    /// and a reset can destroy a 408 before the client reads it.
    static func closeLingering(_ context: ChannelHandlerContext) {
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: lingering) { context.close(promise: nil) }
    }

    /// How long a connection is kept, reading and discarding, after its 408.
    private static let lingering = TimeAmount.seconds(2)
}
