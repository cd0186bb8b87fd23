public import Foundation

/// Base64url without padding (RFC 4648 §5): the alphabet of the opaque tokens the engine and
/// the service hand out (page cursors, sync tokens), safe in URLs and JSON without escaping.
public enum Base64URL {
    /// `data` in base64url, without `=` padding.
    public static func encode(_ data: Data) -> String {
        let base64 = data.base64EncodedString()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base64.utf8.count)
        for byte in base64.utf8 {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The UTF-8 bytes of `text` in base64url.
    public static func encode(_ text: String) -> String {
        encode(Data(text.utf8))
    }

    /// The bytes `text` encodes (padded or not), or `nil` when it is not base64url (or base64).
    public static func decode(_ text: String) -> Data? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
            default: bytes.append(byte)
            }
        }
        bytes += repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
        return Data(base64Encoded: Data(bytes))
    }

    /// The UTF-8 text `text` encodes, or `nil` when it is not base64url of UTF-8.
    public static func decodeText(_ text: String) -> String? {
        decode(text).flatMap { String(data: $0, encoding: .utf8) }
    }
}
