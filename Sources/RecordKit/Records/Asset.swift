import Crypto
public import Foundation

/// An ASSET value: a file's bytes kept outside the record row, known by size and SHA-256.
///
/// Create one from content with ``init(content:)``; the database stores the bytes once per
/// distinct SHA-256. Fetched records carry only ``size`` and ``sha256``; read the bytes with
/// ``RecordDatabase/assetContent(sha256:)``.
public struct Asset: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Size of the content in bytes.
    public var size: Int
    /// Lower-case hex SHA-256 of the content.
    public var sha256: String
    /// The bytes, present on an asset about to be saved.
    public var content: Data?

    /// An asset holding `content`.
    public init(content: Data) {
        self.size = content.count
        self.sha256 = HexDigits.lowercase(SHA256.hash(data: content))
        self.content = content
    }

    /// A reference to stored content.
    public init(size: Int, sha256: String) {
        self.size = size
        self.sha256 = sha256
        self.content = nil
    }

    public var description: String { "asset(\(size) bytes, sha256 \(sha256.prefix(12))…)" }

    public static func == (lhs: Asset, rhs: Asset) -> Bool {
        lhs.size == rhs.size && lhs.sha256 == rhs.sha256
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sha256)
    }

    private enum CodingKeys: String, CodingKey { case size, sha256 }
}
