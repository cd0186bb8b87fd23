import GraphQL
import RecordKit

extension GraphQLFailure {
    /// A syntax error of GraphQLSwift's parser, without the source excerpt it appends (the
    /// location says where).
    init(syntaxError error: GraphQLError) {
        var message = error.message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? error.message
        // "Syntax Error GraphQL request (1:3) Expected Name, found <EOF>"
        if message.hasPrefix("Syntax Error"), let end = message.firstRange(of: ") ") {
            message = "Syntax Error: " + message[end.upperBound...]
        }
        self.init([GraphQLResponseError(.invalidArguments, message, locations: error.locations.map(\.responseLocation))], stage: .parse)
    }

    /// The errors of GraphQLSwift's validation: unknown types and fields are `schemaViolation`
    /// (with the command that adds a missing record field), everything else `invalidArguments`.
    init(validationErrors errors: [GraphQLError], context: SchemaContext) {
        self.init(errors.map { ValidationErrorTranslation.translate($0, context: context) }, stage: .validation)
    }
}

extension GraphQL.SourceLocation {
    var responseLocation: GraphQLResponseError.Location {
        GraphQLResponseError.Location(line: line, column: column)
    }
}

/// Gives validation messages their code and, for a field a record type lacks, the fix.
enum ValidationErrorTranslation {
    static func translate(_ error: GraphQLError, context: SchemaContext) -> GraphQLResponseError {
        let locations = error.locations.map(\.responseLocation)
        let message = error.message
        if let match = message.firstMatch(of: #/^Cannot query field "(\w+)" on type "(\w+)"\./#) {
            let recordType = context.names.recordType(ofObjectType: String(match.2))
            return missingField(String(match.1), of: recordType, literal: nil, message: message, locations: locations)
        }
        if let match = message.firstMatch(of: #/^Field "(\w+)" is not defined by type "(\w+)"\./#) {
            let inputType = String(match.2)
            let names = context.names.recordTypes.values.first { [$0.filterType, $0.sortType, $0.inputType].contains(inputType) }
            if let names, inputType == names.sortType, let unsortable = unsortableField(String(match.1), of: names, in: context.schema) {
                return GraphQLResponseError(
                    .invalidArguments,
                    message + " \(names.recordType).\(unsortable.name) is \(unsortable.type), which cannot be sorted; "
                        + "sort by a \(FieldType.orderedTypeNames) field", locations: locations)
            }
            let literal = (error.nodes.first as? ObjectField)?.value
            return missingField(String(match.1), of: names?.recordType, literal: literal, message: message, locations: locations)
        }
        if message.hasPrefix("Unknown type ") {
            return GraphQLResponseError(.schemaViolation, message, locations: locations)
        }
        return GraphQLResponseError(.invalidArguments, message, locations: locations)
    }

    /// The field of the record type named by `names` that `graphQLName` names, when it has one
    /// its sort type leaves out for its type (an ASSET, BYTES, LOCATION or list).
    private static func unsortableField(_ graphQLName: String, of names: GraphQLNameMap.RecordTypeNames, in schema: Schema) -> RecordKit.FieldDefinition? {
        guard let fieldName = names.field(named: graphQLName), let field = schema.recordType(named: names.recordType)?.field(named: fieldName) else {
            return nil
        }
        return field.type.isOrdered ? nil : field
    }

    /// GraphQLSwift's `message` about a field of `recordType` the schema lacks, followed by
    /// ` Items has no field 'number'` and the remedy of adding it, its type guessed from `literal`
    /// when one is given.
    private static func missingField(
        _ field: String, of recordType: String?, literal: (any GraphQL.Value)?, message: String, locations: [GraphQLResponseError.Location]
    ) -> GraphQLResponseError {
        guard let recordType, Identifier.isValid(field) else { return GraphQLResponseError(.schemaViolation, message, locations: locations) }
        return GraphQLResponseError(
            .schemaViolation, message + " \(recordType) has no field '\(field)'", locations: locations,
            reason: .unknownField, remedy: .addField(recordType: recordType, field: field, type: literal.flatMap(fieldType(of:)))
        )
    }

    /// The CKDB type a literal suggests: `3` INT64, `2.5` DOUBLE, `"x"` STRING, `{recordName}` REFERENCE…
    private static func fieldType(of literal: any GraphQL.Value) -> String? {
        switch literal {
        case is IntValue, is BooleanValue: return "INT64"
        case is FloatValue: return "DOUBLE"
        case is StringValue: return "STRING"
        case let object as ObjectValue:
            let names = Set(object.fields.map(\.name.value))
            if names.contains("recordName") { return "REFERENCE" }
            if names.contains("latitude") { return "LOCATION" }
            // An operator object of a filter: the type of the value it compares with.
            return object.fields.lazy.compactMap { field -> String? in
                switch field.name.value {
                case "isNull": nil
                case "in": (field.value as? ListValue)?.values.first.flatMap(fieldType(of:))
                default: fieldType(of: field.value)
                }
            }.first
        case let list as ListValue:
            return list.values.first.flatMap(fieldType(of:)).map { "LIST<\($0)>" }
        default: return nil
        }
    }
}
