import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// An error answer written by a channel handler before the request reaches the router (a head
/// that cannot be read, a request that does not arrive in time): the error rendered as the API
/// of `path` renders it (``ErrorRendering/of(path:)``), under a request id that the answer and
/// its log line carry, and a `Connection: close` since the connection closes after it. Each
/// handler writes it in its pipeline's form: ``parts(allocator:)``, ``http1Parts(allocator:)``
/// or ``bytes(allocator:)`` before HTTP encoding.
struct EarlyAnswer {
    let status: HTTPResponse.Status
    let requestID: String
    let body: String
    let headerFields: HTTPFields

    init(_ error: ServiceError, path: String = "", accept: String? = nil, requestID: String = RequestIDMiddleware.generatedID()) {
        let (contentType, body) = ErrorRendering.of(path: path).rendered(error, accept: accept, requestID: requestID)
        self.status = error.status
        self.requestID = requestID
        self.body = body
        self.headerFields = [
            .contentType: contentType, .contentLength: String(body.utf8.count), .xRequestID: requestID, .connection: "close",
        ]
    }

    /// The answer to a request head the HTTP parser could not read: 431 for headers past the
    /// parser's limit (RFC 6585), 400 for anything else, saying what could not be read and what a
    /// request must look like.
    init(unreadableHead error: HTTPParserError) {
        let (status, reason): (HTTPResponse.Status, String) =
            switch error {
            case .headerOverflow: (.requestHeaderFieldsTooLarge, "the request's headers pass 80 KiB; send fewer or shorter headers")
            default:
                (
                    .badRequest,
                    "the request is not HTTP/1.1 (\(error.debugDescription)); send a request line (METHOD PATH HTTP/1.1), "
                        + "then header lines (NAME: VALUE), then an empty line"
                )
            }
        self.init(ServiceError(status, code: .badRequest, reason + " (the connection was closed)"))
    }

    /// The answer as the parts of an HTTP response (swift-http-types' form).
    func parts(allocator: ByteBufferAllocator) -> [HTTPResponsePart] {
        [.head(HTTPResponse(status: status, headerFields: headerFields)), .body(allocator.buffer(string: body)), .end(nil)]
    }

    /// The answer as the parts of an HTTP/1 response (NIOHTTP1's form).
    func http1Parts(allocator: ByteBufferAllocator) -> [HTTPServerResponsePart] {
        let headers = HTTPHeaders(headerFields.map { ($0.name.rawName, $0.value) })
        return [
            .head(HTTPResponseHead(version: .http1_1, status: .init(statusCode: status.code), headers: headers)),
            .body(.byteBuffer(allocator.buffer(string: body))), .end(nil),
        ]
    }

    /// The whole answer as HTTP/1.1 bytes: status line, header lines, body.
    func bytes(allocator: ByteBufferAllocator) -> ByteBuffer {
        var text = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        for field in headerFields { text += "\(field.name.rawName): \(field.value)\r\n" }
        return allocator.buffer(string: text + "\r\n" + body)
    }

    /// The request's log line (``RequestLogMiddleware``'s), with what could not be read in place
    /// of the method and path, which never were.
    func log(to logger: Logger, unreadable: String) {
        logger.info("request", metadata: ["status": .stringConvertible(status.code), "unreadable": .string(unreadable), "request_id": .string(requestID)])
    }

    /// The log line of a request that was read and answered before the router: its method and
    /// path (never the query, which may hold a token), as ``RequestLogMiddleware`` writes them.
    func log(to logger: Logger, method: String, uri: String) {
        logger.info(
            "request",
            metadata: [
                "method": .string(method), "path": .string(String(uri.prefix { $0 != "?" })), "status": .stringConvertible(status.code),
                "request_id": .string(requestID),
            ])
    }

    /// Closes the connection after an early answer: the way out first and the connection a
    /// moment later, discarding what the client still sends meanwhile. Closing at once with
    /// bytes of its unread would reset the connection, and a reset can destroy the answer before
    /// the client reads it.
    static func closeLingering(_ context: ChannelHandlerContext) {
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: lingering) { context.close(promise: nil) }
    }

    /// How long a connection is kept, reading and discarding, after an early answer.
    private static let lingering = TimeAmount.seconds(2)
}
