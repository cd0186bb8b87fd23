/// A string as SQLite compares it: by its UTF-8 bytes.
///
/// Swift's `String` equality (and hashing) is canonical equivalence, so "café" with a composed
/// é and "café" with e + U+0301 are one dictionary key, though they are two different
/// recordNames in storage, and two GraphQL texts with those literals ask for different records.
/// Caches keyed by such text use this type instead.
public struct ExactText: Hashable, Sendable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public static func == (left: ExactText, right: ExactText) -> Bool {
        left.text.utf8.elementsEqual(right.text.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
