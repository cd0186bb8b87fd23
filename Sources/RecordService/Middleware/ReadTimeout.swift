import HTTPTypes
import NIOCore
import RecordKit

/// The service's read timeout as its two handlers apply it (``FirstHeadTimeoutHandler`` before
/// HTTP decoding, ``RequestReadTimeoutHandler`` after): the amount, the time a body may take,
/// and the error a request that did not arrive in time is answered with.
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

    /// The least rate, in bytes a second, a body is expected to arrive at over a slow link.
    static let minimumBodyRate = 64 << 10

    /// How long a body of `length` bytes (its `Content-Length`; `nil` when it is chunked) may
    /// take to arrive in all: the timeout, and a second more for each 64 KiB
    /// (``minimumBodyRate``) up to the largest body a route takes, a 64 MiB asset (about 17
    /// minutes more). A client that sends nothing for the timeout meanwhile is stopped then.
    func bodyAllowance(length: Int?) -> TimeAmount {
        let counted = Int64(min(max(length ?? 0, 0), Limits.maximumAssetBytes))
        return amount + .nanoseconds(counted * 1_000_000_000 / Int64(Self.minimumBodyRate))
    }

    /// The 408's error: the request's headers did not arrive in time.
    var headersError: ServiceError {
        error("the request's headers did not arrive within \(text)")
    }

    /// The 408's error: a body of `length` bytes did not arrive within its
    /// ``bodyAllowance(length:)``, or (`stalled`) nothing of it came for the timeout.
    func bodyError(length: Int?, stalled: Bool) -> ServiceError {
        if stalled { return error("the request's body stopped arriving: nothing of it came for \(text)") }
        let extra = bodyAllowance(length: length) - amount
        guard extra >= .seconds(1) else { return error("the request's body did not arrive within \(text)") }
        let total = (bodyAllowance(length: length).nanoseconds + 999_999_999) / 1_000_000_000
        return error("the request's body did not arrive within \(total) s (\(text), and 1 s for each 64 KiB of its length)")
    }

    private func error(_ reason: String) -> ServiceError {
        ServiceError(.requestTimeout, code: .badRequest, reason + "; send the whole request at once (the connection was closed)")
    }
}
