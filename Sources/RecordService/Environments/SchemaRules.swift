import RecordKit

/// Schema changes split into what gives a schema its shape and the rules on stored records
/// (`NOT EMPTY`, `UNIQUE`, a reference's declared type), which records may break: the shape can
/// go first and a rule follow once the records keep it.
enum SchemaRules {
    /// `changes` as shape and rules; a new field declared `NOT EMPTY` is added without the rule,
    /// which comes after as its own change.
    static func separate(_ changes: [SchemaChange]) -> (shape: [SchemaChange], rules: [SchemaChange]) {
        var shape: [SchemaChange] = []
        var rules: [SchemaChange] = []
        for change in changes {
            switch change {
            case .addField(let type, var field) where field.isRequired:
                field.isRequired = false
                shape.append(.addField(recordType: type, field))
                rules.append(.addRequired(recordType: type, field: field.name))
            case .addRequired, .addUniqueConstraint, .addReferencedType:
                rules.append(change)
            default:
                shape.append(change)
            }
        }
        return (shape, rules)
    }
}
