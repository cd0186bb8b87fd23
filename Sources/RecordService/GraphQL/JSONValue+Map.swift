import Foundation
import GraphQL
import OrderedCollections

extension JSONValue {
    /// The value as GraphQLSwift's ``Map``: an integer keeps all 64 bits (a double holds 53:
    /// an `Int64` variable past 2^53 would change), `null` is `.null`.
    var map: Map {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .integer(let number): .number(Number(number))
        case .double(let number): .number(Number(number))
        case .string(let string): .string(string)
        case .array(let elements): .array(elements.map(\.map))
        case .object(let members):
            .dictionary(OrderedDictionary(uniqueKeysWithValues: members.lazy.map { ($0.key, $0.value.map) }))
        case .written(let json): ((try? JSONValue(parsing: json)) ?? .null).map
        }
    }
}
