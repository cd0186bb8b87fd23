import HTTPTypes
import Logging
import NIOCore

/// An error answer written by a channel handler before the request reaches the router (a head
/// that cannot be read, a request that does not arrive in time): the error rendered as the API
/// of `path` renders it (``ErrorRendering/of(path:)``), under a request id that the answer and
/// its log line carry, and a `Connection: close` since the connection closes after it. Each
/// handler writes it in its pipeline's own form: ``headerFields``, or ``bytes(allocator:)``
/// before HTTP encoding.
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
}
