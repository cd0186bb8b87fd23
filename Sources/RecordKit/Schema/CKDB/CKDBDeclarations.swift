/// What a CKDB text declares, kept as it is parsed: the record types' names and each type's
/// fields (``CKDBNameSet``s, which refuse a second declaration), so that a refusal naming one of
/// them can point at its line (``CKDBParser/location(ofRecordType:field:in:)``).
struct CKDBDeclarations {
    var recordTypes = CKDBNameSet(of: "record type")
    /// The fields of each record type, by the type's lowercased name.
    var fields: [String: CKDBNameSet] = [:]

    /// The declaration of `field` of `recordType`, or of the record type when there is no field
    /// or the type does not declare it.
    func token(ofRecordType recordType: String, field: String?) -> CKDBToken? {
        field.flatMap { fields[recordType.lowercased()]?.token(of: $0) } ?? recordTypes.token(of: recordType)
    }
}
