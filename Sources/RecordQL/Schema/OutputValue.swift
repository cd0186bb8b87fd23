import Foundation
import RecordKit

/// What the resolvers of a ``RecordResolver``-backed schema hand GraphQLSwift for a stored value,
/// so that the field's GraphQL type serializes it: dates for `Timestamp`, data for `Bytes`,
/// RecordKit's ``Location`` and ``Asset`` for the `Location` and `Asset` objects (read member by
/// member), and numbers converted to the field's GraphQL type (a NUMBER holds either kind).
enum OutputValue {
    /// The output of `value`, stored in a field of `type`. REFERENCE values are followed by the
    /// reference resolvers instead; here they give their recordName.
    static func resolved(_ value: RecordKit.Value, type: FieldType) -> (any Sendable)? {
        switch value {
        case .string(let text): return text
        case .int64(let number): return type.isGraphQLFloat ? Double(number) : number
        case .double(let number): return number
        case .timestamp(let date): return date
        case .bytes(let data): return data
        case .reference(let reference): return reference.recordName
        case .asset(let asset): return asset
        case .location(let location): return location
        case .list(let elements):
            let element = type.elementType ?? type
            return elements.map { resolved($0, type: element) }
        }
    }
}

extension FieldType {
    /// Whether the field's GraphQL type is `Float` (DOUBLE, NUMBER unless PREFERRED AS INT64).
    var isGraphQLFloat: Bool {
        switch self {
        case .double, .number(preferred: nil), .number(preferred: .double): true
        default: false
        }
    }
}
