import TestSupport

@testable import RecordKit

/// Makes arbitrary schemas the CKDB parser can produce, from a seed, so that properties such as
/// `parse(print(s)) == s` can be checked on many of them reproducibly.
///
/// Names come from pools that include keywords (`GRANT`, `from`, `type`), names of every length
/// up to past the 16-character column, and names that differ only in case (only one of which
/// is used per scope, as the parser requires).
struct SchemaGenerator {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(state: seed)
    }

    mutating func schema() -> Schema {
        let roles = pick(from: Self.roleNames, count: int(0...3))
        let typeNames = pick(from: Self.typeNames, count: int(0...5))
        let recordTypes = typeNames.map { recordType(named: $0, roles: roles) }
        return Schema(roles: roles, recordTypes: recordTypes)
    }

    private mutating func recordType(named name: String, roles: [String]) -> RecordType {
        var fields = pick(from: SystemField.allCases, count: int(0...6)).map { system in
            FieldDefinition(system.rawValue, system.type, flags: flags())
        }
        for fieldName in pick(from: Self.fieldNames, count: int(0...8)) {
            let type = fieldType()
            let encrypted = Self.encryptable.contains(type.elementType ?? type) && int(0...3) == 0
            fields.insert(
                FieldDefinition(fieldName, type, flags: encrypted ? [] : flags(), isEncrypted: encrypted, isRequired: int(0...3) == 0),
                at: int(0...fields.count)
            )
        }
        let comparable = fields.filter { $0.systemField == nil && $0.isIndexableScalar }.map(\.name)
        var uniqueConstraints: [UniqueConstraint] = []
        for _ in 0..<int(0...2) where !comparable.isEmpty {
            let constraint = UniqueConstraint(pick(from: comparable, count: int(1...3)))
            if !uniqueConstraints.contains(where: { Set($0.fields) == Set(constraint.fields) }) { uniqueConstraints.append(constraint) }
        }
        let grantees = ["_creator", "_icloud", "_world"] + roles
        let grants = (0..<int(0...4)).map { _ in
            Grant(pick(from: Grant.Permission.allCases, count: int(1...3)), to: grantees[int(0...grantees.count - 1)])
        }
        return RecordType(name, fields: fields, grants: grants, uniqueConstraints: uniqueConstraints)
    }

    private mutating func fieldType() -> FieldType {
        let primitive = Self.primitives[int(0...Self.primitives.count - 1)]
        return int(0...3) == 0 ? .list(primitive) : primitive
    }

    private mutating func flags() -> IndexFlags {
        IndexFlags(rawValue: UInt8(int(0...7)))
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    /// `count` elements of `pool` in random order, no two equal ignoring case.
    private mutating func pick<Element>(from pool: [Element], count: Int) -> [Element] {
        var remaining = pool
        var picked: [Element] = []
        while picked.count < count, !remaining.isEmpty {
            let element = remaining.remove(at: int(0...remaining.count - 1))
            let key = String(describing: element).lowercased()
            if !picked.contains(where: { String(describing: $0).lowercased() == key }) { picked.append(element) }
        }
        return picked
    }

    private static let roleNames = ["Moderator", "moderator", "Editor", "GRANT", "to", "x"]
    private static let typeNames = [
        "Items", "items", "Lists", "Users", "RECORD", "type", "Grant", "A",
        "AVeryLongRecordTypeNameThatGoesOnAndOn_2",
    ]
    private static let fieldNames = [
        "name", "Name", "list", "from", "to", "GRANT", "order", "timestamp", "role", "x",
        "exactlyFifteenC", "sixteenCharsLong", "aFieldNameLongerThanTheColumn_1", "CD_entityName",
        "unique", "NOT", "EMPTY",
    ]
    private static let primitives: [FieldType] = [
        .string, .int64, .double, .number(preferred: nil), .number(preferred: .int64),
        .number(preferred: .double), .timestamp, .bytes, .reference, .asset, .location,
    ]
    private static let encryptable: Set<FieldType> = [.bytes, .double, .int64, .location, .string, .timestamp]
}
