public import Hummingbird

/// A response as a transaction stores it with its writes: replayed byte for byte to a retry.
public struct StoredResponse: Sendable, Hashable, Codable {
    public var status: Int
    public var contentType: String
    public var body: String

    public init(status: HTTPResponse.Status, contentType: String, body: String) {
        self.status = Int(status.code)
        self.contentType = contentType
        self.body = body
    }

    /// The HTTP response; a replay carries `Idempotent-Replayed: true`.
    public func response(replayed: Bool) -> Response {
        var headers: HTTPFields = [.contentType: contentType]
        if replayed { headers[.idempotentReplayed] = "true" }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
