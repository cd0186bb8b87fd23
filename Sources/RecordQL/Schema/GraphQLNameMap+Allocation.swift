public import RecordKit

extension GraphQLNameMap {
    /// The names of `schema`'s stored record types, clashes resolved as ``GraphQLNameMap`` says.
    public init(_ schema: Schema) {
        let stored = schema.recordTypes.filter { !$0.isCloudKitSystemType }
        var typeNames = NameAllocator(taken: GraphQLNames.sharedTypes + FilterKind.allCases.map(\.typeName))
        let objects = typeNames.claimAll(stored.map { GraphQLNames.objectType($0.name) })
        var queryNames = NameAllocator(taken: [GraphQLNames.assetField, GraphQLNames.changesField])
        let lists = queryNames.claimAll(objects.map(GraphQLNames.listField))
        var mutationNames = NameAllocator(taken: [])
        let referrers = Self.referrers(of: stored)

        // The names every schema had before the list mutations and aggregates came, claimed
        // first, in the order they always were, so that those additions never rename them.
        var original: [(filter: String, sort: String, input: String, page: String, pageField: String, create: String, update: String, delete: String)] = []
        for object in objects {
            original.append(
                (
                    typeNames.claim(GraphQLNames.filterType(object)), typeNames.claim(GraphQLNames.sortType(object)),
                    typeNames.claim(GraphQLNames.inputType(object)), typeNames.claim(GraphQLNames.pageType(object)),
                    queryNames.claim(GraphQLNames.pageField(object)), mutationNames.claim(GraphQLNames.createField(object)),
                    mutationNames.claim(GraphQLNames.updateField(object)), mutationNames.claim(GraphQLNames.deleteField(object))
                ))
        }

        var recordTypes: [String: RecordTypeNames] = [:]
        var queryFields: [String: QueryField] = [GraphQLNames.assetField: .asset, GraphQLNames.changesField: .changes]
        var mutationFields: [String: MutationField] = [:]
        for (index, type) in stored.enumerated() {
            let object = objects[index]
            let fields = Self.fieldNames(of: type)
            let names = RecordTypeNames(
                recordType: type.name,
                objectType: object,
                filterType: original[index].filter,
                sortType: original[index].sort,
                inputType: original[index].input,
                pageType: original[index].page,
                listField: lists[index],
                pageField: original[index].pageField,
                aggregateField: queryNames.claim(GraphQLNames.aggregateField(object)),
                aggregateType: typeNames.claim(GraphQLNames.aggregateType(object)),
                sumFieldsType: typeNames.claim(GraphQLNames.sumFieldsType(object)),
                avgFieldsType: typeNames.claim(GraphQLNames.avgFieldsType(object)),
                minMaxFieldsType: typeNames.claim(GraphQLNames.minMaxFieldsType(object)),
                createField: original[index].create,
                updateField: original[index].update,
                deleteField: original[index].delete,
                createManyField: mutationNames.claim(GraphQLNames.createManyField(object)),
                updateManyField: mutationNames.claim(GraphQLNames.updateManyField(object)),
                deleteManyField: mutationNames.claim(GraphQLNames.deleteManyField(object)),
                createInputType: typeNames.claim(GraphQLNames.createInputType(object)),
                updateInputType: typeNames.claim(GraphQLNames.updateInputType(object)),
                fields: fields,
                referrers: Self.referrersFields(referrers[type.name] ?? [], besides: Array(fields.values)),
                fieldsByGraphQLName: Dictionary(uniqueKeysWithValues: fields.map { ($0.value, $0.key) })
            )
            recordTypes[type.name] = names
            queryFields[names.listField] = .list(recordType: type.name)
            queryFields[names.pageField] = .page(recordType: type.name)
            queryFields[names.aggregateField] = .aggregate(recordType: type.name)
            mutationFields[names.createField] = .create(recordType: type.name)
            mutationFields[names.updateField] = .update(recordType: type.name)
            mutationFields[names.deleteField] = .delete(recordType: type.name)
            mutationFields[names.createManyField] = .createMany(recordType: type.name)
            mutationFields[names.updateManyField] = .updateMany(recordType: type.name)
            mutationFields[names.deleteManyField] = .deleteMany(recordType: type.name)
        }
        self.recordTypes = recordTypes
        self.recordTypesByObjectType = Dictionary(uniqueKeysWithValues: recordTypes.values.map { ($0.objectType, $0.recordType) })
        self.queryFields = queryFields
        self.mutationFields = mutationFields
    }

    /// The GraphQL name of each user field of `type`: its own unless a system field or a
    /// `TFilter` key has it.
    private static func fieldNames(of type: RecordType) -> [String: String] {
        let reserved = GraphQLNames.systemFields + [GraphQLNames.searchKey, GraphQLNames.andKey, GraphQLNames.orKey, GraphQLNames.notKey]
        var allocator = NameAllocator(taken: reserved)
        let names = type.userFields.map(\.name)
        return Dictionary(uniqueKeysWithValues: zip(names, allocator.claimAll(names)))
    }

    /// For each target record type, the reference fields pointing at it, as (referring type,
    /// field), referring types in name order and fields in declaration order.
    private static func referrers(of stored: [RecordType]) -> [String: [(recordType: String, field: String)]] {
        let storedNames = Set(stored.map(\.name))
        var result: [String: [(recordType: String, field: String)]] = [:]
        for referring in stored {
            for field in referring.userFields where field.holdsReferences {
                let targets = field.referencedType.map { storedNames.contains($0) ? [$0] : [] } ?? stored.map(\.name)
                for target in targets {
                    result[target, default: []].append((referring.name, field.name))
                }
            }
        }
        return result
    }

    /// Names for the referrers fields of one object type, clear of its system and user fields.
    private static func referrersFields(_ pointing: [(recordType: String, field: String)], besides fieldNames: [String]) -> [Referrers] {
        var allocator = NameAllocator(taken: GraphQLNames.systemFields + fieldNames)
        let counts = Dictionary(pointing.map { ($0.recordType, 1) }, uniquingKeysWith: +)
        let preferred = pointing.map {
            GraphQLNames.referrersField(referring: $0.recordType, field: $0.field, isAmbiguous: counts[$0.recordType, default: 0] > 1)
        }
        let names = allocator.claimAll(preferred)
        let aggregateNames = allocator.claimAll(names.map(GraphQLNames.aggregateField))
        return pointing.indices.map {
            Referrers(name: names[$0], aggregateName: aggregateNames[$0], recordType: pointing[$0].recordType, field: pointing[$0].field)
        }
    }
}

/// Hands out names in one GraphQL namespace: the preferred name when free, else the name with
/// `_` appended until it is free.
struct NameAllocator {
    private var taken: Set<String>

    init(taken: [String]) {
        self.taken = Set(taken)
    }

    /// `preferred`, or `preferred_`, `preferred__`, … whichever is free first; now taken.
    mutating func claim(_ preferred: String) -> String {
        var name = preferred
        while taken.contains(name) { name += "_" }
        taken.insert(name)
        return name
    }

    /// Names for `preferred`, in order: every name that is free is kept first, then the others
    /// are renamed, so a renamed name never displaces one that was free.
    mutating func claimAll(_ preferred: [String]) -> [String] {
        var kept: [String?] = []
        for name in preferred {
            if taken.contains(name) {
                kept.append(nil)
            } else {
                taken.insert(name)
                kept.append(name)
            }
        }
        return zip(preferred, kept).map { name, kept in kept ?? claim(name) }
    }
}
