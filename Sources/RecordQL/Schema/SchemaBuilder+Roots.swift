import GraphQL
import OrderedCollections
import RecordKit

extension SchemaBuilder {
    /// `Query`: per record type `T(where:, predicate:, sort:, limit:): [T!]!` and
    /// `TPage(…, after:): TPage!`, then `asset(sha256:): Bytes` and
    /// `changes(since:, limit:, recordTypes:): ChangesPage!`.
    func queryRoot() throws -> GraphQLObjectType {
        try GraphQLObjectType(name: GraphQLNames.queryType, fields: try queryRootFields())
    }

    /// `Subscription`: the fields of `Query`, each a live query (answered again after every
    /// commit that changes its result).
    func subscriptionRoot() throws -> GraphQLObjectType {
        try GraphQLObjectType(
            name: GraphQLNames.subscriptionType, description: "Live queries: the query fields, answered again after each commit that changes them.",
            fields: try queryRootFields())
    }

    /// The fields of the query root.
    private func queryRootFields() throws -> GraphQLFieldMap {
        var fields: GraphQLFieldMap = [:]
        for type in stored {
            let typeNames = try names(of: type)
            let query = QueryArguments(recordType: type, names: typeNames)
            let arguments = try listArguments(type.name)
            let list = GraphQLNonNull(GraphQLList(GraphQLNonNull(try built(objects, type.name))))
            let listHelp = "\(type.name) records, filtered, sorted and limited."
            var pageArguments = arguments
            pageArguments[GraphQLNames.afterArgument] = GraphQLArgument(type: GraphQLString, description: "The cursor of the previous page.")
            let aggregate = GraphQLField(
                type: GraphQLNonNull(try built(aggregates, type.name)), description: "Aggregates over \(type.name) records, filtered.",
                args: try aggregateArguments(type.name)
            )
            let page = GraphQLNonNull(try built(pages, type.name))
            let pageHelp = "One page of \(type.name) records: limit is the page size, after the previous page's cursor."
            if let resolver {
                fields[typeNames.listField] = GraphQLField(
                    type: list, description: listHelp, args: arguments,
                    resolve: { _, arguments, context, _ in
                        try await resolver.records(matching: try query.query(arguments), context: context)
                    })
                fields[typeNames.pageField] = GraphQLField(
                    type: page, description: pageHelp, args: pageArguments,
                    resolve: { _, arguments, context, _ in
                        try await resolver.page(try query.query(arguments), after: try query.cursor(arguments), context: context)
                    })
            } else {
                fields[typeNames.listField] = GraphQLField(type: list, description: listHelp, args: arguments)
                fields[typeNames.pageField] = GraphQLField(type: page, description: pageHelp, args: pageArguments)
            }
            fields[typeNames.aggregateField] = aggregate
        }
        let assetArguments: GraphQLArgumentConfigMap = [GraphQLNames.sha256Argument: GraphQLArgument(type: GraphQLNonNull(GraphQLString))]
        let assetHelp = "The content of the asset with this SHA-256 (lower-case hex), base64; null when there is none."
        fields[GraphQLNames.assetField] =
            if let resolver {
                GraphQLField(
                    type: shared.bytes, description: assetHelp, args: assetArguments,
                    resolve: { _, arguments, context, _ in
                        try await resolver.assetContent(sha256: arguments[GraphQLNames.sha256Argument].string ?? "", context: context)
                    })
            } else {
                GraphQLField(type: shared.bytes, description: assetHelp, args: assetArguments)
            }
        // The change feed is answered by the compiled path only (the reference executor has no
        // resolver for it).
        fields[GraphQLNames.changesField] = GraphQLField(
            type: GraphQLNonNull(shared.changesPage),
            description: "The records changed after a syncToken (every record without one), oldest change first, one page at a time.",
            args: SharedTypes.changesArguments()
        )
        return fields
    }

