import RecordKit
import RecordQL

extension RecordError.Remedy {
    /// The REPL's words for the remedy: the command to run, or the flag to pass.
    var advice: String {
        switch self {
        case .addField(let recordType, let field, let type): "add it with: schema add-field \(recordType) \(field) \(type ?? "<TYPE>")"
        case .addRecordType(let recordType): "add it with: schema add-type \(recordType)"
        case .addFieldsTo(let recordType): "add fields to it with: schema add-field \(recordType) FIELD TYPE"
        case .chooseAnotherDatabase: "pass another --db path"
        case .createFolderOrChooseAnotherDatabase: "create it or pass another --db path"
        case .useNewerVersionOrChooseAnotherDatabase: "open it with that version, or pass another --db path"
        case .listTransactions: "list them with: transactions"
        case .fetchChangesFromStart: "fetch the changes again from the start, without a token"
        case .createZone: "create the zone first (shop serve's zones/modify)"
        }
    }
}

/// An error the REPL prints with the advice of its remedy: a ``RecordError`` or one error of a
/// GraphQL response.
protocol AdvisedError: CustomStringConvertible {
    var message: String { get set }
    var remedy: RecordError.Remedy? { get }
}

extension AdvisedError {
    /// The message followed by the remedy in the REPL's words: the sentence the REPL prints.
    var sentence: String { remedy.map { message + "; " + $0.advice } ?? message }

    /// `code: [line:column: ]sentence`, what the REPL prints after `error: `.
    var shownDescription: String {
        var shown = self
        shown.message = sentence
        return shown.description
    }
}

extension RecordError: AdvisedError {
    /// What the REPL prints after `error: ` for any failure: a ``RecordError`` as
    /// ``shownDescription``, anything else as it describes itself.
    static func shownDescription(of error: any Error) -> String {
        (error as? RecordError)?.shownDescription ?? "\(error)"
    }
}

extension GraphQLResponseError: AdvisedError {}
