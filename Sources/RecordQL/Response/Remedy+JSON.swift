import RecordKit

extension RecordError.Remedy {
    /// The remedy as a JSON object, for a client to act on: its `kind` (the case's name) and the
    /// names it needs, e.g. `{"kind":"addField","recordType":"Items","field":"number","type":"INT64"}`
    /// (`type` only when it can be told).
    var json: String {
        let members: [(String, String)] =
            switch self {
            case .addField(let recordType, let field, let type):
                [("kind", "addField"), ("recordType", recordType), ("field", field)] + (type.map { [("type", $0)] } ?? [])
            case .addRecordType(let recordType): [("kind", "addRecordType"), ("recordType", recordType)]
            case .addFieldsTo(let recordType): [("kind", "addFieldsTo"), ("recordType", recordType)]
            case .chooseAnotherDatabase: [("kind", "chooseAnotherDatabase")]
            case .createFolderOrChooseAnotherDatabase: [("kind", "createFolderOrChooseAnotherDatabase")]
            case .useNewerVersionOrChooseAnotherDatabase: [("kind", "useNewerVersionOrChooseAnotherDatabase")]
            case .listTransactions: [("kind", "listTransactions")]
            case .fetchChangesFromStart: [("kind", "fetchChangesFromStart")]
            case .createZone(let zone): [("kind", "createZone"), ("zoneName", zone)]
            }
        return "{" + members.map { JSONWriter.string($0.0) + ":" + JSONWriter.string($0.1) }.joined(separator: ",") + "}"
    }
}
