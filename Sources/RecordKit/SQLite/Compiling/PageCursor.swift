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
        return SHA256.hash(data: Data(text.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    var encoded: String {
        let values: [Any] = keys.map { value -> Any in
            switch value.storage {
            case .null: NSNull()
            case .int64(let number): ["i": NSNumber(value: number)]
            case .double(let number): ["d": NSNumber(value: number)]
            case .string(let text): ["s": text]
            case .blob(let data): ["b": data.base64EncodedString()]
            }
        }
        let object: [String: Any] = ["q": query, "k": values]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Decodes `text` for `query`, or throws `invalidArguments` when it is not a cursor of it.
    init(decoding text: String, for query: Query, keyCount: Int) throws(RecordError) {
        let invalid = RecordError(
            .invalidArguments,
            "the cursor is not one this query returned; pass the cursor of the previous page of the same query",
            recordType: query.recordType
        )
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
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
                case ("d", let number as NSNumber): keys.append(number.doubleValue.databaseValue)
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

    init(query: Query, keys: [DatabaseValue]) {
        self.query = Self.fingerprint(of: query)
        self.keys = keys
    }
}
