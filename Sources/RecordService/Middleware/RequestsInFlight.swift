import NIOHTTPTypes

/// A connection's requests from their heads arriving to their answers ending, counted as the
/// HTTP/1 handlers that answer on their own need them: ``RequestReadTimeoutHandler`` (a 408 only
/// for the one request still unanswered) and ``LaterHeadErrorHandler`` (a 400 only after the
/// answers before it).
struct RequestsInFlight {
    /// A request's head arrived and not yet its end.
    private(set) var isReading = false
    /// Requests whose head arrived and whose response has not ended.
    private(set) var unanswered = 0

    /// Counts a part of a request as it arrives.
    mutating func arrived(_ part: HTTPRequestPart) {
        switch part {
        case .head:
            isReading = true
            unanswered += 1
        case .body:
            break
        case .end:
            isReading = false
        }
    }

    /// Counts a response's end as it is written.
    mutating func answered() {
        unanswered = max(0, unanswered - 1)
    }
}
