import NIOCore
import RecordKit

/// Compact JSON text written forward into an array of bytes: how CloudKit responses are built,
/// so a page of records becomes the response body without a string per record. (`records/query`
/// spent a third of its time appending strings to strings; a `ByteBuffer` written piece by piece
/// pays its bounds and uniqueness checks on each of the thousand pieces of a page.)
struct JSONBuffer {
    /// The UTF-8 text written so far.
    private(set) var bytes: [UInt8] = []

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `json`: JSON text already, such as punctuation and keys that need no escapes.
    mutating func raw(_ json: StaticString) {
        json.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `json`, JSON text written already.
    mutating func raw(_ json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    /// Appends `text` as a JSON string literal.
    mutating func string(_ text: String) {
        var utf8 = text
        let written = utf8.withUTF8 { utf8 in
            guard !JSONText.needsEscapes(utf8) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !written { bytes.append(contentsOf: JSONText.string(text).utf8) }
    }

    /// Appends `number`. An `Int64`, not any `BinaryInteger`: `String` of a generic integer goes
    /// through the standard library's unspecialized conversion, twice as slow, and CloudKit
    /// writes two timestamps a record.
    mutating func number(_ number: Int64) {
        // Numbers of up to 15 digits are small strings: no allocation.
        bytes.append(contentsOf: String(number).utf8)
    }

    /// Appends `number`, finite (JSON has no NaN or infinity, and the engine stores none), in
    /// Swift's shortest form that reads back as the same double.
    mutating func number(_ number: Double) {
        bytes.append(contentsOf: String(number).utf8)
    }

    /// Appends `true` or `false`.
    mutating func bool(_ flag: Bool) {
        raw(flag ? "true" : "false")
    }

    /// The text as a string.
    var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The text in a `ByteBuffer`, as a response body.
    var byteBuffer: ByteBuffer {
        ByteBuffer(bytes: bytes)
    }
}
