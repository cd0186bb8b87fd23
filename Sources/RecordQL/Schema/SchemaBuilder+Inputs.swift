import GraphQL
import OrderedCollections
import RecordKit

extension SchemaBuilder {
    /// `TFilter`: the system keys, one operator object per filterable user field, `search` when
    /// the type has SEARCHABLE fields, then `AND`, `OR`, `NOT`.
    func filterType(_ type: RecordType, _ typeNames: GraphQLNameMap.RecordTypeNames) throws -> GraphQLInputObjectType {
        var keys: InputObjectFieldMap = [
            "recordName": InputObjectField(type: try operatorFilter(.scalar(.recordName)), description: "Tests the recordName."),
            "createdAt": InputObjectField(type: try operatorFilter(.scalar(.timestamp)), description: "Tests when the record was created."),
            "modifiedAt": InputObjectField(type: try operatorFilter(.scalar(.timestamp)), description: "Tests when the record was last saved."),
        ]
        for field in type.userFields where field.isFilterable {
            keys[try graphQLName(of: field, typeNames)] = InputObjectField(
                type: try operatorFilter(FilterKind(field.type)),
                description: "Tests \(field.name) (\(field.type))."
            )
        }
        let searchable = type.searchableFieldNames
        if !searchable.isEmpty {
            keys[GraphQLNames.searchKey] = InputObjectField(
                type: GraphQLString,
                description: "Full-text search over \(searchable.joined(separator: ", ")) (self CONTAINS): every word must match."
            )
        }
        let filter = try GraphQLInputObjectType(
            name: typeNames.filterType,
            description: "Which \(type.name) records: the keys of one object are ANDed."
        )
        filter.fields = { [weak filter, keys] in
            guard let filter else { throw RecordError(.internalError, "the filter of \(type.name) was read after it was released") }
            var fields = keys
            fields[GraphQLNames.andKey] = InputObjectField(type: GraphQLList(GraphQLNonNull(filter)), description: "Every one of these matches.")
            fields[GraphQLNames.orKey] = InputObjectField(type: GraphQLList(GraphQLNonNull(filter)), description: "At least one of these matches.")
            fields[GraphQLNames.notKey] = InputObjectField(type: filter, description: "This does not match.")
            return fields
        }
        return filter
    }

    /// `TSort`: one `SortDirection` per sortable key; a sort object names exactly one.
    func sortType(_ type: RecordType, _ typeNames: GraphQLNameMap.RecordTypeNames) throws -> GraphQLInputObjectType {
        var keys: InputObjectFieldMap = [:]
        for key in GraphQLNames.sortSystemKeys {
            keys[key] = InputObjectField(type: shared.sortDirection)
        }
        for field in type.userFields where field.isSortable {
            keys[try graphQLName(of: field, typeNames)] = InputObjectField(type: shared.sortDirection)
        }
        return try GraphQLInputObjectType(
            name: typeNames.sortType,
            description: "One sort key of \(type.name): give exactly one key per object.",
            fields: keys
        )
    }

    /// `TInput`: every user field, optional; `nil` for a type without user fields (GraphQL has
    /// no empty input objects: its create and update mutations then take no `fields`).
    func inputType(_ type: RecordType, _ typeNames: GraphQLNameMap.RecordTypeNames) throws -> GraphQLInputObjectType? {
        guard !type.userFields.isEmpty else { return nil }
        var fields: InputObjectFieldMap = [:]
        for field in type.userFields {
            fields[try graphQLName(of: field, typeNames)] = InputObjectField(
                type: inputType(of: field.type),
                description: "\(field.type)\(field.type == .asset ? ": the content, base64" : ""); null removes the value."
            )
        }
        return try GraphQLInputObjectType(
            name: typeNames.inputType,
            description: "Field values of a \(type.name) record to save; fields left out are not changed.",
            fields: fields
        )
    }

    /// The input type of values of `type` in `TInput`.
    private func inputType(of type: FieldType) -> any GraphQLInputType & GraphQLNullableType {
        switch type {
        case .string: GraphQLString
        case .int64, .number(preferred: .int64): shared.int64
        case .double, .number: GraphQLFloat
        case .timestamp: shared.timestamp
        case .bytes, .asset: shared.bytes
        case .reference: shared.referenceInput
        case .location: shared.locationInput
        case .list(let element): GraphQLList(GraphQLNonNull(inputType(of: element)))
        }
    }

    /// The shared operator input of `kind`.
    private func operatorFilter(_ kind: FilterKind) throws(RecordError) -> GraphQLInputObjectType {
        guard let type = shared.operatorFilters[kind] else {
            throw RecordError(.internalError, "no operator input for \(kind.typeName)")
        }
        return type
    }

    /// The GraphQL name of a user field.
    func graphQLName(of field: RecordKit.FieldDefinition, _ typeNames: GraphQLNameMap.RecordTypeNames) throws(RecordError) -> String {
        guard let name = typeNames.fields[field.name] else {
            throw RecordError(
                .internalError, "no GraphQL name for field \(typeNames.recordType).\(field.name)", recordType: typeNames.recordType, field: field.name)
        }
        return name
    }
}
