import GraphQL
import OrderedCollections
import RecordKit

extension SchemaBuilder {
    /// The fields of the object type of `type`: the system fields, one per user field, then the
    /// referrers fields. With a resolver each reads a ``Record`` source.
    func objectFields(_ type: RecordType) throws -> GraphQLFieldMap {
        let typeNames = try names(of: type)
        var fields = SharedTypes.systemFields(timestamp: shared.timestamp, resolving: resolver != nil)
        for field in type.userFields {
            fields[try graphQLName(of: field, typeNames)] = try userField(field)
        }
        for referrers in typeNames.referrers {
            fields[referrers.name] = try referrersField(referrers)
        }
        for referrers in typeNames.referrers {
            fields[referrers.aggregateName] = GraphQLField(
                type: GraphQLNonNull(try built(aggregates, referrers.recordType)),
                description: "Aggregates over the \(referrers.recordType) records whose \(referrers.field) references this record.",
                args: try aggregateArguments(referrers.recordType)
            )
        }
        return fields
    }

    /// `TPage { records: [T!]!, cursor: String }`, read from a ``RecordPage`` with a resolver.
    func pageType(_ type: RecordType, _ typeNames: GraphQLNameMap.RecordTypeNames, _ object: GraphQLObjectType) throws -> GraphQLObjectType {
        let records = GraphQLNonNull(GraphQLList(GraphQLNonNull(object)))
        let recordsHelp = "The records of this page."
        let cursorHelp = "Pass as after: to get the next page; null on the last page."
        let fields: GraphQLFieldMap =
            if resolver == nil {
                [
                    GraphQLNames.pageRecordsField: GraphQLField(type: records, description: recordsHelp),
                    GraphQLNames.pageCursorField: GraphQLField(type: GraphQLString, description: cursorHelp),
                ]
            } else {
                [
                    GraphQLNames.pageRecordsField: GraphQLField(type: records, description: recordsHelp) { source, _, _, _ in (source as? RecordPage)?.records
                    },
                    GraphQLNames.pageCursorField: GraphQLField(type: GraphQLString, description: cursorHelp) { source, _, _, _ in
                        (source as? RecordPage)?.cursor
                    },
                ]
            }
        return try GraphQLObjectType(name: typeNames.pageType, description: "One page of \(type.name) records.", fields: fields)
    }

    /// The field of a user field: nullable, since a record may have no value.
    private func userField(_ field: RecordKit.FieldDefinition) throws -> GraphQLField {
        let description = ([field.type.description, field.flags.description] + (field.referencedType.map { ["referencing \($0)"] } ?? []))
            .filter { !$0.isEmpty }.joined(separator: " ")
        guard field.holdsReferences else {
            let output = try outputType(of: field.type)
            guard resolver != nil else { return GraphQLField(type: output, description: description) }
            return GraphQLField(type: output, description: description) { [name = field.name, fieldType = field.type] source, _, _, _ in
                (source as? Record)?.fields[name].flatMap { OutputValue.resolved($0, type: fieldType) }
            }
        }
        let target = referenceTarget(field)
        let output: any GraphQLOutputType = field.type == .reference ? target.type : GraphQLList(target.type)
        guard let resolver else { return GraphQLField(type: output, description: description) }
        return GraphQLField(
            type: output, description: description,
            resolve: { [name = field.name, recordType = target.recordType] source, _, context, _ in
                guard let value = (source as? Record)?.fields[name] else { return nil }
                let references: [String] =
                    switch value {
                    case .reference(let reference): [reference.recordName]
                    case .list(let elements): elements.compactMap { $0.referenceValue?.recordName }
                    default: []
                    }
                let found = try await resolver.fetch(recordNames: references, context: context)
                    .filter { record in recordType.map { $0 == record.recordType } ?? true }
                let byName = Dictionary(found.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
                if case .reference = value { return references.first.flatMap { byName[$0] } }
                return references.map { byName[$0] as (any Sendable)? }
            })
    }

    /// What a REFERENCE field resolves to: the object type of its declared record type, else
    /// (untyped, or pointing at a type that stores no records) the `Record` interface.
    private func referenceTarget(_ field: RecordKit.FieldDefinition) -> (type: any GraphQLOutputType, recordType: String?) {
        if let declared = field.referencedType, let object = objects[declared] { return (object, declared) }
        return (shared.record, nil)
    }

    /// The output type of non-reference values of `type`.
    private func outputType(of type: FieldType) throws(RecordError) -> any GraphQLOutputType & GraphQLNullableType {
        switch type {
        case .string: return GraphQLString
        case .int64, .number(preferred: .int64): return shared.int64
        case .double, .number: return GraphQLFloat
        case .timestamp: return shared.timestamp
        case .bytes: return shared.bytes
        case .location: return shared.location
        case .asset: return shared.asset
        case .list(let element): return GraphQLList(GraphQLNonNull(try outputType(of: element)))
        case .reference: throw RecordError(.internalError, "REFERENCE fields resolve to record objects")
        }
    }

    /// `S(where:, predicate:, sort:, limit:): [S!]!` on the referenced type: the records of `S`
    /// whose field points at the record.
    private func referrersField(_ referrers: GraphQLNameMap.Referrers) throws -> GraphQLField {
        let output = GraphQLNonNull(GraphQLList(GraphQLNonNull(try built(objects, referrers.recordType))))
        let description = "The \(referrers.recordType) records whose \(referrers.field) references this record."
        let arguments = try listArguments(referrers.recordType)
        guard let resolver else { return GraphQLField(type: output, description: description, args: arguments) }
        let referring = try schema.requireRecordType(referrers.recordType)
        let query = QueryArguments(recordType: referring, names: try names(of: referring))
        let isList = try schema.requireField(referrers.field, of: referrers.recordType).type.elementType != nil
        return GraphQLField(
            type: output, description: description, args: arguments,
            resolve: { [field = referrers.field] source, arguments, context, _ in
                guard let record = source as? Record else { return nil }
                var asked = try query.query(arguments)
                let target = Predicate.Literal.value(.reference(Reference(record.recordName)))
                let link: Predicate = isList ? .contains(key: field, target) : .compare(key: field, .equal, target)
                asked.predicate = link && asked.predicate
                return try await resolver.records(matching: asked, context: context)
            })
    }
}
