public import Crypto
public import Foundation

/// A request signed as CloudKit's server-to-server requests are: the headers
/// `X-Apple-CloudKit-Request-KeyID`, `X-Apple-CloudKit-Request-ISO8601Date` and
/// `X-Apple-CloudKit-Request-SignatureV1`, the signature being ECDSA P-256 with SHA-256 over
/// `DATE:BASE64(SHA256(BODY)):PATH`, DER-encoded, in base64. For an empty body the hash part may
/// also be empty (`DATE::PATH`), as some clients send it.
public struct ServerSignature: Sendable, Hashable {
    public var keyID: String
    /// The date as sent, ISO 8601.
    public var date: String
    /// The signature as sent, base64 of DER.
    public var signature: String

    /// How far the request's date may be from the service's clock, either way.
    public static let maximumClockSkew: TimeInterval = 5 * 60

    public init(keyID: String, date: String, signature: String) {
        self.keyID = keyID
        self.date = date
        self.signature = signature
    }

    /// The texts a valid signature signs for `body` sent to `path`: one, or two for an empty body.
    static func signedTexts(date: String, body: Data, path: String) -> [String] {
        let hash = Data(SHA256.hash(data: body)).base64EncodedString()
        var texts = [date + ":" + hash + ":" + path]
        if body.isEmpty { texts.append(date + "::" + path) }
        return texts
    }

    /// Why a signed request is refused, for the service's log and the 401's reason.
    public enum Refusal: Error, Sendable, Equatable {
        case malformedDate
        case dateOutOfRange
        case malformedSignature
        case wrongSignature

        var reason: String {
            switch self {
            case .malformedDate: "X-Apple-CloudKit-Request-ISO8601Date is not an ISO 8601 date such as 2026-11-26T12:00:00Z"
            case .dateOutOfRange: "X-Apple-CloudKit-Request-ISO8601Date is more than 5 minutes from the service's clock; sign the request anew"
            case .malformedSignature: "X-Apple-CloudKit-Request-SignatureV1 is not a base64 DER ECDSA signature"
            case .wrongSignature:
                "the signature does not match the key, date, body and path; sign DATE:BASE64(SHA256(BODY)):PATH with the key's private key"
            }
        }
    }

    /// Checks the signature against `key` for `body` sent to `path`, and the date against `now`.
    public func verify(with key: P256.Signing.PublicKey, body: Data, path: String, now: Date = Date()) throws(Refusal) {
        guard let sent = Self.parseDate(date) else { throw .malformedDate }
        guard abs(sent.timeIntervalSince(now)) <= Self.maximumClockSkew else { throw .dateOutOfRange }
        guard let der = Data(base64Encoded: signature), let parsed = try? P256.Signing.ECDSASignature(derRepresentation: der) else {
            throw .malformedSignature
        }
        let valid = Self.signedTexts(date: date, body: body, path: path).contains { key.isValidSignature(parsed, for: Data($0.utf8)) }
        guard valid else { throw .wrongSignature }
    }

    /// `2026-11-26T12:00:00Z`, with or without fractional seconds.
    static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
