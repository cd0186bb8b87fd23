import Foundation
import NIOHTTP1
import RecordKit
import RecordQL

/// A `shop serve` reached over HTTP (``ServerConnection``): reads and writes are GraphQL requests
/// to the database's `…/graphql`; the schema, the stored transactions and plans come from its
/// `…/schema`, `…/transactions` and `…/explain` endpoints; exports read stored values with
/// `…/records/lookup` (``RemoteBackend+Transfer.swift``), as do reads of a record whose reference
/// GraphQL resolves away (``RemoteBackend+StoredRecords.swift``).
///
/// Every write carries a fresh transaction ID (`Idempotency-Key`), so a retry after a dropped
/// connection is applied once and answered with the stored result.
///
/// An item command's look-up is answered from the lists and items the session saw last
/// (``SeenRecords``) when it can, so the command is one request: its write is sent with the
/// change tags of the records it was worked out from, and applies only while they are unchanged.
final class RemoteBackend: ShopBackend {
    let connection: ServerConnection
    private var cachedSchema: (schema: Schema, version: Int, at: ContinuousClock.Instant)?
    private var seen = SeenRecords()
    /// The command running in ``asOneUnit(_:)``, if any.
    private var unit: OptimisticUnit?

    init(connection: ServerConnection) {
        self.connection = connection
    }

    var location: String { connection.settings.url }
    var localDatabase: RecordDatabase? { nil }
    var scriptExecutor: (any TaskExecutor)? { connection.executor }

    /// How long a schema read from the server is used before it is read again: another client
    /// may add fields meanwhile.
    static let schemaLifetime = Duration.seconds(2)

    /// Checks that the server answers and accepts the credential (reading its schema).
    func connect() async throws(RecordError) {
        do {
            _ = try await freshSchema()
        } catch {
            guard error.code == .unknownItem else { throw error }
            // A URL with a path: shop serve answers at its root, so the first endpoint is not there.
            if (URL(string: connection.settings.url)?.path ?? "").count > 1 {
                throw RecordError(
                    .invalidArguments,
                    "the server at \(location) has no \(connection.settings.endpoint("schema")) (\(error.message)); shop serve answers at its root: give the address it prints, e.g. http://127.0.0.1:8080, without a path"
                )
            }
            // A server started with another --container: its /health names it.
            guard let container = await servedContainer(), container != connection.settings.container else { throw error }
            connection.settings.container = container
            _ = try await freshSchema()
        }
    }

    /// The container the server answers for, as its `/health` says; `nil` when it does not say.
    private func servedContainer() async -> String? {
        guard let response = try? await exchange(ServerRequest(method: .GET, url: connection.settings.url + "/health")),
            case .string(let container)? = (try? await json(response))?["container"]
        else { return nil }
        return container
    }

    func close() async {
        await connection.close()
    }

    func schema() async throws(RecordError) -> Schema {
        if let cachedSchema, ContinuousClock.now - cachedSchema.at < Self.schemaLifetime { return cachedSchema.schema }
        return try await freshSchema()
    }

    private func freshSchema() async throws(RecordError) -> Schema {
        let answer = try await json(try await send(.GET, "schema"))
        guard case .string(let text)? = answer["ckdb"] else {
            throw RecordError(.internalError, "the server at \(location) sent no schema; is it a shop serve?")
        }
        let version: Int = if case .number(let number)? = answer["version"] { Int(number) ?? 0 } else { 0 }
        let schema = try Schema(ckdb: text)
        cachedSchema = (schema, version, ContinuousClock.now)
        return schema
    }

    func records(matching query: Query) async throws(RecordError) -> [Record] {
        let schema = try await schema()
        let type = try schema.requireRecordType(query.recordType)
        try schema.checkSortKeys(of: query)
        var records: [Record] = []
        try await eachPage(limit: query.limit) { size, cursor throws(RecordError) in
            let (document, variables) = GraphQLRecords.page(of: query, type: type, size: size, after: cursor)
            let page = try await data(document, variables: variables)["page"] ?? .null
            let found = try await decodedRecords(in: page, key: "records", of: type)
            records += found
            return (found.count, page["cursor"])
        }
        return remembering(records)
    }

    /// The most records one page asks for: well under the server's response limit (10,000 by
    /// default), so a command lists any number of records a page at a time, as on a file.
    static let pageSize = 1_000

