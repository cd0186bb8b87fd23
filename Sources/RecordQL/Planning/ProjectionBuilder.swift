import GraphQL
import RecordKit

/// Turns the selection set of a record field into the ``Projection`` the engine builds its JSON
/// with: one member per response key, in selection order, aliases as keys.
///
/// System fields, schema fields, `__typename`, the parts of LOCATION and ASSET values, forward
/// references (projected per record type they may point at: one for a typed reference, every
/// record type for an untyped one, whose `... on T` fragments then apply to `T` only) and
/// referrer fields with their own arguments. Projections are bounded in depth and size, so no
/// document can make the compiled SQL explode.
final class ProjectionBuilder {
    /// The deepest nesting of records in one projection (the root field's records count as
    /// one level, each reference or referrer field one more): the SQL of deeper selections
    /// passes the ~100 levels of SQLite's parser stack.
    static let maximumDepth = 6
    /// The most members in all the projections of one root field.
    static let maximumMembers = 5_000
    /// The most members of one record's object: SQLite's `json_object` takes at most 127
    /// arguments (`SQLITE_MAX_FUNCTION_ARG`), a key and a value per member.
    static let maximumMembersPerRecord = 63

    private let collector: FieldCollector
    private var context: SchemaContext { collector.request.context }
    private var memberCount = 0

    init(collector: FieldCollector) {
        self.collector = collector
    }

    /// The projection of `selectionSets` on records of `recordType`, for the field at `path`.
    func projection(
        _ selectionSets: [SelectionSet], of recordType: RecordType, names: GraphQLNameMap.RecordTypeNames, path: [GraphQLResponseError.PathElement]
    ) throws(GraphQLFailure) -> Projection {
        guard path.count <= Self.maximumDepth else {
            throw GraphQLFailure(.limitExceeded, "the selection nests references deeper than \(Self.maximumDepth) levels", path: path)
        }
        var members: [Projection.Member] = []
        for field in try collector.collect(selectionSets, on: names.objectType) {
            memberCount += 1
            guard memberCount <= Self.maximumMembers else {
                throw GraphQLFailure(
                    .limitExceeded, "the selection asks for more than \(Self.maximumMembers) values; select fewer fields", at: [field.node], path: path)
            }
            guard members.count < Self.maximumMembersPerRecord else {
                throw GraphQLFailure(
                    .limitExceeded, "the selection asks for more than \(Self.maximumMembersPerRecord) values of one \(recordType.name) record; select fewer",
                    at: [field.node], path: path
                )
            }
            let value = try self.value(of: field, in: recordType, names: names, path: path + [.key(field.key)])
            members.append(Projection.Member(field.key, value))
        }
        return Projection(members)
    }

    private func value(
        of field: FieldCollector.CollectedField, in recordType: RecordType, names: GraphQLNameMap.RecordTypeNames, path: [GraphQLResponseError.PathElement]
    ) throws(GraphQLFailure) -> Projection.MemberValue {
        if field.name == "__typename" { return .constant(names.objectType) }
        switch context.names.objectField(field.name, ofObjectType: names.objectType) {
        case .recordName?: return .recordName
        case .recordType?: return .recordType
        case .createdAt?: return .createdAt
        case .modifiedAt?: return .modifiedAt
        case .changeTag?: return .changeTag
        case .field(let name)?:
            guard let definition = recordType.field(named: name) else { break }
            return try value(of: field, definition: definition, path: path)
        case .referrers(let referring, let referenceField)?:
            return try referrers(field, referring: referring, field: referenceField, on: names.objectType, path: path)
        case .referrersAggregate(let referring, let referenceField)?:
            let (type, referringNames) = try QueryPlan.recordType(referring, context: context, field: field)
            let query = try referringQuery(field, referring: referring, on: names.objectType, path: path)
            let aggregation = try AggregationBuilder(collector: collector).aggregation(field.selectionSets, of: type, names: referringNames)
            return .aggregate(recordType: type.name, field: referenceField, predicate: query.predicate, aggregation)
        case nil:
            break
        }
        let missing = RecordError(
            .schemaViolation, "\(recordType.name) has no field '\(field.name)'", recordType: recordType.name, field: field.name,
            reason: .unknownField, remedy: .addField(recordType: recordType.name, field: field.name, type: nil)
        )
        throw GraphQLFailure(missing, at: field.node, path: path, stage: .validation)
    }

    /// A schema field: its value, or the parts or referenced records its sub-selection asks for.
    private func value(
        of field: FieldCollector.CollectedField, definition: RecordKit.FieldDefinition, path: [GraphQLResponseError.PathElement]
    ) throws(GraphQLFailure) -> Projection.MemberValue {
        let selections = field.selectionSets
        guard !selections.isEmpty else { return .field(definition.name) }
        switch definition.type.elementType ?? definition.type {
        case .location:
            return .parts(field: definition.name, try parts(selections, on: GraphQLNames.locationType))
        case .asset:
            return .parts(field: definition.name, try parts(selections, on: GraphQLNames.assetType))
        case .reference:
            let targets: [RecordType]
            if let referenced = definition.referencedType {
                targets = [try QueryPlan.recordType(referenced, context: context, field: field).0]
            } else {
                targets = context.storedRecordTypes
            }
            var projections: [String: Projection] = [:]
            for target in targets {
                let (type, names) = try QueryPlan.recordType(target.name, context: context, field: field)
                projections[type.name] = try projection(selections, of: type, names: names, path: path)
            }
            return .reference(field: definition.name, projections)
        default:
            return .field(definition.name)
        }
    }

    /// The members of a LOCATION or ASSET object.
    private func parts(_ selections: [SelectionSet], on typeName: String) throws(GraphQLFailure) -> [Projection.Part] {
        var parts: [Projection.Part] = []
        for field in try collector.collect(selections, on: typeName) {
            let source: Projection.PartValue
            switch field.name {
            case "latitude": source = .latitude
            case "longitude": source = .longitude
            case "size": source = .size
            case "sha256": source = .sha256
            case "__typename": source = .constant(typeName)
            default:
                guard typeName == GraphQLNames.locationType, let detail = RecordKit.Location.Detail(rawValue: field.name) else {
                    throw GraphQLFailure(.schemaViolation, "\(typeName) has no field '\(field.name)'", at: [field.node])
                }
                source = .locationDetail(detail)
            }
            parts.append(Projection.Part(field.key, source))
        }
        return parts
    }

    /// The records of another type that reference this one, with their own arguments.
    private func referrers(
        _ field: FieldCollector.CollectedField, referring: String, field referenceField: String, on objectType: String,
        path: [GraphQLResponseError.PathElement]
    ) throws(GraphQLFailure) -> Projection.MemberValue {
        let (type, names) = try QueryPlan.recordType(referring, context: context, field: field)
        let query = try referringQuery(field, referring: referring, on: objectType, path: path)
        return .referrers(
            recordType: type.name, field: referenceField, predicate: query.predicate, sort: query.sort, limit: query.limit,
            try projection(field.selectionSets, of: type, names: names, path: path)
        )
    }

    /// The query the arguments of a referrers field (or its aggregate) ask for.
    private func referringQuery(
        _ field: FieldCollector.CollectedField, referring: String, on objectType: String, path: [GraphQLResponseError.PathElement]
    ) throws(GraphQLFailure) -> Query {
        let arguments = try ArgumentValues(of: field, in: objectType, context: context, variables: collector.request.variables)
        return try QueryPlan.translate(field, path: path) { () throws(RecordError) in
            try context.generated.query(referring, arguments: arguments.map)
        }
    }
}
