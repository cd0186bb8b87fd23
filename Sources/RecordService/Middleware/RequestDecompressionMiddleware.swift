import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Reads a request body sent with `Content-Encoding: gzip` (or `x-gzip`), so a client may
/// compress a large batch or import as it may ask for compressed answers
/// (``ResponseCompressionMiddleware``): the route reads the body decompressed, and the body
/// limit holds for it decompressed too, so a small body that inflates past the limit is refused
/// with 413 instead of filling memory. A body that is not gzip is refused with 400 saying so,
/// and any other coding (`br`, `deflate`, several) with 415 naming it and, as HTTP says, an
/// `Accept-Encoding: gzip` header; before this, each read as a body that "is not JSON".
///
/// It runs after the credential, whose signature (a server-to-server key's) covers the body
/// as sent, so only a client with a credential makes the service inflate anything. An asset's
/// upload URL, whose route streams the body to a file, and the login, which has no credential
/// yet, take no coding.
struct RequestDecompressionMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    /// Whether a gzip body is decompressed for the routes behind it (not for an upload URL's
    /// streamed body, nor for a login, which any client may send).
    let decompresses: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let coding = Self.coding(of: request) else { return try await next(request, context) }
        guard decompresses, coding == "gzip" || coding == "x-gzip" else {
            let accepted = decompresses ? "send the body gzipped (Content-Encoding: gzip) or as it is" : "send the body as it is"
            throw ServiceError(
                .unsupportedMediaType, code: .badRequest, "the request body's Content-Encoding '\(coding)' is not one this service reads; \(accepted)",
                headers: [.acceptEncoding: decompresses ? "gzip" : "identity"])
        }
        var compressed = try await request.body.collect(upTo: context.maxUploadSize)
        let plain: ByteBuffer
        do {
            plain = try compressed.decompress(with: .gzip(), maxSize: context.maxUploadSize)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw Self.tooLarge(limit: context.maxUploadSize)
        } catch {
            throw ServiceError(.badRequest, code: .badRequest, "the request body is not gzip, as its Content-Encoding says; send it gzipped or drop the header")
        }
        // The library stops past `maxSize` only at its buffers' rounded-up capacities.
        guard plain.readableBytes <= context.maxUploadSize else { throw Self.tooLarge(limit: context.maxUploadSize) }
        var head = request.head
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.contentLength] = String(plain.readableBytes)
        return try await next(Request(head: head, body: RequestBody(buffer: plain)), context)
    }

    /// The 413 for a body past `limit` bytes decompressed.
    private static func tooLarge(limit: Int) -> ServiceError {
        ServiceError(
            .contentTooLarge, code: .quotaExceeded,
            "the request body is more than \(limit) bytes once decompressed; send less per request (this service accepts at most \(limit) bytes)")
    }

    /// The request body's coding, lowercased, or `nil` when it has none (or `identity`).
    static func coding(of request: Request) -> String? {
        let codings = request.headers[values: .contentEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard !codings.isEmpty else { return nil }
        return codings.joined(separator: ", ")
    }
}
