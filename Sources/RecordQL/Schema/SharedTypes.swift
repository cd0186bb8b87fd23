import GraphQL
import OrderedCollections
import RecordKit

/// The types every generated schema shares, made once per schema: the custom scalars, the
/// LOCATION and ASSET objects, the reference and location inputs, the enums, `DeleteResult`,
/// the `Record` interface, the change feed's `ChangesPage`, the operator inputs of `TFilter` and the `@transaction` directive.
/// Only the ones a schema reaches appear in it.
struct SharedTypes {
    let int64: GraphQLScalarType
    let timestamp: GraphQLScalarType
    let bytes: GraphQLScalarType
    let location: GraphQLObjectType
    let locationInput: GraphQLInputObjectType
    let asset: GraphQLObjectType
    let referenceAction: GraphQLEnumType
    let referenceInput: GraphQLInputObjectType
    let sortDirection: GraphQLEnumType
    let deleteResult: GraphQLObjectType
    /// A record as it was read: `requireUnchanged`'s argument.
    let recordVersionInput: GraphQLInputObjectType
    let record: GraphQLInterfaceType
    /// The change feed's page (``changesPage(record:)``).
    let changesPage: GraphQLObjectType
    let operatorFilters: [FilterKind: GraphQLInputObjectType]
    let transaction: GraphQLDirective

    /// The shared types; `resolveRecordType` names the object type of a resolved record, for
    /// untyped references (only needed when executing with resolvers).
    init(resolveRecordType: GraphQLTypeResolve?) throws {
        int64 = try CustomScalars.int64()
        timestamp = try CustomScalars.timestamp()
        bytes = try CustomScalars.bytes()
        let float = GraphQLNonNull(GraphQLFloat)
        var locationFields: GraphQLFieldMap = ["latitude": GraphQLField(type: float), "longitude": GraphQLField(type: float)]
        var locationInputFields: InputObjectFieldMap = ["latitude": InputObjectField(type: float), "longitude": InputObjectField(type: float)]
        for detail in RecordKit.Location.Detail.allCases {
            let type: any GraphQLOutputType & GraphQLInputType = detail.isTime ? timestamp : GraphQLFloat
            locationFields[detail.rawValue] = GraphQLField(type: type, description: detail.summary)
            locationInputFields[detail.rawValue] = InputObjectField(type: type, description: detail.summary)
        }
        location = try GraphQLObjectType(
            name: GraphQLNames.locationType,
            description: "A CloudKit LOCATION: latitude and longitude in degrees, and what a device measured beside them, when given.",
            fields: locationFields
        )
        locationInput = try GraphQLInputObjectType(
            name: GraphQLNames.locationInputType,
            description: "A location to store or to measure distances from, in degrees (what a device measured beside them is kept when stored).",
            fields: locationInputFields
        )
        asset = try GraphQLObjectType(
            name: GraphQLNames.assetType,
            description: "A CloudKit ASSET: its size in bytes and the SHA-256 of its content; read the content with asset(sha256:).",
            fields: ["size": GraphQLField(type: GraphQLNonNull(int64)), "sha256": GraphQLField(type: GraphQLNonNull(GraphQLString))]
        )
        referenceAction = try GraphQLEnumType(
            name: GraphQLNames.referenceActionEnum,
            description: "What deleting the referenced record does to the record holding the reference.",
            values: [
                Reference.Action.none.rawValue: GraphQLEnumValue(
                    value: .string(Reference.Action.none.rawValue), description: "Nothing: the reference dangles and resolves to null."),
                Reference.Action.deleteSelf.rawValue: GraphQLEnumValue(
                    value: .string(Reference.Action.deleteSelf.rawValue), description: "The holder is deleted too, in the same transaction."),
            ]
        )
        referenceInput = try GraphQLInputObjectType(
            name: GraphQLNames.referenceInputType,
            description: "A REFERENCE to store: the recordName it points at and its delete action.",
            fields: [
                "recordName": InputObjectField(type: GraphQLNonNull(GraphQLID)),
                "action": InputObjectField(type: referenceAction, defaultValue: .string(Reference.Action.none.rawValue)),
            ]
        )
        sortDirection = try GraphQLEnumType(
            name: GraphQLNames.sortDirectionEnum,
            values: [
                SortDirection.ascending.rawValue: GraphQLEnumValue(value: .string(SortDirection.ascending.rawValue), description: "Ascending."),
                SortDirection.descending.rawValue: GraphQLEnumValue(value: .string(SortDirection.descending.rawValue), description: "Descending."),
            ]
        )
        deleteResult = try GraphQLObjectType(
            name: GraphQLNames.deleteResultType,
            fields: [
                GraphQLNames.deletedField: GraphQLField(
                    type: GraphQLNonNull(GraphQLList(GraphQLNonNull(GraphQLID))),
                    description: "Every recordName removed: the record, then the records its deletion cascaded to."
                )
            ]
        )
        recordVersionInput = try GraphQLInputObjectType(
            name: GraphQLNames.recordVersionInputType,
            description: "A record as it was read: its recordName and the changeTag it had.",
            fields: [
                GraphQLNames.recordNameArgument: InputObjectField(type: GraphQLNonNull(GraphQLID)),
                GraphQLNames.changeTagField: InputObjectField(type: GraphQLNonNull(GraphQLString)),
            ]
        )
        record = try GraphQLInterfaceType(
            name: GraphQLNames.recordInterface,
            description: "The system fields every record has.",
            fields: Self.systemFields(timestamp: timestamp, resolving: false),
            resolveType: resolveRecordType
        )
        changesPage = try Self.changesPage(record: record)
        operatorFilters = try Self.operatorFilters(int64: int64, timestamp: timestamp, bytes: bytes, locationInput: locationInput)
        transaction = try GraphQLDirective(
            name: GraphQLNames.transactionDirective,
            description: "Makes the mutation idempotent: a retry with the same id returns the stored result and applies nothing.",
            locations: [.mutation],
            args: [GraphQLNames.transactionIDArgument: GraphQLArgument(type: GraphQLNonNull(GraphQLString))]
        )
    }