    /// Asks for pages of at most `pageSize` until `limit` records (all without one) came or the
    /// last page's cursor is null: `page` is given the page's size and the cursor after the last,
    /// and returns how many records its page held and the page's `cursor`.
    func eachPage(
        limit: Int?, pageSize: Int = pageSize, _ page: (Int, String?) async throws(RecordError) -> (count: Int, cursor: JSONValue?)
    ) async throws(RecordError) {
        var remaining = limit
        var cursor: String?
        repeat {
            let size = min(remaining ?? pageSize, pageSize)
            guard size > 0 else { return }
            let answer = try await page(size, cursor)
            remaining = remaining.map { $0 - answer.count }
            cursor = if case .string(let next)? = answer.cursor { next } else { nil }
        } while cursor != nil
    }

    /// `records`, remembered as seen now.
    private func remembering(_ records: [Record]) -> [Record] {
        for record in records { seen.remember(record) }
        return records
    }

    func fetch(recordNames: [String]) async throws(RecordError) -> [Record] {
        guard !recordNames.isEmpty else { return [] }
        let types = try await schema().recordTypes.filter { !$0.isCloudKitSystemType }
        let fields = types.enumerated().map { index, type in
            "t\(index): \(type.name)(where: {recordName: {in: $names}}) { \(GraphQLRecords.selection(of: type)) }"
        }
        let answer = try await data(
            "query($names: [ID!]!) { \(fields.joined(separator: " ")) }", variables: .members(["names": .array(recordNames.map(JSONValue.string))]))
        var found: [Record] = []
        for (index, type) in types.enumerated() {
            found += try await decodedRecords(in: answer, key: "t\(index)", of: type)
        }
        return remembering(found)
    }

    func count(matching query: Query) async throws(RecordError) -> Int {
        let predicate = query.predicate == .all ? nil : query.predicate.description
        let answer = try await data(
            "query($predicate: String) { result: \(query.recordType)Aggregate(predicate: $predicate) { count } }",
            variables: .members(["predicate": predicate.map(JSONValue.string) ?? .null]))
        guard case .number(let text)? = answer["result"]?["count"], let count = Int(text) else {
            throw RecordError(.internalError, "the server's answer has no count")
        }
        return count
    }

    func listSummaries() async throws(RecordError) -> [ShoppingStore.ListSummary] {
        let items = try itemsOfAList(in: try await schema())
        var summaries: [ShoppingStore.ListSummary] = []
        try await eachPage(limit: nil) { size, cursor throws(RecordError) in
            let document =
                "query($after: String) { page: ListsPage(sort: [{name: ASC}], limit: \(size), after: $after) { records { name items: \(items.aggregateName) { count } } cursor } }"
            let page = try await data(document, variables: .members(["after": cursor.map(JSONValue.string) ?? .null]))["page"]
            let found = try ShoppingStore.ListSummary.decode(page?["records"]?.text ?? "null", countKey: "items")
            summaries += found
            return (found.count, page?["cursor"])
        }
        return summaries
    }

    /// Runs `body` first on the records the session remembers: its look-ups need no request
    /// when they find what they look for there, and its write is sent with their change tags as
    /// a precondition. If that run fails having used them — a remembered record changed (its
    /// write was refused, changing nothing), or a look-up found a record that another client
    /// has changed since — `body` runs again on fresh look-ups, so the command prints what it
    /// would have printed without them. A server's transactions never span requests: the write
    /// is checked there again.
    func asOneUnit<T>(_ body: () async throws(RecordError) -> T) async throws(RecordError) -> T {
        guard unit == nil else { return try await body() }
        defer { unit = nil }
        unit = OptimisticUnit(mayUseSeen: true)
        do {
            return try await body()
        } catch {
            guard unit?.mayRunAgain == true else { throw error }
            seen.forgetAll()
            unit = OptimisticUnit(mayUseSeen: false)
            return try await body()
        }
    }

    /// The list by name and its item by name: from the remembered records inside
    /// ``asOneUnit(_:)`` when they hold the list and the item (or, `forAdding`, the schema's
    /// `UNIQUE (list, name)` would refuse a second one), else with one GraphQL query, the item
    /// nested in the list.
    func namedRecords(list: String, item: String, forAdding: Bool) async throws(RecordError) -> ShoppingStore.NamedRecords {
        if unit?.mayUseSeen == true, let remembered = try await rememberedRecords(list: list, item: item, forAdding: forAdding) { return remembered }
        let schema = try await schema()
        let listType = try schema.requireRecordType(ShoppingStore.listType)
        let itemType = try schema.requireRecordType(ShoppingStore.itemType)
        let nested = "items: \(try itemsOfAList(in: schema).name)(where: {name: {eq: $item}}, limit: 1) { \(GraphQLRecords.selection(of: itemType)) }"
        let answer = try await data(
            "query($list: String!, $item: String!) { lists: \(listType.name)(where: {name: {eq: $list}}, limit: 1) { \(GraphQLRecords.selection(of: listType)) \(nested) } }",
            variables: .members(["list": .string(list), "item": .string(item)]))
        guard let found = try await decodedRecords(in: answer, key: "lists", of: listType).first, case .array(let lists)? = answer["lists"] else {
            return ShoppingStore.NamedRecords(list: nil, item: nil)
        }
        let items = try await decodedRecords(in: lists[0], key: "items", of: itemType)
        _ = remembering([found] + items)
        return ShoppingStore.NamedRecords(list: found, item: items.first)
    }

