import Crypto
import Foundation
internal import GRDB

/// A keyset position: the sort-key values and recordName of the last record of a page, tied to
/// the query it came from. Opaque to users (base64url of JSON); decoding never trusts it
/// beyond binding its values as parameters.
struct PageCursor: Equatable {
    /// Fingerprint of record type, predicate and sort, so a cursor is not used with another query.
    var query: String
    /// One value per sort key, the recordName tie-break last.
    var keys: [DatabaseValue]

    static func fingerprint(of query: Query) -> String {
        let text = "\(query.recordType)\n\(query.predicate)\n\(query.sort.map { "\($0.key) \($0.ascending)" })"
        return HexDigits.lowercase(SHA256.hash(data: Data(text.utf8)).prefix(8))
    }

    /// The cursor's text: its JSON (`{"k":[…],"q":…}`, each key tagged with its kind) in
    /// base64url without padding.
    var encoded: String {
        var json = "{\"k\":["
        for (index, value) in keys.enumerated() {
            if index > 0 { json += "," }
            switch value.storage {
            case .null: json += "null"
            case .int64(let number): json += "{\"i\":\(number)}"
            // Swift prints the shortest text that reads back as the same double (the engine
            // stores no NaN or infinity), held as a string: Foundation's JSON reader makes a
            // decimal of a number, which rounds one needing 17 digits (0.30000000000000004).
            case .double(let number): json += "{\"d\":\"\(number)\"}"
            case .string(let text):
                json += "{\"s\":"
                JSONText.append(text, to: &json)
                json += "}"
            case .blob(let data): json += "{\"b\":\"\(data.base64EncodedString())\"}"
            }
        }
        json += "],\"q\":"
        JSONText.append(query, to: &json)
        json += "}"
        return Base64URL.encode(json)
    }

    /// Decodes `text` for `query`, or throws `invalidArguments` when it is not a cursor of it.
    init(decoding text: String, for query: Query, keyCount: Int) throws(RecordError) {
        let invalid = Self.invalid(for: query)
        guard let data = Base64URL.decode(text),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let fingerprint = object["q"] as? String, fingerprint == Self.fingerprint(of: query),
            let values = object["k"] as? [Any], values.count == keyCount
        else { throw invalid }
        var keys: [DatabaseValue] = []
        for value in values {
            if value is NSNull {
                keys.append(.null)
            } else if let tagged = value as? [String: Any], tagged.count == 1, let (tag, payload) = tagged.first {
                switch (tag, payload) {
                case ("i", let number as NSNumber): keys.append(number.int64Value.databaseValue)
                case ("d", let text as String):
                    guard let number = Double(text), number.isFinite else { throw invalid }
                    keys.append(number.databaseValue)
                case ("s", let string as String): keys.append(string.databaseValue)
                case ("b", let string as String):
                    guard let blob = Data(base64Encoded: string) else { throw invalid }
                    keys.append(blob.databaseValue)
                default: throw invalid
                }
            } else {
                throw invalid
            }
        }
        self.query = fingerprint
        self.keys = keys
    }

    /// The failure of a cursor that is not one of `query`'s pages.
    static func invalid(for query: Query) -> RecordError {
        RecordError(
            .invalidArguments, "the cursor is not one this query returned; pass the cursor of the previous page of the same query",
            recordType: query.recordType, reason: .invalidCursor)
    }

    init(query: Query, keys: [DatabaseValue]) {
        self.query = Self.fingerprint(of: query)
        self.keys = keys
    }
}
