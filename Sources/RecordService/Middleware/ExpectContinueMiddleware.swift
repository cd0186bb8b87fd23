public import Hummingbird
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Meets a request's `Expect: 100-continue` (RFC 9110 §10.1.1): the client waits to send its body
/// until the server says `100 Continue` (curl does for a body past 1 MiB, and sends it anyway
/// after a second). The 100 is written when a route first reads the body, so a request refused
/// before that — a credential refused, a declared length past the limit (413) — is answered
/// without the client sending a body it would only waste; such an answer says
/// `Connection: close`, since the client may still send the body or may not, and the connection
/// cannot tell which. Hummingbird itself leaves the expectation unanswered.
public struct ExpectContinueMiddleware: RouterMiddleware {
    public typealias Context = ServiceRequestContext

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.expectsContinue(request.headers[.expect]) else { return try await next(request, context) }
        let body = ContinuingBody(base: request.body, channel: context.channel)
        var request = request
        request.body = RequestBody(asyncSequence: body)
        var response = try await next(request, context)
        if !body.continued { response.headers[.connection] = "close" }
        return response
    }

    /// Whether an `Expect` value asks for `100 Continue` (its only expectation, in any case).
    static func expectsContinue(_ value: String?) -> Bool {
        guard let value else { return false }
        return value.filter { $0 != " " && $0 != "\t" }.lowercased() == "100-continue"
    }
}

/// A request body that writes `100 Continue` to the connection before its first part is read.
struct ContinuingBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// Whether the 100 was written, shared by the body's iterators.
    private final class Sent: Sendable {
        let flag = Atomic<Bool>(false)
    }

    let base: RequestBody
    let channel: any Channel
    private let sent = Sent()

    init(base: RequestBody, channel: any Channel) {
        self.base = base
        self.channel = channel
    }

    /// Whether the 100 was written (the body began to be read).
    var continued: Bool { sent.flag.load(ordering: .acquiring) }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let body: ContinuingBody

        mutating func next() async throws -> ByteBuffer? {
            if !body.sent.flag.exchange(true, ordering: .acquiringAndReleasing) {
                try await body.channel.writeAndFlush(HTTPResponsePart.head(HTTPResponse(status: .continue)))
            }
            return try await base.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), body: self)
    }
}
