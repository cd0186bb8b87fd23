import Foundation
import GraphQL
import OrderedCollections

/// A text that tells GraphQL `Map` values apart exactly, to key caches by variables: two values
/// have the same text only if they are the same in every respect (a `Map`'s own `==` takes `2`
/// and `2.0`, or `1` and `true`, for the same number).
///
/// Each value is written with a tag for its case, strings and keys with their length; numbers
/// with their storage, Objective-C type, integer value and the bits of their double value; the
/// members of a variables dictionary in key order, those of an object in their own order (the
/// order of a `sort` object's keys matters).
enum ExactMapText {
    /// The text of `variables`, or `nil` when it would be longer than `maximumLength` bytes.
    static func text(of variables: [String: Map], maximumLength: Int) -> String? {
        var writer = Writer(maximumLength: maximumLength)
        writer.append("{\(variables.count):")
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) {
            writer.append(string: name)
            writer.append(value)
        }
        writer.append("}")
        return writer.exceeded ? nil : writer.text
    }

    private struct Writer {
        let maximumLength: Int
        var text = ""
        var exceeded = false

        mutating func append(_ part: String) {
            guard !exceeded else { return }
            text += part
            exceeded = text.utf8.count > maximumLength
        }

        mutating func append(string: String) {
            append("s\(string.utf8.count):")
            append(string)
        }

        mutating func append(_ value: Map) {
            switch value {
            case .undefined: append("u")
            case .null: append("n")
            case .bool(let bool): append(bool ? "T" : "F")
            case .number(var number):
                let object = number.number
                append("#\(number.storageType)/\(String(cString: object.objCType))/\(object.int64Value)/\(object.doubleValue.bitPattern);")
            case .string(let string): append(string: string)
            case .array(let items):
                append("[\(items.count):")
                for item in items { append(item) }
                append("]")
            case .dictionary(let members):
                append("{\(members.count):")
                for (key, member) in members {
                    append(string: key)
                    append(member)
                }
                append("}")
            }
        }
    }
}
