import Foundation
import GraphQL
import OrderedCollections

extension PreparedOperation {
    /// The request a `@transaction` mutation is stored under, as JSON text: the document, the
    /// operation's name and the variables, the members of every object in key order (JSON
    /// objects are unordered: a client sending the request again may order them otherwise) and
    /// integers exactly. The same text, operation and variables make a retry; anything else
    /// under the same ID is a conflict.
    var storedRequest: Data {
        var members: OrderedDictionary<String, Map> = ["document": .string(text)]
        if let operationName { members["operationName"] = .string(operationName) }
        members["variables"] = Self.sortingKeys(.dictionary(OrderedDictionary(uniqueKeysWithValues: variables.map { ($0.key, $0.value) })))
        return Data(JSONWriter.json(.dictionary(members)).utf8)
    }

    /// `value` with the members of each of its objects in key order.
    private static func sortingKeys(_ value: Map) -> Map {
        switch value {
        case .array(let items):
            .array(items.map(sortingKeys))
        case .dictionary(let members):
            .dictionary(OrderedDictionary(uniqueKeysWithValues: members.sorted { $0.key < $1.key }.map { ($0.key, sortingKeys($0.value)) }))
        default:
            value
        }
    }
}
