import GraphQL
import OrderedCollections
import RecordKit

extension SchemaBuilder {
    /// `TAggregate { count: Int!, sum: TSumFields!, avg: TAvgFields!, min: TMinMaxFields!,
    /// max: TMinMaxFields! }`: `sum` over the INT64, DOUBLE and NUMBER fields, the others over
    /// those and the TIMESTAMP fields; a member whose object would have no field is left out
    /// (GraphQL has no empty objects). Values are null when no record has one.
    func aggregateType(_ type: RecordType, _ typeNames: GraphQLNameMap.RecordTypeNames) throws -> GraphQLObjectType {
        var fields: GraphQLFieldMap = [GraphQLNames.countField: GraphQLField(type: GraphQLNonNull(GraphQLInt), description: "How many records.")]
        let objects: [(Aggregation.Function, String, String)] = [
            (.sum, typeNames.sumFieldsType, "The sum of each field's values."),
            (.avg, typeNames.avgFieldsType, "The mean of each field's values."),
            (.min, typeNames.minMaxFieldsType, "The least of each field's values."),
            (.max, typeNames.minMaxFieldsType, "The greatest of each field's values."),
        ]
        var built: [String: GraphQLObjectType] = [:]
        for (function, name, description) in objects {
            let members = try aggregateMembers(function, of: type, typeNames)
            guard !members.isEmpty else { continue }
            let object =
                try built[name]
                ?? GraphQLObjectType(name: name, description: "Aggregates of \(type.name) fields; null when no record has a value.", fields: members)
            built[name] = object
            fields[function.rawValue] = GraphQLField(type: GraphQLNonNull(object), description: description)
        }
        return try GraphQLObjectType(name: typeNames.aggregateType, description: "Aggregates over \(type.name) records.", fields: fields)
    }

    /// `where` and `predicate`: the arguments of aggregate fields.
    func aggregateArguments(_ recordType: String) throws(RecordError) -> GraphQLArgumentConfigMap {
        try listArguments(recordType).filter { $0.key == GraphQLNames.whereArgument || $0.key == GraphQLNames.predicateArgument }
    }

    /// The fields of `type` that `function` applies to, typed as its result.
    private func aggregateMembers(_ function: Aggregation.Function, of type: RecordType, _ typeNames: GraphQLNameMap.RecordTypeNames) throws -> GraphQLFieldMap
    {
        var members: GraphQLFieldMap = [:]
        for field in type.userFields where function.applies(to: field.type) {
            let output: any GraphQLOutputType =
                switch (function, field.type) {
                case (_, .timestamp): shared.timestamp
                case (.avg, _): GraphQLFloat
                case (_, .int64), (_, .number(preferred: .int64)): shared.int64
                default: GraphQLFloat
                }
            members[try graphQLName(of: field, typeNames)] = GraphQLField(type: output, description: "\(function.rawValue) of \(field.name) (\(field.type)).")
        }
        return members
    }
}
