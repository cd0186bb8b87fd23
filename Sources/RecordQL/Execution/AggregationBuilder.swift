import GraphQL
import RecordKit

/// Turns the selection set of a `TAggregate` field (at the root or beside a referrers field)
/// into the ``Aggregation`` the engine builds its JSON with: one member per response key, in
/// selection order, aliases as keys.
struct AggregationBuilder {
    let collector: FieldCollector

    /// The aggregation `selectionSets` ask for over records of `recordType`.
    func aggregation(_ selectionSets: [SelectionSet], of recordType: RecordType, names: GraphQLNameMap.RecordTypeNames) throws(GraphQLFailure) -> Aggregation {
        var members: [Aggregation.Member] = []
        for field in try collector.collect(selectionSets, on: names.aggregateType) {
            let value: Aggregation.MemberValue
            switch field.name {
            case GraphQLNames.countField:
                value = .count
            case "__typename":
                value = .constant(names.aggregateType)
            default:
                guard let function = Aggregation.Function(rawValue: field.name) else {
                    throw GraphQLFailure(.schemaViolation, "\(names.aggregateType) has no field '\(field.name)'", at: [field.node])
                }
                value = .function(function, try fieldMembers(field, function: function, of: recordType, names: names))
            }
            members.append(Aggregation.Member(field.key, value))
        }
        return Aggregation(members)
    }

    /// The fields a `sum`, `avg`, `min` or `max` selection names.
    private func fieldMembers(
        _ field: FieldCollector.CollectedField, function: Aggregation.Function, of recordType: RecordType, names: GraphQLNameMap.RecordTypeNames
    ) throws(GraphQLFailure) -> [Aggregation.FieldMember] {
        let typeName =
            switch function {
            case .sum: names.sumFieldsType
            case .avg: names.avgFieldsType
            case .min, .max: names.minMaxFieldsType
            }
        var members: [Aggregation.FieldMember] = []
        for member in try collector.collect(field.selectionSets, on: typeName) {
            if member.name == "__typename" {
                members.append(Aggregation.FieldMember(member.key, .constant(typeName)))
                continue
            }
            guard let name = names.field(named: member.name), let definition = recordType.field(named: name), function.applies(to: definition.type) else {
                throw GraphQLFailure(.schemaViolation, "\(typeName) has no field '\(member.name)'", at: [member.node])
            }
            members.append(Aggregation.FieldMember(member.key, .field(name)))
        }
        return members
    }
}
