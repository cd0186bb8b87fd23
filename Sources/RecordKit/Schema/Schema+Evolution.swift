/// Additive schema evolution: comparing schemas and applying what one adds to another.
extension Schema {
    /// How ``changes(to:mode:)`` treats what the target leaves out.
    public enum ComparisonMode: Sendable {
        /// What the target leaves out is kept (`schema import`): only additions and retypings show.
        case merge
        /// The target is the whole new schema: what it leaves out counts as removed.
        case exact
    }

    /// The changes that turn `self` into `target`, in an order that can be applied.
    public func changes(to target: Schema, mode: ComparisonMode = .merge) -> [SchemaChange] {
        var changes: [SchemaChange] = target.roles.filter { !roles.contains($0) }.map(SchemaChange.addRole)
        for targetType in target.recordTypes {
            guard let current = recordType(named: targetType.name) else {
                changes.append(.addRecordType(targetType))
                continue
            }
            changes += current.changes(to: targetType, mode: mode)
        }
        if mode == .exact {
            changes += recordTypes.filter { target.recordType(named: $0.name) == nil }.map { .removeRecordType($0.name) }
        }
        return changes
    }

    /// `self` with the additive `changes` applied, after checking every change; throws
    /// `schemaViolation` naming every change that is not additive, or else the first that is not
    /// valid, and then nothing is applied.
    public func applying(_ changes: [SchemaChange]) throws(RecordError) -> Schema {
        try Self.refuseNonAdditive(changes)
        var result = self
        for change in changes {
            try result.apply(change)
        }
        try result.checkReferencedTypesExist()
        try result.checkFieldCounts()
        return result
    }

    /// Throws `schemaViolation` naming each change that is not additive, so that one answer
    /// says all a schema must give up (the first change's type and field in the error).
    private static func refuseNonAdditive(_ changes: [SchemaChange]) throws(RecordError) {
        let refused = changes.filter { !$0.isAdditive }
        guard let first = refused.first else { return }
        throw RecordError(
            .schemaViolation,
            "cannot \(refused.map(\.description).listedAsAlternatives): schema evolution is additive (new record types, fields and index flags only); nothing was applied",
            recordType: first.recordTypeName,
            field: first.fieldName
        )
    }

    /// Throws `limitExceeded` when a record type declares more than ``Limits/maximumFieldsPerType``
    /// fields.
    private func checkFieldCounts() throws(RecordError) {
        for type in recordTypes where type.userFields.count > Limits.maximumFieldsPerType {
            throw RecordError(
                .limitExceeded,
                "\(type.name) would have \(type.userFields.count) fields; a record type holds at most \(Limits.maximumFieldsPerType): "
                    + "keep related values in another record type that references this one",
                recordType: type.name
            )
        }
    }

    /// Throws `schemaViolation` when a field declares it references a record type that does not exist.
    private func checkReferencedTypesExist() throws(RecordError) {
        for type in recordTypes {
            for field in type.fields {
                guard let target = field.referencedType, recordType(named: target) == nil else { continue }
                throw RecordError(
                    .schemaViolation,
                    "\(type.name).\(field.name) references '\(target)', which is not a record type; add that type too",
                    recordType: type.name, field: field.name
                )
            }
        }
    }

    /// Throws `schemaViolation` when `grant` names a custom role the schema does not declare:
    /// a misspelt role would grant nothing, silently.
    private func checkRoleDeclared(_ grant: Grant, by typeName: String) throws(RecordError) {
        guard !grant.isSystemRole, !roles.contains(where: { $0.lowercased() == grant.role.lowercased() }) else { return }
        let permissions = grant.permissions.map(\.rawValue).joined(separator: ", ")
        throw RecordError(
            .schemaViolation,
            "\(typeName) grants \(permissions) to '\(grant.role)', which is not a role: declare it with CREATE ROLE \(grant.role); "
                + "or grant to one of the system roles \(AccessPolicy.Role.quotedNames)",
            recordType: typeName
        )
    }

