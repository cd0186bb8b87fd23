import RecordKit

/// The keys of a field's operator object in `TFilter` (`name: {beginsWith: "Mi", caseInsensitive: true}`).
enum FilterOperator: String, CaseIterable, Sendable {
    case eq, ne, lt, lte, gt, gte
    case `in`
    case beginsWith, contains, isNull
    /// Applies `[c]` to every operator of the same object.
    case caseInsensitive
    /// `distance: {from: LocationInput!, lt, lte, gt, gte}` (LOCATION fields).
    case distance

    /// The comparison of `eq` … `gte`, `nil` for the other operators.
    var comparison: Predicate.ComparisonOperator? {
        switch self {
        case .eq: .equal
        case .ne: .notEqual
        case .lt: .less
        case .lte: .lessOrEqual
        case .gt: .greater
        case .gte: .greaterOrEqual
        default: nil
        }
    }

    static let comparisons: [FilterOperator] = [.eq, .ne, .lt, .lte, .gt, .gte]
    static let orderings: [FilterOperator] = [.lt, .lte, .gt, .gte]
}

/// What literals of a filter key are: decides the GraphQL scalar of its operands and the
/// ``Predicate/Literal`` they become.
enum OperandKind: Sendable, Hashable {
    /// `String` → `.string`.
    case string
    /// `ID` → `.string` (the system key `recordName`).
    case recordName
    /// `Int64` → `.integer`.
    case int64
    /// `Float` → `.double`.
    case float
    /// `Timestamp` (ISO-8601) → `.value(.timestamp)`.
    case timestamp
    /// `ID` (a recordName) → `.value(.reference)`.
    case reference
    /// `Bytes` (base64) → `.value(.bytes)`.
    case bytes

    /// The operand kind of scalar values of `type`, `nil` for LOCATION, ASSET and lists.
    init?(scalar type: FieldType) {
        switch type {
        case .string: self = .string
        case .int64, .number(preferred: .int64): self = .int64
        case .double, .number: self = .float
        case .timestamp: self = .timestamp
        case .reference: self = .reference
        case .bytes: self = .bytes
        case .location, .asset, .list: return nil
        }
    }

    /// The name the operator input types are built from: `StringFilter`, `Int64ListFilter`.
    var typeStem: String {
        switch self {
        case .string: "String"
        case .recordName: "RecordName"
        case .int64: "Int64"
        case .float: "Float"
        case .timestamp: "Timestamp"
        case .reference: "Reference"
        case .bytes: "Bytes"
        }
    }
}

/// The operator input object a `TFilter` key has, chosen by the field's type (the README's query language section):
/// one shared input type per kind (`StringFilter`, `Int64Filter`, `ReferenceListFilter`, …).
enum FilterKind: Sendable, Hashable {
    /// A scalar field (or the system keys): comparisons as its type allows.
    case scalar(OperandKind)
    /// A LIST field of scalars: `contains` (an element) and `isNull`.
    case list(OperandKind)
    /// `distance` and `isNull`.
    case location
    /// Only `isNull`: ASSET fields and lists of LOCATION or ASSET.
    case presence

    /// The kind of the user field type `type`.
    init(_ type: FieldType) {
        switch type {
        case .location: self = .location
        case .asset: self = .presence
        case .list(let element):
            if let operand = OperandKind(scalar: element) { self = .list(operand) } else { self = .presence }
        default:
            if let operand = OperandKind(scalar: type) { self = .scalar(operand) } else { self = .presence }
        }
    }

    /// Every kind, for reserving their type names.
    static let allCases: [FilterKind] = {
        let operands: [OperandKind] = [.string, .recordName, .int64, .float, .timestamp, .reference, .bytes]
        return operands.map(FilterKind.scalar) + operands.filter { $0 != .recordName }.map(FilterKind.list) + [.location, .presence]
    }()

    /// The input type's name.
    var typeName: String {
        switch self {
        case .scalar(let operand): GraphQLNames.operatorFilterType(operand.typeStem)
        case .list(let operand): GraphQLNames.operatorFilterType(operand.typeStem, isList: true)
        case .location: GraphQLNames.operatorFilterType(GraphQLNames.locationType)
        case .presence: GraphQLNames.operatorFilterType("Presence")
        }
    }

    /// The operand kind of `eq`, `in`, `contains`…, `nil` for location and presence.
    var operand: OperandKind? {
        switch self {
        case .scalar(let operand), .list(let operand): operand
        case .location, .presence: nil
        }
    }

    /// The operators of this kind, in the order the input type lists them.
    var operators: [FilterOperator] {
        switch self {
        case .scalar(.string):
            FilterOperator.comparisons + [.in, .beginsWith, .contains, .isNull, .caseInsensitive]
        case .scalar(.recordName):
            FilterOperator.comparisons + [.in, .beginsWith, .caseInsensitive]
        case .scalar(.int64), .scalar(.float), .scalar(.timestamp):
            FilterOperator.comparisons + [.in, .isNull]
        case .scalar(.reference):
            [.eq, .ne, .in, .isNull]
        case .scalar(.bytes):
            [.eq, .ne, .isNull]
        case .list(.string):
            [.contains, .isNull, .caseInsensitive]
        case .list:
            [.contains, .isNull]
        case .location:
            [.distance, .isNull]
        case .presence:
            [.isNull]
        }
    }
}
