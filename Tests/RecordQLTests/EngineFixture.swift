import Foundation
import GraphQL
import RecordKit
import Synchronization
import TestSupport
import Testing

@testable import RecordQL

/// An engine over a fresh in-memory database (the shopping schema unless told otherwise) that
/// records the SQL statements it executes, so a test can assert "one query, not N".
final class EngineFixture: Sendable {
    let database: RecordDatabase
    let engine: RecordQLEngine
    private let log: StatementLog

    init(bootstrap: Schema? = nil) throws {
        let log = StatementLog()
        self.log = log
        database = try RecordDatabase.inMemory(bootstrap: bootstrap ?? Schema.shopping, trace: { log.append($0) })
        engine = RecordQLEngine(database: database)
    }

    /// The response to `document`.
    func run(_ document: String, variables: [String: Map] = [:], operationName: String? = nil) async -> GraphQLResponse {
        await engine.execute(document, variables: variables, operationName: operationName)
    }

    /// The response JSON of `document`, which must succeed.
    func data(_ document: String, variables: [String: Map] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation) async -> String {
        let response = await run(document, variables: variables)
        #expect(response.isSuccess, "\(response.json)", sourceLocation: sourceLocation)
        return response.json
    }

    /// The single error of `document`, which must fail.
    func error(
        _ document: String, variables: [String: Map] = [:], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> GraphQLResponseError {
        let response = await run(document, variables: variables)
        #expect(response.errors.count == 1, "\(response.json)", sourceLocation: sourceLocation)
        return try #require(response.errors.first, sourceLocation: sourceLocation)
    }

    /// The statements reading or writing data (not transaction control or pragmas) executed by `body`.
    func dataStatements(during body: () async throws -> Void) async rethrows -> [String] {
        log.reset()
        try await body()
        return log.statements.filter { statement in
            let head = statement.drop(while: \.isWhitespace).prefix(6).uppercased()
            return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains { head.hasPrefix($0) }
        }
    }

    /// A list and its items, with the recordNames given.
    func createList(_ recordName: String, _ name: String, items: [(recordName: String, name: String)]) async {
        var fields = ["l: createLists(recordName: \"\(recordName)\", fields: {name: \"\(name)\"}) { recordName }"]
        for (index, item) in items.enumerated() {
            fields.append(
                "i\(index): createItems(recordName: \"\(item.recordName)\", fields: {name: \"\(item.name)\", list: {recordName: \"\(recordName)\", action: DELETE_SELF}}) { recordName }"
            )
        }
        _ = await data("mutation { \(fields.joined(separator: " ")) }")
    }
}
