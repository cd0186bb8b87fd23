import Foundation
import GraphQL
import OrderedCollections

extension JSONValue {
    /// The value as GraphQLSwift's ``Map``, as its own `Decodable` conformance would decode the
    /// same JSON: every number a double, `null` as `.null`.
    var map: Map {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .integer(let number): .number(Number(Double(number)))
        case .double(let number): .number(Number(number))
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(\.map))
        case .object(let members):
            .dictionary(OrderedDictionary(uniqueKeysWithValues: members.lazy.map { ($0.key, $0.value.map) }))
        case .written(let json): ((try? JSONValue(parsing: json)) ?? .null).map
        }
    }
}
