import HTTPTypes
public import Hummingbird

/// The `Idempotency-Key` of a write: the client's name for one write, so that sending it again
/// after a dropped connection returns the stored response instead of applying it twice.
public struct IdempotencyKey: Sendable, Hashable, CustomStringConvertible {
    /// The key as the client sent it: 1 to 200 visible ASCII characters.
    public let text: String

    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 200, text.utf8.allSatisfy({ (33...126).contains($0) }) else { return nil }
        self.text = text
    }

    /// The key `request` carries, `nil` without one, 400 for one that is not 1 to 200 visible
    /// ASCII characters.
    public static func of(_ request: Request) throws(ServiceError) -> IdempotencyKey? {
        guard let header = request.headers[.idempotencyKey] else { return nil }
        guard let key = IdempotencyKey(header) else {
            throw ServiceError(.badRequest, code: .badRequest, "the Idempotency-Key header must be 1 to 200 visible ASCII characters (a UUID does well)")
        }
        return key
    }

    public var description: String { text }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}