    private mutating func apply(_ change: SchemaChange) throws(RecordError) {
        switch change {
        case .addRole(let role):
            if !roles.contains(role) { roles.append(role) }
        case .addRecordType(let type):
            if !type.isCloudKitSystemType {
                try Identifier.validate(type.name, as: .recordType)
            }
            if type.name.lowercased().hasPrefix("sqlite_") {
                throw RecordError(
                    .invalidArguments,
                    "'\(type.name)' is not a valid record type name: names starting with sqlite_ are reserved by SQLite",
                    recordType: type.name
                )
            }
            if let clash = recordTypes.first(where: { $0.name.lowercased() == type.name.lowercased() }) {
                guard clash.name != type.name else {
                    throw RecordError(
                        .schemaViolation, "cannot add record type \(type.name): it already exists", recordType: type.name,
                        reason: .recordTypeExists, remedy: .addFieldsTo(recordType: type.name)
                    )
                }
                throw RecordError(.schemaViolation, "cannot add record type \(type.name): it differs only in case from \(clash.name)", recordType: type.name)
            }
            for grant in type.grants {
                try checkRoleDeclared(grant, by: type.name)
            }
            var added = RecordType(type.name, grants: type.grants)
            for field in type.fields {
                try added.add(field)
            }
            for constraint in type.uniqueConstraints {
                try added.checkUniqueConstraint(constraint, among: added.uniqueConstraints)
                added.uniqueConstraints.append(constraint)
            }
            upsert(added)
        case .addField(let typeName, let field):
            var type = try requireRecordType(typeName)
            try type.add(field)
            upsert(type)
        case .addIndexFlags(let typeName, let fieldName, let flags):
            var type = try requireRecordType(typeName)
            guard let index = type.fields.firstIndex(where: { $0.name == fieldName }) else {
                throw RecordError(.schemaViolation, "\(typeName) has no field '\(fieldName)'", recordType: typeName, field: fieldName)
            }
            try FieldDefinition.checkFlags(flags, for: type.fields[index], in: typeName)
            type.fields[index].flags.formUnion(flags)
            upsert(type)
        case .addGrant(let typeName, let grant):
            var type = try requireRecordType(typeName)
            try checkRoleDeclared(grant, by: typeName)
            if !type.grants.contains(grant) { type.grants.append(grant) }
            upsert(type)
        case .addReferencedType(let typeName, let fieldName, let target):
            var type = try requireRecordType(typeName)
            guard let index = type.fields.firstIndex(where: { $0.name == fieldName }), type.fields[index].holdsReferences else {
                throw RecordError(.schemaViolation, "\(typeName).\(fieldName) is not a REFERENCE field", recordType: typeName, field: fieldName)
            }
            type.fields[index].referencedType = target
            upsert(type)
        case .addUniqueConstraint(let typeName, let constraint):
            var type = try requireRecordType(typeName)
            guard type.uniqueConstraint(matching: constraint) == nil else { return }
            try type.checkUniqueConstraint(constraint, among: type.uniqueConstraints)
            type.uniqueConstraints.append(constraint)
            upsert(type)
        case .addRequired(let typeName, let fieldName):
            var type = try requireRecordType(typeName)
            guard let index = type.fields.firstIndex(where: { $0.name == fieldName }), type.fields[index].systemField == nil else {
                throw RecordError(.schemaViolation, "\(typeName) has no field '\(fieldName)'", recordType: typeName, field: fieldName)
            }
            type.fields[index].isRequired = true
            upsert(type)
        case .removeRecordType, .removeField, .removeIndexFlags, .changeFieldType, .changeEncryption, .changeReferencedType,
            .removeUniqueConstraint, .removeRequired:
            try Self.refuseNonAdditive([change])
        }
    }
}

