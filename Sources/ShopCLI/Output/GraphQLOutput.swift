import Foundation
import RecordKit
import RecordQL

/// Runs GraphQL documents for a session and prints their responses: as tables
/// (``ResponseTable``) by default, as the response's one-line JSON, byte for byte, with `--json`.
enum GraphQLOutput {
    /// Executes `document`, prints the response, and throws the response's errors, if any, so
    /// that a failing query fails its command.
    static func run(_ document: String, in session: ShopSession) async throws(RecordError) {
        let response = await session.queryEngine.execute(document)
        let failure = failure(in: response.json)
        if session.printsJSON {
            session.console.print(response.json)
        } else if failure == nil || hasData(response.json) {
            session.console.print(ResponseTable.render(response))
        }
        if let failure { throw failure }
    }

    /// The errors of a GraphQL response as one ``RecordError``: the first error's code (from
    /// `extensions.code`), every message.
    static func failure(in json: String) -> RecordError? {
        guard let errors = object(json)?["errors"] as? [[String: Any]], !errors.isEmpty else { return nil }
        let messages = errors.map { error in
            let message = error["message"] as? String ?? "the query failed"
            guard let location = (error["locations"] as? [[String: Any]])?.first,
                  let line = location["line"] as? Int, let column = location["column"] as? Int
            else { return message }
            return "\(message) (at \(line):\(column))"
        }
        let code = (errors.first?["extensions"] as? [String: Any])?["code"] as? String
        return RecordError(code.flatMap(RecordError.Code.init(rawValue:)) ?? .invalidArguments, messages.joined(separator: "; "))
    }

    private static func hasData(_ json: String) -> Bool {
        guard let data = object(json)?["data"] else { return false }
        return !(data is NSNull)
    }

    private static func object(_ json: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
    }
}
