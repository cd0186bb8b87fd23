/// Where a CKDB text declares each record type and field, recorded as it is parsed, so that a
/// refusal naming one of them can point at its line (``CKDBParser/location(ofRecordType:field:in:)``).
/// Keys are lowercased: CKDB names are compared ignoring case (``CKDBNameSet``).
struct CKDBDeclarations {
    struct FieldKey: Hashable {
        var recordType: String
        var field: String
    }

    /// The name token of each `RECORD TYPE`, by lowercased name.
    var recordTypes: [String: CKDBToken] = [:]
    /// The name token of each field declaration, by lowercased record type and field.
    var fields: [FieldKey: CKDBToken] = [:]

    /// The declaration of `field` of `recordType`, or of the record type without a field.
    func token(ofRecordType recordType: String, field: String?) -> CKDBToken? {
        guard let field else { return recordTypes[recordType.lowercased()] }
        return fields[FieldKey(recordType: recordType.lowercased(), field: field.lowercased())]
    }
}
