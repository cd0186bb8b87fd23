import RecordKit

/// `sortBy`: CloudKit's sort descriptor dictionaries (`fieldName`, `ascending`, default true),
/// most significant first, as the engine's ``SortDescriptor``s. Ties are broken by recordName,
/// so pages never skip or repeat a record.
enum CloudKitSort {
    static func descriptors(_ sortBy: JSONValue?, on type: RecordType) throws(CloudKitError) -> [SortDescriptor] {
        guard let sortBy else { return [] }
        guard case .array(let sorts) = sortBy else {
            throw CloudKitError(.badRequest, "query.sortBy must be an array of sort dictionaries, not \(sortBy.kindName)")
        }
        var descriptors: [SortDescriptor] = []
        for (index, sort) in sorts.enumerated() {
            let path = "query.sortBy[\(index)]"
            guard case .string(let name)? = sort["fieldName"] ?? sort["systemFieldName"] else {
                throw CloudKitError(.badRequest, "\(path) needs a fieldName")
            }
            let ascending = try JSONValue.flag(sort["ascending"], key: "\(path).ascending") ?? true
            if sort["relativeLocation"] != nil {
                throw CloudKitError(.badRequest, "\(path): sorting by distance (relativeLocation) is not supported; filter with NEAR and sort by another field")
            }
            descriptors.append(SortDescriptor(try key(name, on: type, where: path), ascending: ascending))
        }
        return descriptors
    }

    private static func key(_ name: String, on type: RecordType, where path: String) throws(CloudKitError) -> String {
        if let system = CloudKitSystemKey.resolve(name) { return system.key }
        guard let field = type.field(named: name), field.systemField == nil else {
            throw CloudKitError(.badRequest, "\(path): \(type.name) has no field \(name.debugDescription)", recordType: type.name)
        }
        guard field.type.isOrdered else {
            throw CloudKitError(
                .badRequest, "\(path): \(type.name).\(name) is \(field.type), which has no order; sort by a \(FieldType.orderedTypeNames) field",
                recordType: type.name)
        }
        return name
    }
}
