/// Bytes as lowercase hexadecimal text, two digits a byte: how digests (an asset's SHA-256, a
/// token's, a query's fingerprint) are written.
public enum HexDigits {
    /// `bytes` as lowercase hexadecimal digits.
    ///
    /// Inlinable, so that it is specialized for the caller's sequence: a token's digest read
    /// through the generic witnesses cost as much as hashing the token.
    @inlinable
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The sixteen digits, in order.
    @usableFromInline static let digits = Array("0123456789abcdef".utf8)
}