    /// The field of a list's GraphQL object listing its items, with its aggregate beside it:
    /// `Items`, or `Items_list` once Items has another reference to Lists.
    private func itemsOfAList(in schema: Schema) throws(RecordError) -> GraphQLNameMap.Referrers {
        let referrers = GraphQLNameMap(schema)[ShoppingStore.listType]?.referrers ?? []
        guard let items = referrers.first(where: { $0.recordType == ShoppingStore.itemType && $0.field == ShoppingStore.listField }) else {
            let missing = "\(ShoppingStore.itemType) has no field \(ShoppingStore.listField) referencing \(ShoppingStore.listType)"
            throw RecordError(.schemaViolation, missing + "; the shopping commands need it", recordType: ShoppingStore.itemType)
        }
        return items
    }

    /// ``namedRecords(list:item:forAdding:)`` from the remembered records, noted in the running
    /// unit as what its write assumes; `nil` when they cannot answer.
    private func rememberedRecords(list: String, item: String, forAdding: Bool) async throws(RecordError) -> ShoppingStore.NamedRecords? {
        guard let found = seen.list(named: list) else { return nil }
        let foundItem = seen.item(named: item, inList: found.recordName)
        if foundItem == nil {
            guard forAdding, try await isUnique(ShoppingStore.itemType, by: ["list", "name"]) else { return nil }
            unit?.assumedFreeName = true
        }
        unit?.assumed += [found] + (foundItem.map { [$0] } ?? [])
        return ShoppingStore.NamedRecords(list: found, item: foundItem)
    }

    /// Whether the schema declares `UNIQUE (fields)` for `recordType`, so that a write refuses a
    /// second record with the same values of them.
    private func isUnique(_ recordType: String, by fields: Set<String>) async throws(RecordError) -> Bool {
        let rules = try await schema().recordType(named: recordType)?.uniqueConstraints ?? []
        return rules.contains { Set($0.fields) == fields }
    }

    /// Inside ``asOneUnit(_:)``, a name the remembered lists do not hold is taken to be free
    /// where the schema's `UNIQUE (name)` refuses a second list of it (the write is then refused
    /// if it was not, and the command runs again); else one query.
    func listNameIsFree(_ name: String) async throws(RecordError) -> Bool {
        if unit?.mayUseSeen == true {
            if let found = seen.list(named: name) {
                unit?.assumed.append(found)
                return false
            }
            if try await isUnique(ShoppingStore.listType, by: ["name"]) {
                unit?.assumedFreeName = true
                return true
            }
        }
        return try await records(matching: ShoppingStore.named(name, type: ShoppingStore.listType)).isEmpty
    }

    func apply(_ operation: RecordOperation) async throws(RecordError) -> OperationResult {
        let schema = try await schema()
        let unchanged = unit?.assumed ?? []
        let mutation: (document: String, variables: JSONValue)
        var deletedType: RecordType?
        if case .delete(let recordName) = operation {
            // The record's type names the delete field: a remembered record needs no look-up.
            var target = unchanged.first { $0.recordName == recordName }
            if target == nil { target = try await fetch(recordNames: [recordName]).first }
            guard let target else {
                throw RecordError(.unknownItem, "there is no record named '\(recordName)'", recordName: recordName)
            }
            mutation = GraphQLRecords.deleteMutation(recordType: target.recordType, recordName: recordName, unchanged: unchanged)
            deletedType = try schema.requireRecordType(target.recordType)
        } else {
            mutation = try GraphQLRecords.mutation(for: operation, schema: schema, unchanged: unchanged)
        }
        let body = JSONValue.members(["query": .string(mutation.document), "variables": mutation.variables])
        unit?.writeMayHaveApplied = true
        let response = try await graphQL(body, transactionID: RandomUUID.lowercased())
        let answer: JSONValue
        do {
            answer = try data(of: response)
        } catch {
            // The server refused the mutation: being one transaction, it changed nothing.
            unit?.writeMayHaveApplied = false
            throw error
        }
        if deletedType != nil {
            guard case .array(let names)? = answer["result"]?["deleted"] else {
                throw RecordError(.internalError, "the server's answer to a delete lists no deleted records")
            }
            let deleted = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            for name in deleted { seen.forget(recordName: name) }
            return .deleted(deleted)
        }
        guard let object = answer["result"], case .string(let type)? = object["recordType"] else {
            throw RecordError(.internalError, "the server's answer has no saved record")
        }
        let savedType = try schema.requireRecordType(type)
        var saved = try GraphQLRecords.record(object, of: savedType)
        if GraphQLRecords.mayHideReference(object, of: savedType) { saved = try await storedRecords(named: [saved.recordName], of: savedType).first ?? saved }
        seen.remember(saved)
        return .saved(saved)
    }

