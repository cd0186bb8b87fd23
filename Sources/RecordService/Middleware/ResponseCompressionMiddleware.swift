import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// Compresses an answer with gzip when the request accepts it (`Accept-Encoding`), as CloudKit's
/// servers do: a page of 50 records in CloudKit's JSON is about 24 KB, a tenth
/// of that compressed. Answers in JSON, YAML or text of at least ``minimumLength`` bytes whose
/// length is known are compressed (at zlib's fastest level), and kept as they are when that
/// would not make them smaller; streams (server-sent events, asset downloads) and smaller
/// answers go as they are, and so do answers to HEAD (no content to compress). An answer it
/// would compress says `Vary: Accept-Encoding`, compressed or not, and so does the answer to
/// its HEAD, so a cache between client and service keeps the two forms apart.
struct ResponseCompressionMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    /// The smallest answer worth compressing: below it gzip's framing and the work cost more
    /// than the bytes saved.
    static let minimumLength = 1_024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard let length = response.body.contentLength, length >= Self.minimumLength, Self.isCompressible(response) else { return response }
        response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        guard request.method != .head, Self.acceptsGzip(request.headers[values: .acceptEncoding]) else { return response }
        let collector = BodyCollector(capacity: length)
        try await response.body.write(collector)
        var plain = collector.bytes
        let compressed = try plain.compress(with: .gzip(configuration: ZlibConfiguration(compressionLevel: .fastestCompression)))
        guard compressed.readableBytes < collector.bytes.readableBytes else {
            response.body = collector.body(collector.bytes)
            return response
        }
        response.headers[.contentEncoding] = "gzip"
        response.body = collector.body(compressed)
        return response
    }

    /// Whether `response` is of a kind this compresses: a body in JSON, YAML or text (not an
    /// event stream), not encoded already, with a status that carries a body.
    static func isCompressible(_ response: Response) -> Bool {
        let status = response.status.code
        guard status >= 200, status != 204, status != 304, response.headers[.contentEncoding] == nil,
            let contentType = response.headers[.contentType]
        else { return false }
        return isCompressible(mediaType: contentType)
    }

    /// Whether a `Content-Type` (parameters and case aside) names JSON, YAML or text other than
    /// an event stream. Trimmed by the service's `trimmingWhitespace()`: every answer of
    /// a kilobyte or more asks, and Foundation's `trimmingCharacters(in:)` took 2% of the
    /// service's time under load.
    static func isCompressible(mediaType contentType: String) -> Bool {
        let mediaType = contentType.prefix { $0 != ";" }.trimmingWhitespace().lowercased()
        if mediaType.hasPrefix("text/") { return mediaType != "text/event-stream" }
        return mediaType.hasSuffix("/json") || mediaType.hasSuffix("+json") || mediaType.hasSuffix("/yaml") || mediaType.hasSuffix("+yaml")
    }

    /// Whether `Accept-Encoding` (its field values, as sent) takes gzip: `gzip` or `x-gzip` with a
    /// quality above 0, or else `*` with one (RFC 9110, section 12.5.3). No field takes only the
    /// identity (a client that says nothing gets no compression it may not read).
    static func acceptsGzip(_ values: [String]) -> Bool {
        var gzip: Double?
        var any: Double?
        for member in values.flatMap({ $0.split(separator: ",") }) {
            let parts = member.split(separator: ";").map { $0.trimmingWhitespace().lowercased() }
            guard let coding = parts.first, !coding.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
                if pair.count == 2, pair[0] == "q" { quality = Double(pair[1]) ?? 0 }
            }
            switch coding {
            case "gzip", "x-gzip": gzip = max(gzip ?? 0, quality)
            case "*": any = quality
            default: break
            }
        }
        return (gzip ?? any ?? 0) > 0
    }
}

/// A response body's bytes gathered whole, and its trailing fields, to write again as they were
/// or compressed.
private final class BodyCollector: ResponseBodyWriter {
    private(set) var bytes: ByteBuffer
    private var trailingFields: HTTPFields?

    init(capacity: Int) {
        bytes = ByteBuffer()
        bytes.reserveCapacity(capacity)
    }

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        bytes.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {
        trailingFields = trailingHeaders
    }

    /// A body of `content` followed by the trailing fields collected.
    func body(_ content: ByteBuffer) -> ResponseBody {
        guard let trailingFields else { return ResponseBody(byteBuffer: content) }
        return ResponseBody(contentLength: content.readableBytes) { writer in
            try await writer.write(content)
            try await writer.finish(trailingFields)
        }
    }
}