extension RecordType {
    /// The changes that turn `self` into `target` (same name).
    func changes(to target: RecordType, mode: Schema.ComparisonMode) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        for targetField in target.fields {
            guard let current = field(named: targetField.name) else {
                changes.append(.addField(recordType: name, targetField))
                continue
            }
            if current.type != targetField.type {
                changes.append(.changeFieldType(recordType: name, field: current.name, from: current.type, to: targetField.type))
            } else if current.isEncrypted != targetField.isEncrypted {
                changes.append(.changeEncryption(recordType: name, field: current.name, encrypted: targetField.isEncrypted))
            }
            switch (current.referencedType, targetField.referencedType) {
            case (nil, let target?):
                changes.append(.addReferencedType(recordType: name, field: current.name, target))
            case (let existing?, let target) where existing != target && (target != nil || mode == .exact):
                changes.append(.changeReferencedType(recordType: name, field: current.name, from: existing, to: target))
            default: break
            }
            if targetField.isRequired != current.isRequired, targetField.isRequired || mode == .exact {
                changes.append(
                    targetField.isRequired ? .addRequired(recordType: name, field: current.name) : .removeRequired(recordType: name, field: current.name))
            }
            let added = targetField.flags.subtracting(current.flags)
            if !added.isEmpty {
                changes.append(.addIndexFlags(recordType: name, field: current.name, added))
            }
            let removed = current.flags.subtracting(targetField.flags)
            if mode == .exact, !removed.isEmpty {
                changes.append(.removeIndexFlags(recordType: name, field: current.name, removed))
            }
        }
        changes += target.grants.filter { !grants.contains($0) }.map { .addGrant(recordType: name, $0) }
        changes += target.uniqueConstraints.filter { uniqueConstraint(matching: $0) == nil }.map { .addUniqueConstraint(recordType: name, $0) }
        if mode == .exact {
            changes += fields.filter { target.field(named: $0.name) == nil }.map { .removeField(recordType: name, field: $0.name) }
            changes += uniqueConstraints.filter { target.uniqueConstraint(matching: $0) == nil }.map { .removeUniqueConstraint(recordType: name, $0) }
        }
        return changes
    }

    /// Appends `field` after checking its name, that no field of the same name (ignoring case)
    /// exists, and that its flags suit its type.
    mutating func add(_ field: FieldDefinition) throws(RecordError) {
        if let system = field.systemField {
            guard !field.isRequired else {
                throw RecordError(
                    .schemaViolation, "system field \(system.rawValue) always has a value and can't be declared NOT EMPTY", recordType: name, field: field.name)
            }
            guard field.type == system.type else {
                throw RecordError(
                    .schemaViolation,
                    "system field \(system.rawValue) is \(system.type), not \(field.type)",
                    recordType: name, field: field.name
                )
            }
            if self.field(named: field.name) != nil {
                throw RecordError(.schemaViolation, "\(name) declares \(field.name) twice", recordType: name, field: field.name)
            }
        } else if isCloudKitSystemType && Identifier.isCloudKitSystemName(field.name) {
            if self.field(named: field.name) != nil {
                throw RecordError(.schemaViolation, "\(name) declares \(field.name) twice", recordType: name, field: field.name)
            }
        } else {
            try Identifier.validate(field.name, as: .field)
            if let clash = userField(matchingCaseInsensitively: field.name) {
                let reason = clash.name == field.name ? "it already exists" : "it differs only in case from \(clash.name)"
                throw RecordError(.schemaViolation, "cannot add field \(name).\(field.name): \(reason)", recordType: name, field: field.name)
            }
            try FieldType.checkSupported(field.type, field: field.name, in: name)
        }
        try FieldDefinition.checkFlags(field.flags, for: field, in: name)
        fields.append(field)
    }
}

extension FieldDefinition {
    /// Throws `schemaViolation` when `flags` cannot apply to `field` (SEARCHABLE needs text,
    /// encrypted fields cannot be indexed).
    static func checkFlags(_ flags: IndexFlags, for field: FieldDefinition, in type: String) throws(RecordError) {
        if field.referencedType != nil, !field.holdsReferences {
            throw RecordError(
                .schemaViolation, "\(type).\(field.name) is \(field.type); only REFERENCE fields reference a record type", recordType: type, field: field.name)
        }
        if field.isEncrypted, !flags.isEmpty {
            throw RecordError(.schemaViolation, "\(type).\(field.name) is ENCRYPTED and cannot be indexed (\(flags))", recordType: type, field: field.name)
        }
        if flags.contains(.searchable), field.type != .string, field.type != .list(.string) {
            throw RecordError(
                .schemaViolation, "\(type).\(field.name) is \(field.type); only STRING and LIST<STRING> fields can be SEARCHABLE", recordType: type,
                field: field.name)
        }
    }
}

extension FieldType {
    /// Throws `schemaViolation` for type shapes this engine does not store (lists of lists).
    static func checkSupported(_ type: FieldType, field: String, in recordType: String) throws(RecordError) {
        if case .list(.list) = type {
            throw RecordError(.schemaViolation, "\(recordType).\(field): lists of lists are not supported", recordType: recordType, field: field)
        }
    }
}

extension SchemaChange {
    var recordTypeName: String? {
        switch self {
        case .addRole: nil
        case .addRecordType(let type): type.name
        case .removeRecordType(let type): type
        case .addField(let type, _), .addIndexFlags(let type, _, _), .addGrant(let type, _), .removeField(let type, _),
            .removeIndexFlags(let type, _, _), .changeFieldType(let type, _, _, _), .changeEncryption(let type, _, _),
            .addReferencedType(let type, _, _), .changeReferencedType(let type, _, _, _), .addUniqueConstraint(let type, _),
            .addRequired(let type, _), .removeUniqueConstraint(let type, _), .removeRequired(let type, _):
            type
        }
    }

    var fieldName: String? {
        switch self {
        case .addField(_, let field): field.name
        case .addIndexFlags(_, let field, _), .removeField(_, let field), .removeIndexFlags(_, let field, _),
            .changeFieldType(_, let field, _, _), .changeEncryption(_, let field, _), .addReferencedType(_, let field, _),
            .changeReferencedType(_, let field, _, _), .addRequired(_, let field), .removeRequired(_, let field):
            field
        default: nil
        }
    }
}