    func execute(_ document: String) async throws(RecordError) -> GraphQLResponse {
        // A mutation anywhere in the document makes it a write; the server ignores the key of a
        // query. A mutation naming its own transaction (`@transaction(id:)`) is sent under it.
        let isMutation = document.contains("mutation")
        let body = JSONValue.members(["query": .string(document)])
        let id = isMutation ? RecordQLEngine.transactionID(inDocument: document) ?? RandomUUID.lowercased() : nil
        return try await graphQL(body, transactionID: id)
    }

    func watch(_ document: String) async throws(RecordError) -> AsyncThrowingStream<GraphQLResponse, any Error> {
        let body = JSONValue.members(["query": .string(document)])
        let request = ServerRequest(method: .POST, url: connection.settings.endpoint("graphql"), body: Data(body.text.utf8))
        let events = try await connection.events(request)
        let location = self.location
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events where event.name == "next" || event.name == "error" {
                        let document = JSONValue(parsing: event.data) ?? .null
                        continuation.yield(GraphQLResponse(json: event.data, errors: ServerErrors.graphQLErrors(in: document)))
                        if event.name == "error" {
                            continuation.finish()
                            return
                        }
                    }
                    // A live query has no end of its own: the server ended it (`complete` as it
                    // stops), which the watch reports rather than ending as if asked to.
                    continuation.finish(
                        throwing: RecordError(
                            .internalError, "the server at \(location) ended the watch (it is stopping or restarting); run watch again once it answers"))
                } catch {
                    continuation.finish(throwing: RecordError(.internalError, "the server at \(location) stopped sending changes: \(error)"))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The server's `…/explain` (admin tokens) answers with its engine's plan.
    func explain(_ document: String) async throws(RecordError) -> String {
        let answer = try await json(try await send(.POST, "explain", body: .members(["query": .string(document)]), document: document))
        guard case .string(let plan)? = answer["plan"] else {
            throw RecordError(.internalError, "the server at \(location) answered explain without a plan")
        }
        return plan
    }

    func schemaDefinitionLanguage() async throws(RecordError) -> String {
        try RecordQLSchema(try await schema()).sdl
    }

    func applySchemaChanges(_ changes: [SchemaChange]) async throws(RecordError) {
        let target = try await freshSchema().applying(changes)
        _ = try await importSchema(ckdb: target.ckdb)
    }

    func importSchema(ckdb text: String) async throws(RecordError) -> [String] {
        // Parsed and checked here first, as a file does it: a syntax error with its line and
        // column, a change that is not additive as schemaViolation (the server checks again).
        let current = try await freshSchema()
        _ = try current.applying(current.changes(to: try CKDBParser.parse(text), mode: .merge))
        let answer = try await json(try await send(.POST, "schema", body: .members(["ckdb": .string(text)])))
        cachedSchema = nil
        guard case .array(let changes)? = answer["changes"] else { return [] }
        return changes.compactMap { if case .string(let change) = $0 { change } else { nil } }
    }

    func schemaHistory() async throws(RecordError) -> [SchemaHistoryRow] {
        guard case .array(let entries)? = try await json(try await send(.GET, "schema/history"))["history"] else { return [] }
        return entries.map { entry in
            SchemaHistoryRow(version: Self.int(entry["version"]), appliedAt: Self.date(entry["appliedAt"]), change: Self.string(entry["change"]))
        }
    }

    func transactions() async throws(RecordError) -> [TransactionRow] {
        guard case .array(let entries)? = try await json(try await send(.GET, "transactions"))["transactions"] else { return [] }
        return entries.map(Self.transaction).sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func transaction(id: String) async throws(RecordError) -> TransactionRow {
        Self.transaction(
            try await json(try await Self.naming(id) { () throws(RecordError) in try await self.send(.GET, "transactions/" + Self.pathSegment(id)) }))
    }

    func deleteTransaction(id: String) async throws(RecordError) {
        _ = try await Self.naming(id) { () throws(RecordError) in try await self.send(.DELETE, "transactions/" + Self.pathSegment(id)) }
    }

    // MARK: Requests

    /// Sends a request to the database's `path` and returns the answer of a 2xx status, or
    /// throws the server's error in the REPL's terms (located in `document`, the GraphQL text
    /// sent, when the error names a position in it).
    func send(_ method: HTTPMethod, _ path: String, body: JSONValue? = nil, document: String? = nil) async throws(RecordError) -> ServerResponse {
        let request = ServerRequest(method: method, url: connection.settings.endpoint(path), body: body.map { Data($0.text.utf8) })
        let response = try await exchange(request)
        guard (200..<300).contains(response.status) else {
            if let document, ![401, 403, 413, 421].contains(response.status),
                let text = String(data: response.body, encoding: .utf8), let answer = JSONValue(parsing: text),
                let first = ServerErrors.graphQLErrors(in: answer).first
            {
                throw ServerErrors.recordError(first, document: document)
            }
            throw ServerErrors.error(of: response, url: location)
        }
        return response
    }

    /// The `data` of a GraphQL request's successful response, or its first error.
    func data(_ document: String, variables: JSONValue) async throws(RecordError) -> JSONValue {
        try data(of: try await graphQL(.members(["query": .string(document), "variables": variables]), transactionID: nil))
    }

    /// The server's answer to `request` (``ServerConnection/send(_:)``). A request that got none
    /// (the server could not be reached, the retries ran out, Ctrl-C abandoned them) also ends
    /// the running ``asOneUnit(_:)``: its command is not run again.
    private func exchange(_ request: ServerRequest) async throws(RecordError) -> ServerResponse {
        do {
            return try await connection.send(request)
        } catch {
            unit?.unanswered = true
            throw error
        }
    }

    /// The `data` of a GraphQL response to a document this client wrote, or its first error as
    /// the engine would have thrown it in this process: with its remedy (which the REPL words),
    /// without a position in a text the user never saw.
    private func data(of response: GraphQLResponse) throws(RecordError) -> JSONValue {
        if let first = response.errors.first { throw ServerErrors.recordError(first) }
        guard let data = JSONValue(parsing: response.json)?["data"] else {
            throw RecordError(.internalError, "the server at \(location) answered without data")
        }
        return data
    }

    /// Posts a GraphQL request; the response as the server sent it, its errors read from it.
    func graphQL(_ body: JSONValue, transactionID: String?) async throws(RecordError) -> GraphQLResponse {
        let request = ServerRequest(method: .POST, url: connection.settings.endpoint("graphql"), body: Data(body.text.utf8), transactionID: transactionID)
        let response = try await exchange(request)
        guard let text = String(data: response.body, encoding: .utf8), let document = JSONValue(parsing: text),
            document["errors"] != nil || document["data"] != nil
        else {
            throw ServerErrors.error(of: response, url: location)
        }
        if [401, 403, 413].contains(response.status) { throw ServerErrors.error(of: response, url: location) }
        return GraphQLResponse(json: text, errors: ServerErrors.graphQLErrors(in: document), isReplay: response.isReplay)
    }

    func json(_ response: ServerResponse) async throws(RecordError) -> JSONValue {
        guard let text = String(data: response.body, encoding: .utf8), let value = JSONValue(parsing: text) else {
            throw RecordError(.internalError, "the server at \(location) answered with something that is not JSON")
        }
        return value
    }

    /// `request`'s answer; a 404 is the transaction `id` not stored, said as a file says it.
    private static func naming(_ id: String, _ request: () async throws(RecordError) -> ServerResponse) async throws(RecordError) -> ServerResponse {
        do {
            return try await request()
        } catch let error where error.code == .unknownItem {
            throw RecordDatabase.unknownTransaction(id)
        }
    }

    private static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }

    private static func transaction(_ entry: JSONValue) -> TransactionRow {
        TransactionRow(id: string(entry["id"]), createdAt: date(entry["createdAt"]), request: entry["request"] ?? .null, result: entry["response"] ?? .null)
    }

    private static func int(_ value: JSONValue?) -> Int {
        if case .number(let text)? = value { Int(text) ?? 0 } else { 0 }
    }

    private static func string(_ value: JSONValue?) -> String {
        if case .string(let text)? = value { text } else { "" }
    }

    /// Milliseconds since 1970, as the service writes times.
    private static func date(_ value: JSONValue?) -> Date {
        if case .number(let text)? = value, let milliseconds = Double(text) {
            Date(timeIntervalSince1970: milliseconds / 1000)
        } else {
            Date(timeIntervalSince1970: 0)
        }
    }
}