    /// `recordName: ID!, recordType: String!, createdAt: Timestamp!, modifiedAt: Timestamp!,
    /// changeTag: String!`, read from a ``Record`` source when `resolving`.
    static func systemFields(timestamp: GraphQLScalarType, resolving: Bool) -> GraphQLFieldMap {
        func field(
            _ type: any GraphQLOutputType & GraphQLNullableType, _ description: String, _ read: @escaping @Sendable (Record) -> (any Sendable)?
        ) -> GraphQLField {
            guard resolving else { return GraphQLField(type: GraphQLNonNull(type), description: description) }
            return GraphQLField(type: GraphQLNonNull(type), description: description) { source, _, _, _ in
                (source as? Record).flatMap(read)
            }
        }
        return [
            "recordName": field(GraphQLID, "The unique name of the record.", \.recordName),
            "recordType": field(GraphQLString, "The record type.", \.recordType),
            "createdAt": field(timestamp, "When the record was created.", \.createdAt),
            "modifiedAt": field(timestamp, "When the record was last saved.", \.modifiedAt),
            "changeTag": field(GraphQLString, "Changes on every save; pass it as ifChangeTag to update only an unchanged record.", \.changeTag),
        ]
    }

    /// One input type per ``FilterKind``, with that kind's operators.
    private static func operatorFilters(
        int64: GraphQLScalarType, timestamp: GraphQLScalarType, bytes: GraphQLScalarType, locationInput: GraphQLInputObjectType
    ) throws -> [FilterKind: GraphQLInputObjectType] {
        let kilometres = GraphQLFloat
        var distanceFields: InputObjectFieldMap = [
            "from": InputObjectField(type: GraphQLNonNull(locationInput), description: "The location distances are measured from.")
        ]
        for op in FilterOperator.orderings {
            distanceFields[op.rawValue] = InputObjectField(type: kilometres, description: "Distance in kilometres \(op.sign).")
        }
        let distance = try GraphQLInputObjectType(
            name: GraphQLNames.distanceFilterType,
            description: "Great-circle distance in kilometres from a location (distanceToLocation:fromLocation:).",
            fields: distanceFields
        )
        func operand(_ kind: OperandKind) -> any GraphQLInputType & GraphQLNullableType {
            switch kind {
            case .string: GraphQLString
            case .recordName, .reference: GraphQLID
            case .int64: int64
            case .float: GraphQLFloat
            case .timestamp: timestamp
            case .bytes: bytes
            }
        }
        var result: [FilterKind: GraphQLInputObjectType] = [:]
        for kind in FilterKind.allCases {
            var fields: InputObjectFieldMap = [:]
            for op in kind.operators {
                let type: any GraphQLInputType =
                    switch op {
                    case .in: GraphQLList(GraphQLNonNull(kind.operand.map(operand) ?? GraphQLString))
                    case .beginsWith: GraphQLString
                    case .isNull, .caseInsensitive: GraphQLBoolean
                    case .distance: distance
                    default: kind.operand.map(operand) ?? GraphQLString
                    }
                fields[op.rawValue] = InputObjectField(type: type, description: op.help(list: kind.isList))
            }
            result[kind] = try GraphQLInputObjectType(name: kind.typeName, fields: fields)
        }
        return result
    }
}

/// The values of the `SortDirection` enum.
enum SortDirection: String, Sendable {
    case ascending = "ASC"
    case descending = "DESC"
}

extension FilterKind {
    var isList: Bool {
        if case .list = self { return true }
        return false
    }
}

extension FilterOperator {
    /// The NSPredicate operator, for descriptions.
    var sign: String {
        switch self {
        case .eq: "=="
        case .ne: "!="
        case .lt: "<"
        case .lte: "<="
        case .gt: ">"
        case .gte: ">="
        default: rawValue
        }
    }

    /// What the operator tests, for the schema's descriptions.
    func help(list: Bool) -> String {
        switch self {
        case .eq, .ne, .lt, .lte, .gt, .gte: "The value \(sign) this (absent values never match, except with ne)."
        case .in: "The value is one of these (IN {…})."
        case .beginsWith: "The value begins with this (BEGINSWITH)."
        case .contains: list ? "The list has this element (CONTAINS)." : "The text contains this (CONTAINS)."
        case .isNull: "true: the field has no value; false: it has one."
        case .caseInsensitive: "Compare ignoring case ([c]) in every operator of this object."
        case .distance: "Distance from a location (distanceToLocation:fromLocation:)."
        }
    }
}
