import GraphQL
import OrderedCollections
import RecordKit

/// What the root fields of a mutation operation compile to, in order; they run in one write
/// transaction (``MutationExecution``). Everything that can be checked before writing —
/// arguments, field values, selections — is checked here, so a bad field fails before any write.
struct MutationPlan: Sendable {
    enum Step: Sendable {
        /// `createT` or `updateT` (one operation, answered with an object) or their list forms
        /// (answered with a list): apply the operations in order, then project each saved record.
        case save([RecordOperation], recordType: String, Projection, isList: Bool)
        /// `deleteT` or `deleteManyT`: delete the records (and their cascades), then list what
        /// was removed.
        case delete(recordType: String, recordNames: [String], [DeleteMember])
        /// `requireUnchanged`: check the change tags of records
        /// (``RecordOperation/requireUnchanged(recordName:changeTag:)``), then list their names.
        case requireUnchanged([RecordOperation])
        /// A value known without the database, as JSON text (`__typename`).
        case constant(String)
    }

    /// One member of a `DeleteResult` object.
    enum DeleteMember: Sendable {
        case deleted(key: String)
        case constant(key: String, json: String)
    }

    var fields: [PlannedField<Step>] = []
    /// The ID of `mutation @transaction(id: "…")`, which makes the operation idempotent.
    var transactionID: String?
    /// The most records the response may hold (``ResponseLimits``).
    var maximumRecords: Int?

    init(_ request: PreparedRequest) throws(GraphQLFailure) {
        let context = request.context
        let rootType = context.graphQLSchema.mutationType?.name ?? GraphQLNames.mutationType
        let collector = FieldCollector(request: request)
        transactionID = try Self.transactionID(of: request.operation, variables: request.variables)
        maximumRecords = request.maximumRecords
        for field in try collector.collect([request.operation.selectionSet], on: rootType) {
            let path: [GraphQLResponseError.PathElement] = [.key(field.key)]
            guard field.name != "__typename" else {
                fields.append(PlannedField(field: field, step: .constant(JSONWriter.string(rootType))))
                continue
            }
            if field.name == GraphQLNames.requireUnchangedField {
                let arguments = try ArgumentValues(of: field, in: rootType, context: context, variables: request.variables)
                fields.append(PlannedField(field: field, step: .requireUnchanged(Self.preconditions(arguments.map))))
                continue
            }
            guard let mutation = context.names.mutationField(field.name) else {
                throw GraphQLFailure(.schemaViolation, "the mutation type has no field '\(field.name)'", at: [field.node], path: path)
            }
            let arguments = try ArgumentValues(of: field, in: rootType, context: context, variables: request.variables)
            let operations = try QueryPlan.translate(field, path: path) { () throws(RecordError) in
                try context.generated.operations(mutation, arguments: arguments.map)
            }
            let step: Step
            switch mutation {
            case .create(let name), .update(let name), .createMany(let name), .updateMany(let name):
                let (type, names) = try QueryPlan.recordType(name, context: context, field: field)
                let projection = try ProjectionBuilder(collector: collector).projection(field.selectionSets, of: type, names: names, path: path)
                let isList = if case .createMany = mutation { true } else if case .updateMany = mutation { true } else { false }
                step = .save(operations, recordType: name, ResponseLimits.capped(projection, maximum: request.maximumRecords), isList: isList)
            case .delete(let name), .deleteMany(let name):
                var recordNames: [String] = []
                for operation in operations {
                    guard case .delete(let recordName) = operation else {
                        throw GraphQLFailure(.internalError, "\(field.name) did not compile to deletes", at: [field.node], path: path)
                    }
                    recordNames.append(recordName)
                }
                step = .delete(recordType: name, recordNames: recordNames, try Self.deleteMembers(field, collector: collector))
            }
            fields.append(PlannedField(field: field, step: step))
        }
    }

    /// The checks of `requireUnchanged(records:)` (arguments coerced to `[RecordVersionInput!]!`).
    private static func preconditions(_ arguments: Map) -> [RecordOperation] {
        guard case .array(let records)? = arguments.dictionary?[GraphQLNames.recordsArgument] else { return [] }
        return records.compactMap { record in
            guard case .string(let recordName)? = record.dictionary?[GraphQLNames.recordNameArgument],
                case .string(let changeTag)? = record.dictionary?[GraphQLNames.changeTagField]
            else { return nil }
            return .requireUnchanged(recordName: recordName, changeTag: changeTag)
        }
    }

    /// The members a `DeleteResult` selection asks for.
    private static func deleteMembers(_ field: FieldCollector.CollectedField, collector: FieldCollector) throws(GraphQLFailure) -> [DeleteMember] {
        var members: [DeleteMember] = []
        for member in try collector.collect(field.selectionSets, on: GraphQLNames.deleteResultType) {
            switch member.name {
            case GraphQLNames.deletedField:
                members.append(.deleted(key: member.key))
            case "__typename":
                members.append(.constant(key: member.key, json: JSONWriter.string(GraphQLNames.deleteResultType)))
            default:
                throw GraphQLFailure(.schemaViolation, "\(GraphQLNames.deleteResultType) has no field '\(member.name)'", at: [member.node])
            }
        }
        return members
    }

    /// The `id:` literal of the `@transaction` directive of a mutation in the document `text`
    /// (``RecordQLEngine/transactionID(inDocument:)``).
    static func transactionID(inDocument text: String) -> String? {
        guard let document = try? GraphQL.parse(source: Source(body: text)) else { return nil }
        for case let operation as OperationDefinition in document.definitions where operation.operation == .mutation {
            if let id = try? transactionID(of: operation, variables: [:]) { return id }
        }
        return nil
    }

    /// The `id:` of the operation's `@transaction` directive.
    private static func transactionID(of operation: OperationDefinition, variables: [String: Map]) throws(GraphQLFailure) -> String? {
        guard let directive = operation.directives.first(where: { $0.name.value == GraphQLNames.transactionDirective }) else { return nil }
        let argument = directive.arguments.first { $0.name.value == GraphQLNames.transactionIDArgument }
        guard let argument, case .string(let id) = try InputCoercion(variables: variables).coerce(argument.value, to: GraphQLString) else {
            throw GraphQLFailure(.invalidArguments, "@\(GraphQLNames.transactionDirective) needs an id: @transaction(id: \"…\")", at: [directive])
        }
        return id
    }
}
