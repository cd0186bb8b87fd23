/// A recordName as SQLite compares it: by its UTF-8 bytes.
///
/// Swift's `String` equality (and hashing) is canonical equivalence, so "café" with a composed
/// é and "café" with e + U+0301 are one dictionary key, though they are two different
/// recordNames in storage. Caches keyed by recordName use this type instead.
struct ExactName: Hashable {
    let name: String

    init(_ name: String) {
        self.name = name
    }

    static func == (left: ExactName, right: ExactName) -> Bool {
        left.name.utf8.elementsEqual(right.name.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var name = name
        name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
