import GraphQL
import RecordKit

/// What the root fields of a query operation compile to, in selection order: each data field is
/// one engine call (one SQL statement building its JSON), the rest constants or introspection.
struct QueryPlan: Sendable {
    /// The page size of a `TPage` field given no `limit`.
    static let defaultPageSize = 100

    enum Step: Sendable {
        /// `T(...)`: the JSON array of the matching records.
        case records(Query, Projection)
        /// `TAggregate(...)`: the JSON object of the aggregates over the matching records.
        case aggregate(Query, Aggregation)
        /// `TPage(...)`: one page of records and the cursor of the next.
        case page(Query, after: String?, [PageMember])
        /// A value known without the database, as JSON text (the root `__typename`).
        case constant(String)
        /// `__schema` or `__type`, answered by GraphQLSwift's introspection.
        case introspection
        /// `asset(sha256:)`: the content of an asset, base64, or null.
        case asset(sha256: String)
        /// `changes(since:, limit:, recordTypes:)`: one page of the change feed.
        case changes(ChangesPlan)
    }

    /// One member of a `TPage` object.
    enum PageMember: Sendable {
        case records(key: String, Projection)
        case cursor(key: String)
        case constant(key: String, json: String)
    }

    var fields: [PlannedField<Step>] = []
    /// The most records the response may hold (``ResponseLimits``).
    let maximumRecords: Int?

    /// The plan of `request`, a query operation (or a subscription, whose root has the same fields).
    init(_ request: PreparedRequest) throws(GraphQLFailure) {
        let context = request.context
        let maximum = request.maximumRecords
        maximumRecords = maximum
        let rootType =
            request.operation.operation == .subscription
            ? context.graphQLSchema.subscriptionType?.name ?? GraphQLNames.subscriptionType
            : context.graphQLSchema.queryType?.name ?? GraphQLNames.queryType
        let collector = FieldCollector(request: request)
        for field in try collector.collect([request.operation.selectionSet], on: rootType) {
            let path: [GraphQLResponseError.PathElement] = [.key(field.key)]
            let step: Step
            switch (field.name, context.names.queryField(field.name)) {
            case ("__typename", _):
                step = .constant(JSONWriter.string(rootType))
            case ("__schema", _), ("__type", _):
                step = .introspection
            case (_, .list(let name)?):
                let (recordType, names) = try Self.recordType(name, context: context, field: field)
                let arguments = try ArgumentValues(of: field, in: rootType, context: context, variables: request.variables)
                var query = try Self.translate(field, path: path) { () throws(RecordError) in try context.generated.query(name, arguments: arguments.map) }
                query.limit = ResponseLimits.capped(query.limit, maximum: maximum)
                let projection = try ProjectionBuilder(collector: collector).projection(field.selectionSets, of: recordType, names: names, path: path)
                step = .records(query, ResponseLimits.capped(projection, maximum: maximum))
            case (_, .page(let name)?):
                let (recordType, names) = try Self.recordType(name, context: context, field: field)
                let arguments = try ArgumentValues(of: field, in: rootType, context: context, variables: request.variables)
                var query = try Self.translate(field, path: path) { () throws(RecordError) in try context.generated.query(name, arguments: arguments.map) }
                guard query.limit != 0 else {
                    // An empty page has no last record to go on from, and its null cursor
                    // would say the data ended.
                    throw GraphQLFailure(.invalidArguments, "a page holds at least 1 record; ask for limit: 1 or more", at: [field.node], path: path)
                }
                query.limit = ResponseLimits.capped(query.limit ?? Self.defaultPageSize, maximum: maximum)
                let after = try Self.translate(field, path: path) { () throws(RecordError) in try context.generated.cursor(name, arguments: arguments.map) }
                let members = try Self.pageMembers(field, recordType: recordType, names: names, collector: collector, maximum: maximum)
                step = .page(query, after: after, members)
            case (_, .aggregate(let name)?):
                let (recordType, names) = try Self.recordType(name, context: context, field: field)
                let arguments = try ArgumentValues(of: field, in: rootType, context: context, variables: request.variables)
                let query = try Self.translate(field, path: path) { () throws(RecordError) in try context.generated.query(name, arguments: arguments.map) }
                step = .aggregate(query, try AggregationBuilder(collector: collector).aggregation(field.selectionSets, of: recordType, names: names))
            case (_, .asset?):
                let arguments = try ArgumentValues(of: field, in: rootType, context: context, variables: request.variables)
                guard let sha256 = arguments.string(GraphQLNames.sha256Argument) else {
                    throw GraphQLFailure(.invalidArguments, "asset needs the sha256 of the content", at: [field.node], path: path)
                }
                step = .asset(sha256: sha256)
            case (_, .changes?):
                step = .changes(try ChangesPlan(field, request: request, collector: collector, maximum: maximum))
            default:
                throw GraphQLFailure(
                    .schemaViolation, "the \(request.operation.operation == .subscription ? "subscription" : "query") type has no field '\(field.name)'",
                    at: [field.node], path: path)
            }
            fields.append(PlannedField(field: field, step: step))
        }
    }

    /// The stored record type `name` and its names, the failure located at `field`.
    static func recordType(
        _ name: String, context: SchemaContext, field: FieldCollector.CollectedField
    ) throws(GraphQLFailure) -> (RecordType, GraphQLNameMap.RecordTypeNames) {
        try translate(field, path: [.key(field.key)]) { () throws(RecordError) in try context.recordType(name) }
    }

    /// The result of `body`, a translation of the field's arguments; its error located at
    /// `field`, or at its `predicate:` text for an error located inside that text.
    static func translate<T>(
        _ field: FieldCollector.CollectedField, path: [GraphQLResponseError.PathElement], _ body: () throws(RecordError) -> T
    ) throws(GraphQLFailure) -> T {
        do throws(RecordError) {
            return try body()
        } catch {
            var node: any Node = field.node
            if error.location != nil, let predicate = field.arguments.first(where: { $0.name.value == GraphQLNames.predicateArgument }) {
                node = predicate.value
            }
            throw GraphQLFailure(error, at: node, path: path, stage: .execution)
        }
    }

    /// The members a `TPage` selection asks for.
    private static func pageMembers(
        _ field: FieldCollector.CollectedField, recordType: RecordType, names: GraphQLNameMap.RecordTypeNames, collector: FieldCollector,
        maximum: Int?
    ) throws(GraphQLFailure) -> [PageMember] {
        var members: [PageMember] = []
        for member in try collector.collect(field.selectionSets, on: names.pageType) {
            switch member.name {
            case GraphQLNames.pageRecordsField:
                let projection = try ProjectionBuilder(collector: collector)
                    .projection(member.selectionSets, of: recordType, names: names, path: [.key(field.key), .key(member.key)])
                members.append(.records(key: member.key, ResponseLimits.capped(projection, maximum: maximum)))
            case GraphQLNames.pageCursorField:
                members.append(.cursor(key: member.key))
            case "__typename":
                members.append(.constant(key: member.key, json: JSONWriter.string(names.pageType)))
            default:
                throw GraphQLFailure(.schemaViolation, "\(names.pageType) has no field '\(member.name)'", at: [member.node])
            }
        }
        return members
    }
}

/// A root field of an operation and what it compiles to.
struct PlannedField<Step: Sendable>: Sendable {
    let field: FieldCollector.CollectedField
    let step: Step

    var key: String { field.key }
    var node: Field { field.node }
}
