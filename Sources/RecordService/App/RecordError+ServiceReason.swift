import RecordKit

extension RecordError {
    /// The `reason` a service client reads: what was wrong, then what to do in the service's
    /// terms (which environment to write in, which endpoint to call), never a REPL command.
    var serviceReason: String {
        guard let remedy else { return message }
        return message + "; " + remedy.serviceAdvice
    }
}

extension RecordError.Remedy {
    /// The remedy in the words of a CloudKit Web Services or GraphQL client. As in CloudKit, the
    /// schema grows in the development environment, from writes, and reaches production by a
    /// deployment.
    var serviceAdvice: String {
        switch self {
        case .addField(let recordType, let field, _):
            "write a value of '\(field)' on a \(recordType) record in the development environment to add the field, "
                + "then deploy the schema to production"
        case .addRecordType(let recordType):
            "save a record of type \(recordType) in the development environment to add the type, then deploy the schema to production"
        case .addFieldsTo(let recordType):
            "\(recordType) exists; write the new fields on a \(recordType) record in the development environment to add them"
        case .chooseAnotherDatabase, .createFolderOrChooseAnotherDatabase, .useNewerVersionOrChooseAnotherDatabase:
            "the service's data folder needs its operator's attention (see the service's log)"
        case .listTransactions:
            "list the stored transactions with GET …/transactions"
        case .fetchChangesFromStart:
            "fetch the changes again without a syncToken (GraphQL: without since) to rebuild the copy"
        case .createZone:
            "create it with zones/modify"
        }
    }
}
