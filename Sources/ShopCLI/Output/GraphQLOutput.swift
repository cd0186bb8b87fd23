import RecordKit
import RecordQL

/// Runs GraphQL documents for a session and prints their responses: as tables
/// (``ResponseTable``) by default, as the response's one-line JSON, byte for byte, with `--json`.
enum GraphQLOutput {
    /// Executes `document`, prints the response, and throws the response's errors, if any, so
    /// that a failing query fails its command. (A failed response has no data to tabulate:
    /// RecordQL answers all of a request or none of it.)
    static func run(_ document: String, in session: ShopSession) async throws(RecordError) {
        let response = try await session.backend.execute(document)
        if session.printsJSON {
            session.console.print(response.json)
        } else if response.isSuccess {
            session.display(ResponseTable.render(response, style: session.style))
        }
        if let failure = failure(of: response) { throw failure }
    }

    /// The errors of a response as one ``RecordError``: the first error's code, every message
    /// with its position in the document.
    static func failure(of response: GraphQLResponse) -> RecordError? {
        guard let first = response.errors.first else { return nil }
        let messages = response.errors.map { error in
            error.locations.first.map { "\(error.sentence) (at \($0.line):\($0.column))" } ?? error.sentence
        }
        return RecordError(first.code, messages.joined(separator: "; "))
    }
}
