import Crypto
import RecordKit

/// A bearer token: 256 random bits written as 64 lowercase hex characters. Only its SHA-256 is
/// ever stored.
public struct AccessToken: Sendable, Hashable {
    /// The token text a client sends.
    public let text: String

    /// A new random token.
    public static func generate() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return AccessToken(text: HexDigits.lowercase(bytes))
    }

    /// The token in `text`, when it has the shape of one (64 lowercase hex characters).
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == 64, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        self.text = String(text)
    }

    private init(text: String) {
        self.text = text
    }

    /// The SHA-256 of the token, as 64 lowercase hex characters: the form it is stored in.
    public var digest: String {
        var text = text
        return HexDigits.lowercase(text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) })
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
