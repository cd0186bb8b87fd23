/// Checks of the rules a record type declares about its values (`UNIQUE (…)`, `NOT EMPTY`).
extension RecordType {
    /// Throws `schemaViolation` unless `constraint` names one or more distinct user fields of
    /// this type whose values can be compared (of an ordered type, ``FieldType/isOrdered``, not
    /// encrypted) and differs from every constraint in `others`.
    public func checkUniqueConstraint(_ constraint: UniqueConstraint, among others: some Sequence<UniqueConstraint>) throws(RecordError) {
        guard !constraint.fields.isEmpty else {
            throw RecordError(.schemaViolation, "\(name): UNIQUE () names no field; list the fields whose values together are unique", recordType: name)
        }
        var seen: Set<String> = []
        for fieldName in constraint.fields {
            guard let field = field(named: fieldName), field.systemField == nil else {
                throw RecordError(.schemaViolation, "\(name) has no field '\(fieldName)' for \(constraint)", recordType: name, field: fieldName)
            }
            guard seen.insert(fieldName).inserted else {
                throw RecordError(.schemaViolation, "\(name): \(constraint) names '\(fieldName)' twice", recordType: name, field: fieldName)
            }
            guard field.isIndexableScalar else {
                throw RecordError(
                    .schemaViolation,
                    "\(name).\(fieldName) is \(field.ckdbType): \(constraint) takes only \(FieldType.orderedTypeNames) fields that are not encrypted",
                    recordType: name, field: fieldName
                )
            }
        }
        if others.contains(where: { $0.hasSameFields(as: constraint) }) {
            throw RecordError(.schemaViolation, "\(name) declares \(constraint) twice", recordType: name)
        }
    }

    /// The constraint declaring the same fields as `constraint` (in any order), if any.
    func uniqueConstraint(matching constraint: UniqueConstraint) -> UniqueConstraint? {
        uniqueConstraints.first { $0.hasSameFields(as: constraint) }
    }
}

extension UniqueConstraint {
    /// Whether both name the same fields, in any order.
    func hasSameFields(as other: UniqueConstraint) -> Bool {
        Set(fields) == Set(other.fields)
    }
}
