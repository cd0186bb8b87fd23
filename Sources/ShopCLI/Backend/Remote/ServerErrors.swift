import Foundation
import RecordKit
import RecordQL

/// The server's refusals in the REPL's terms: a GraphQL error's `extensions.code` is one of
/// RecordKit's codes already; a CloudKit-shaped `{"serverErrorCode","reason"}` is mapped back to
/// the code the engine raised; a refused credential says how to pass one.
enum ServerErrors {
    /// The errors of a GraphQL response document.
    static func graphQLErrors(in document: JSONValue) -> [GraphQLResponseError] {
        guard case .array(let entries)? = document["errors"] else { return [] }
        return entries.map { entry in
            let message: String = if case .string(let text)? = entry["message"] { text } else { "the server reported an error" }
            let code: RecordError.Code =
                if case .string(let text)? = entry["extensions"]?["code"] { RecordError.Code(rawValue: text) ?? cloudKitCode(text) } else { .internalError }
            var locations: [GraphQLResponseError.Location] = []
            if case .array(let items)? = entry["locations"] {
                for item in items {
                    if case .number(let line)? = item["line"], case .number(let column)? = item["column"], let line = Int(line), let column = Int(column) {
                        locations.append(GraphQLResponseError.Location(line: line, column: column))
                    }
                }
            }
            var path: [GraphQLResponseError.PathElement] = []
            if case .array(let steps)? = entry["path"] {
                for step in steps {
                    switch step {
                    case .string(let key): path.append(.key(key))
                    case .number(let text): if let index = Int(text) { path.append(.index(index)) }
                    default: break
                    }
                }
            }
            let reason: RecordError.Reason? = if case .string(let text)? = entry["extensions"]?["reason"] { RecordError.Reason(rawValue: text) } else { nil }
            return GraphQLResponseError(code, message, locations: locations, path: path, reason: reason, remedy: remedy(entry["extensions"]?["remedy"]))
        }
    }

    /// The engine's error behind one GraphQL error, located in `document` (the text sent) when
    /// the error names a position in it: what the engine would have thrown in this process.
    static func recordError(_ error: GraphQLResponseError, document: String? = nil) -> RecordError {
        let location = error.locations.first.map { position -> SourceLocation in
            let lines = document?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
            let text = lines.indices.contains(position.line - 1) ? String(lines[position.line - 1]) : ""
            return SourceLocation(line: position.line, column: position.column, lineText: text)
        }
        return RecordError(error.code, error.message, location: document == nil ? nil : location, reason: error.reason, remedy: error.remedy)
    }

    /// A remedy as RecordQL writes it, `{"kind":"addField","recordType":…,"field":…,"type":…}`.
    static func remedy(_ json: JSONValue?) -> RecordError.Remedy? {
        guard let json, case .string(let kind)? = json["kind"] else { return nil }
        func text(_ key: String) -> String? { if case .string(let value)? = json[key] { value } else { nil } }
        switch kind {
        case "addField":
            guard let recordType = text("recordType"), let field = text("field") else { return nil }
            return .addField(recordType: recordType, field: field, type: text("type"))
        case "addRecordType": return text("recordType").map(RecordError.Remedy.addRecordType)
        case "addFieldsTo": return text("recordType").map { .addFieldsTo(recordType: $0) }
        case "chooseAnotherDatabase": return .chooseAnotherDatabase
        case "createFolderOrChooseAnotherDatabase": return .createFolderOrChooseAnotherDatabase
        case "useNewerVersionOrChooseAnotherDatabase": return .useNewerVersionOrChooseAnotherDatabase
        case "listTransactions": return .listTransactions
        case "fetchChangesFromStart": return .fetchChangesFromStart
        default: return nil
        }
    }

    /// The error a non-2xx answer carries.
    static func error(of response: ServerResponse, url: String) -> RecordError {
        let document = String(data: response.body, encoding: .utf8).flatMap(JSONValue.init(parsing:))
        let serverCode: String? = if case .string(let code)? = document?["serverErrorCode"] { code } else { nil }
        let reason: String? =
            if case .string(let text)? = document?["reason"] { text } else { graphQLErrors(in: document ?? .null).first?.message }
        switch response.status {
        case 401, 421:
            return RecordError(
                .invalidArguments,
                "the server at \(url) refused the credential (\(reason ?? "no token")); pass a token with --token, $SHOP_TOKEN or the token file, made on the server with: shop token create --admin"
            )
        case 413:
            return RecordError(
                .limitExceeded,
                "the server at \(url) takes no request this large (\(reason ?? "413")); send less at once: split an import's file into smaller files, or import on the server's machine with --db"
            )
        case 403:
            return RecordError(
                .invalidArguments,
                "the server at \(url) does not let this token do that (\(reason ?? "access denied")); use a token made with: shop token create --admin")
        default:
            if let first = document.map(graphQLErrors(in:))?.first, serverCode == nil {
                return RecordError(first.code, first.message)
            }
            guard let reason else {
                guard document == nil, let gist = gist(ofText: response.body) else {
                    return RecordError(.internalError, "the server at \(url) answered \(response.status) without saying why; see its log")
                }
                // Another server's page (a proxy's, or a TLS server's answer to plain HTTP).
                let remedy =
                    !ServerSettings.isSecure(url) && gist.localizedCaseInsensitiveContains("https")
                    ? "use \(ServerSettings.otherScheme(of: url))" : "see its log"
                return RecordError(.internalError, "the server at \(url) answered \(response.status) (\(gist)); \(remedy)")
            }
            return RecordError(serverCode.map(cloudKitCode) ?? .internalError, reason)
        }
    }

    /// What an answer that is not JSON says — a proxy's page, or a TLS server's answer to plain
    /// HTTP ("Client sent an HTTP request to an HTTPS server.") — as one line: an HTML page's
    /// title, else the first line of text, at most ``gistLength`` characters; `nil` when it has
    /// neither.
    static func gist(ofText body: Data) -> String? {
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        var gist: Substring
        if let open = text.range(of: "<title>", options: .caseInsensitive),
            let close = text.range(of: "</title>", options: .caseInsensitive, range: open.upperBound..<text.endIndex)
        {
            gist = text[open.upperBound..<close.lowerBound]
        } else {
            guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }), !line.hasPrefix("<") else {
                return nil
            }
            gist = line
        }
        let words = gist.split { $0.isWhitespace || $0.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control } }
        guard !words.isEmpty else { return nil }
        let line = words.joined(separator: " ")
        return line.count > gistLength ? String(line.prefix(gistLength - 1)) + "…" : line
    }

    /// The most characters of another server's page ``gist(ofText:)`` keeps.
    static let gistLength = 200

    /// The engine's code behind a CloudKit `serverErrorCode` (the service maps the other way).
    static func cloudKitCode(_ code: String) -> RecordError.Code {
        switch code {
        case "NOT_FOUND", "ZONE_NOT_FOUND": .unknownItem
        case "CONFLICT", "EXISTS": .serverRecordChanged
        case "VALIDATING_REFERENCE_ERROR": .referenceViolation
        case "QUOTA_EXCEEDED", "THROTTLED": .limitExceeded
        case "BAD_REQUEST", "ACCESS_DENIED", "AUTHENTICATION_FAILED", "AUTHENTICATION_REQUIRED": .invalidArguments
        default: .internalError
        }
    }
}
