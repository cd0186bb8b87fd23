import Foundation
import NIOHTTP1
import RecordKit
import RecordQL

/// What `import`, `export` and `explain items` need of a server.
extension RemoteBackend {
    /// Page by page: each page's recordNames from the query-language's `TPage` (the query's
    /// predicate and order, the engine's cursor), then their stored values from
    /// `records/lookup`, whose CloudKit JSON keeps what GraphQL resolves away (a reference's
    /// action, a reference to a record that is gone), and the content of the page's assets from
    /// `asset(sha256:)`. Each page is read at its own moment: a record another client changes
    /// meanwhile is exported as it is when its page is read.
    func forEachRecord(matching query: Query, _ body: (Record, AssetContent) throws -> Void) async throws(RecordError) {
        let type = try await schema().requireRecordType(query.recordType)
        var arguments = ["predicate: $predicate", "after: $after"]
        if !query.sort.isEmpty {
            arguments.append("sort: [" + query.sort.map { "{\($0.key): \($0.ascending ? "ASC" : "DESC")}" }.joined(separator: ", ") + "]")
        }
        try await eachPage(limit: query.limit, pageSize: Self.lookupSize) { size, cursor throws(RecordError) in
            let document =
                "query($predicate: String, $after: String) { page: \(query.recordType)Page(\((arguments + ["limit: \(size)"]).joined(separator: ", "))) { records { recordName } cursor } }"
            let variables = JSONValue.members([
                "predicate": query.predicate == .all ? JSONValue.null : JSONValue.string(query.predicate.description),
                "after": cursor.map(JSONValue.string) ?? JSONValue.null,
            ])
            let page = try await data(document, variables: variables)["page"]
            guard case .array(let entries)? = page?["records"] else {
                throw RecordError(.internalError, "the server's answer has no page of \(type.name) records")
            }
            let names = entries.compactMap { entry -> String? in if case .string(let name)? = entry["recordName"] { name } else { nil } }
            let records = try await storedRecords(named: names, of: type)
            let contents = try await assetContents(of: records)
            do {
                for record in records {
                    try body(record) { sha256 in contents[sha256] }
                }
            } catch {
                throw RecordError(wrapping: error)
            }
            return (names.count, page?["cursor"])
        }
    }

    /// The content of every asset `records` hold, by SHA-256, in one query.
    private func assetContents(of records: [Record]) async throws(RecordError) -> [String: Data] {
        var hashes: [String] = []
        func collect(_ value: Value) {
            switch value {
            case .asset(let asset): if !hashes.contains(asset.sha256) { hashes.append(asset.sha256) }
            case .list(let values): values.forEach(collect)
            default: break
            }
        }
        records.forEach { $0.fields.values.forEach(collect) }
        guard !hashes.isEmpty else { return [:] }
        let fields = hashes.indices.map { "a\($0): asset(sha256: $a\($0))" }.joined(separator: " ")
        let declarations = hashes.indices.map { "$a\($0): String!" }.joined(separator: ", ")
        let answer = try await data(
            "query(\(declarations)) { \(fields) }",
            variables: .object(hashes.enumerated().map { JSONValue.Member(key: "a\($0.offset)", value: .string($0.element)) }))
        var contents: [String: Data] = [:]
        for (index, sha256) in hashes.enumerated() {
            if case .string(let base64)? = answer["a\(index)"], let content = Data(base64Encoded: base64) { contents[sha256] = content }
        }
        return contents
    }

    /// One `createManyT` mutation sent with a fresh transaction ID: the whole file in one
    /// request, which the server applies in one transaction, all or none, and once however
    /// often a dropped connection makes the client send it again. The record that fails is
    /// named by its index in the error's path, which gives its line.
    ///
    /// The server's answer lists every record created, and an answer holds at most
    /// ``RecordQLEngine/defaultMaximumResponseRecords`` records: a larger file is refused before
    /// anything is sent.
    func importRecords(_ file: ImportFile, progress: inout ProgressBar) async throws(RecordError) -> Int {
        var records: [JSONValue] = []
        var lines: [Int] = []
        let limit = RecordQLEngine.defaultMaximumResponseRecords
        try file.forEachRow(progress: &progress) { row in
            guard records.count < limit else {
                throw RecordError(
                    .limitExceeded,
                    "\(file.path) has more than \(limit) rows; through a server an import is one request, all or none, and a request creates at most \(limit) records: split the file into parts of up to \(limit) rows (each part is then a transaction of its own), or import it on the server's machine with --db",
                    recordType: file.recordType.name)
            }
            records.append(.members(["recordName": .string(row.record.recordName), "fields": row.fields]))
            lines.append(row.line)
        }
        guard !records.isEmpty else { return 0 }
        let type = file.recordType.name
        let document = "mutation($records: [\(type)Create!]!) { result: createMany\(type)(records: $records) { recordName } }"
        let response = try await graphQL(
            .members(["query": .string(document), "variables": .members(["records": .array(records)])]), transactionID: RandomUUID.lowercased())
        if let error = response.errors.first {
            guard error.path.count == 2, case .index(let index) = error.path[1], lines.indices.contains(index) else {
                throw GraphQLOutput.failure(of: response) ?? ServerErrors.recordError(error)
            }
            throw file.located(ServerErrors.recordError(error), line: lines[index])
        }
        guard case .array(let created)? = JSONValue(parsing: response.json)?["data"]?["result"] else {
            throw RecordError(.internalError, "the server at \(location) answered the import without the records it created")
        }
        return created.count
    }

    /// The server's `…/explain` (admin tokens) with the query's record type, predicate (NSPredicate
    /// format), sort and limit.
    func explain(_ query: Query) async throws(RecordError) -> QueryExplanation {
        var members: [JSONValue.Member] = [JSONValue.Member(key: "recordType", value: .string(query.recordType))]
        if query.predicate != .all { members.append(JSONValue.Member(key: "predicate", value: .string(query.predicate.description))) }
        if !query.sort.isEmpty {
            let keys = query.sort.map { JSONValue.members(["field": .string($0.key), "ascending": .bool($0.ascending)]) }
            members.append(JSONValue.Member(key: "sort", value: .array(keys)))
        }
        if let limit = query.limit { members.append(JSONValue.Member(key: "limit", value: .number(String(limit)))) }
        let answer = try await json(try await send(.POST, "explain", body: .object(members)))
        guard case .string(let sql)? = answer["sql"], case .array(let lines)? = answer["plan"] else {
            throw RecordError(.internalError, "the server at \(location) answered explain without SQL and a plan")
        }
        return QueryExplanation(sql: sql, plan: lines.compactMap { if case .string(let line) = $0 { line } else { nil } })
    }
}