    /// `Mutation`: per record type `createT`, `updateT`, `deleteT`, and their list forms
    /// `createManyT(records: [TCreate!]!)`, `updateManyT(records: [TUpdate!]!)`,
    /// `deleteManyT(recordNames: [ID!]!)`; and `requireUnchanged(records:)`, a precondition on
    /// change tags.
    func mutationRoot() throws -> GraphQLObjectType {
        var fields: GraphQLFieldMap = [:]
        for type in stored {
            let typeNames = try names(of: type)
            let object = GraphQLNonNull(try built(objects, type.name))
            var fieldsArgument: GraphQLArgumentConfigMap = [:]
            if let input = inputs[type.name] {
                fieldsArgument[GraphQLNames.fieldsArgument] = GraphQLArgument(type: GraphQLNonNull(input), description: "The field values.")
            }
            var create: GraphQLArgumentConfigMap = [
                GraphQLNames.recordNameArgument: GraphQLArgument(type: GraphQLID, description: "The new record's name; a new UUID when left out.")
            ]
            create.merge(fieldsArgument) { first, _ in first }
            var update: GraphQLArgumentConfigMap = [
                GraphQLNames.recordNameArgument: GraphQLArgument(type: GraphQLNonNull(GraphQLID)),
                GraphQLNames.ifChangeTagArgument: GraphQLArgument(
                    type: GraphQLString, description: "Fail with serverRecordChanged unless the record still has this changeTag."),
            ]
            update.merge(fieldsArgument) { first, _ in first }
            let delete: GraphQLArgumentConfigMap = [GraphQLNames.recordNameArgument: GraphQLArgument(type: GraphQLNonNull(GraphQLID))]
            let result = GraphQLNonNull(shared.deleteResult)
            let createHelp = "Creates a record of type \(type.name)."
            let updateHelp = "Changes the given fields of a record of type \(type.name)."
            let deleteHelp = "Deletes a record of type \(type.name) and, transitively, the records holding DELETE_SELF references to it."
            let objects = GraphQLNonNull(GraphQLList(object))
            let createMany: GraphQLArgumentConfigMap = [
                GraphQLNames.recordsArgument: GraphQLArgument(
                    type: GraphQLNonNull(
                        GraphQLList(
                            GraphQLNonNull(
                                try GraphQLInputObjectType(
                                    name: typeNames.createInputType,
                                    description: "One record of createMany\(type.name): the arguments of \(typeNames.createField).", fields: inputFields(create)
                                )))),
                    description: "The records to create, in order."
                )
            ]
            let updateMany: GraphQLArgumentConfigMap = [
                GraphQLNames.recordsArgument: GraphQLArgument(
                    type: GraphQLNonNull(
                        GraphQLList(
                            GraphQLNonNull(
                                try GraphQLInputObjectType(
                                    name: typeNames.updateInputType,
                                    description: "One record of updateMany\(type.name): the arguments of \(typeNames.updateField).", fields: inputFields(update)
                                )))),
                    description: "The changes, in order."
                )
            ]
            let deleteMany: GraphQLArgumentConfigMap = [
                GraphQLNames.recordNamesArgument: GraphQLArgument(type: GraphQLNonNull(GraphQLList(GraphQLNonNull(GraphQLID))))
            ]
            let createManyHelp = "Creates records of type \(type.name), in order; all or none."
            let updateManyHelp = "Changes the given fields of records of type \(type.name), in order; all or none."
            let deleteManyHelp = "Deletes records of type \(type.name) and their DELETE_SELF cascades; deleted lists every record removed."
            guard let resolver else {
                fields[typeNames.createField] = GraphQLField(type: object, description: createHelp, args: create)
                fields[typeNames.updateField] = GraphQLField(type: object, description: updateHelp, args: update)
                fields[typeNames.deleteField] = GraphQLField(type: result, description: deleteHelp, args: delete)
                fields[typeNames.createManyField] = GraphQLField(type: objects, description: createManyHelp, args: createMany)
                fields[typeNames.updateManyField] = GraphQLField(type: objects, description: updateManyHelp, args: updateMany)
                fields[typeNames.deleteManyField] = GraphQLField(type: result, description: deleteManyHelp, args: deleteMany)
                continue
            }
            let mutation = MutationArguments(recordType: type, names: typeNames)
            fields[typeNames.createField] = GraphQLField(
                type: object, description: createHelp, args: create,
                resolve: { _, arguments, context, _ in
                    try await resolver.apply(try mutation.create(arguments), context: context).record
                })
            fields[typeNames.updateField] = GraphQLField(
                type: object, description: updateHelp, args: update,
                resolve: { _, arguments, context, _ in
                    try await resolver.apply(try mutation.update(arguments), context: context).record
                })
            fields[typeNames.deleteField] = GraphQLField(
                type: result, description: deleteHelp, args: delete,
                resolve: { _, arguments, context, _ in
                    let recordName = try mutation.deletedRecordName(arguments)
                    let existing = try await resolver.fetch(recordNames: [recordName], context: context)
                    guard existing.contains(where: { $0.recordType == type.name }) else { throw mutation.unknown(recordName) }
                    let result = try await resolver.apply(.delete(recordName: recordName), context: context)
                    return [GraphQLNames.deletedField: result.deletedRecordNames] as [String: any Sendable]
                })
            fields[typeNames.createManyField] = GraphQLField(
                type: objects, description: createManyHelp, args: createMany,
                resolve: { _, arguments, context, _ in
                    var records: [Record] = []
                    for operation in try mutation.creates(arguments) {
                        records.append(contentsOf: try await resolver.apply(operation, context: context).record.map { [$0] } ?? [])
                    }
                    return records
                })
            fields[typeNames.updateManyField] = GraphQLField(
                type: objects, description: updateManyHelp, args: updateMany,
                resolve: { _, arguments, context, _ in
                    var records: [Record] = []
                    for operation in try mutation.updates(arguments) {
                        records.append(contentsOf: try await resolver.apply(operation, context: context).record.map { [$0] } ?? [])
                    }
                    return records
                })
            fields[typeNames.deleteManyField] = GraphQLField(
                type: result, description: deleteManyHelp, args: deleteMany,
                resolve: { _, arguments, context, _ in
                    let recordNames = try mutation.deletedRecordNames(arguments)
                    let existing = try await resolver.fetch(recordNames: recordNames, context: context)
                    for recordName in recordNames where !existing.contains(where: { $0.recordName == recordName && $0.recordType == type.name }) {
                        throw mutation.unknown(recordName)
                    }
                    var deleted: [String] = []
                    for recordName in recordNames where !deleted.contains(recordName) {
                        deleted += try await resolver.apply(.delete(recordName: recordName), context: context).deletedRecordNames
                    }
                    return [GraphQLNames.deletedField: deleted] as [String: any Sendable]
                })
        }
        // Answered by the compiled path only (the reference executor has no resolver for it).
        fields[GraphQLNames.requireUnchangedField] = GraphQLField(
            type: GraphQLNonNull(GraphQLList(GraphQLNonNull(GraphQLID))),
            description: """
                Changes nothing: fails with serverRecordChanged unless each record still has the changeTag given \
                (unknownItem when it is gone), so that the mutation's other fields apply only to what was read. \
                Lists the recordNames checked.
                """,
            args: [
                GraphQLNames.recordsArgument: GraphQLArgument(
                    type: GraphQLNonNull(GraphQLList(GraphQLNonNull(shared.recordVersionInput))),
                    description: "The records, each with the changeTag it was read with.")
            ]
        )
        return try GraphQLObjectType(name: GraphQLNames.mutationType, fields: fields)
    }

    /// The members of an input object holding the arguments `arguments` of a field.
    private func inputFields(_ arguments: GraphQLArgumentConfigMap) -> InputObjectFieldMap {
        arguments.mapValues { InputObjectField(type: $0.type, defaultValue: $0.defaultValue, description: $0.description) }
    }
}
