import Foundation
import RecordKit
import ShopCLI

/// The release `shop serve` on loopback over a data folder holding the benchmark's lists and
/// items (filled through the engine's own bulk path, `modify`), with an `--admin` token.
final class ShopService: LoadTarget {
    let name = "shop serve"
    let folder: URL
    let data: URL
    private let shop: Program
    private(set) var token = ""
    private(set) var server: ServerProcess?
    private(set) var baseURL = URL(fileURLWithPath: "/")

    /// The container `shop serve` serves by default.
    static let container = "iCloud.shop"

    init(folder: URL) throws {
        self.folder = folder
        data = folder.appendingPathComponent("shop-data")
        shop = try Program.built("shop")
    }

    /// The data folder's public database, filled as the engine rows fill theirs.
    var databasePath: String { data.appendingPathComponent("shop.sqlite").path }

    func load(_ dataSet: ServiceDataSet) throws {
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let database = try RecordDatabase(path: databasePath, bootstrap: try ShoppingLists.schema)
        try database.addField(FieldDefinition("number", .int64), to: "Items")
        try DataSet.fillEngine(database, items: 0..<dataSet.items)
        token = try shop.output(["token", "create", "--admin", "--data", self.data.path], in: folder)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try verify(token.count == 64, "shop token create printed a token")
    }

    func start() async throws -> Double {
        let started = ContinuousClock.now
        let server = try ServerProcess(
            name, program: shop.path, arguments: ["serve", "--data", data.path, "--host", "127.0.0.1", "--port", "0"],
            log: folder.appendingPathComponent("shop-serve.log"), readsOutput: true
        )
        self.server = server
        let line = try server.readLine(timeout: 30)
        let prefix = "shop serve: listening on "
        guard line.hasPrefix(prefix), let url = URL(string: String(line.dropFirst(prefix.count))), url.host == "127.0.0.1" else {
            throw BenchError("shop serve printed '\(line)' instead of 'shop serve: listening on http://127.0.0.1:PORT'")
        }
        baseURL = url
        return try await LoopbackHTTP.waitUntilAnswered(since: started, timeout: 30) {
            try await self.send(self.canonicalQuery, list: DataSet.listRecordName(7))
        }
    }

    func stop() {
        server?.stop()
        server = nil
    }

    private var headers: [String: String] {
        ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
    }

    /// The canonical query through `POST /graphql`.
    var canonicalQuery: Wrk.Request {
        let document = CanonicalQuery.document(list: "{list}").replacingOccurrences(of: "\"", with: "\\\"")
        return Wrk.Request(
            method: "POST", path: "/graphql", headers: headers.merging(["Accept": "application/graphql-response+json"]) { $1 },
            body: "{\"query\":\"\(document)\"}", lists: ServiceDataSet.listRecordNames
        )
    }

    private func databasePath(_ endpoint: String) -> String {
        "/database/1/\(Self.container)/development/public/\(endpoint)"
    }

    /// The same through CloudKit Web Services' `records/query`, as CloudKit JS sends it.
    var recordsQuery: Wrk.Request {
        let body = """
            {"query":{"recordType":"Items","filterBy":[{"comparator":"EQUALS","fieldName":"list","fieldValue":{"value":{"recordName":"{list}"}}}],\
            "sortBy":[{"fieldName":"name","ascending":true}]},"resultsLimit":\(CanonicalQuery.limit)}
            """
        return Wrk.Request(method: "POST", path: databasePath("records/query"), headers: headers, body: body, lists: ServiceDataSet.listRecordNames)
    }

    /// `records/modify` creating `count` items in one request, each with a new recordName and a
    /// name new in its list (Items declares `UNIQUE (list, name)`).
    func recordsModify(creates count: Int) -> Wrk.Request {
        let operations = (0..<count).map { index in
            """
            {"operationType":"create","record":{"recordName":"w{seq}-\(index)","recordType":"Items","fields":\
            {"name":{"value":"\(DataSet.itemName(index)) w{seq}"},"list":{"value":{"recordName":"{list}","action":"DELETE_SELF"}}}}}
            """
        }
        let body = "{\"operations\":[\(operations.joined(separator: ","))],\"atomic\":true}"
        return Wrk.Request(method: "POST", path: databasePath("records/modify"), headers: headers, body: body, lists: ServiceDataSet.listRecordNames)
    }

    /// A GraphQL mutation creating `count` items: `count` aliased `createItems` fields, or (the
    /// list form) one `createManyItems(records:)` with the records as a variable. New
    /// recordNames and names each request, as for ``recordsModify(creates:)``.
    func graphQLCreates(_ count: Int, listForm: Bool) -> Wrk.Request {
        let body: String
        if listForm {
            let records = (0..<count).map { index in
                """
                {"recordName":"m{seq}-\(index)","fields":{"name":"\(DataSet.itemName(index)) m{seq}","list":{"recordName":"{list}","action":"DELETE_SELF"}}}
                """
            }
            body = """
                {"query":"mutation($records: [ItemsCreate!]!) { createManyItems(records: $records) { recordName } }",\
                "variables":{"records":[\(records.joined(separator: ","))]}}
                """
        } else {
            let fields = (0..<count).map { index in
                """
                i\(index): createItems(recordName: \\"g{seq}-\(index)\\", fields: {name: \\"\(DataSet.itemName(index)) g{seq}\\", \
                list: {recordName: \\"{list}\\", action: DELETE_SELF}}) { recordName }
                """
            }
            body = "{\"query\":\"mutation { \(fields.joined(separator: " ")) }\"}"
        }
        return Wrk.Request(method: "POST", path: "/graphql", headers: headers, body: body, lists: ServiceDataSet.listRecordNames)
    }

    /// Checks the canonical query answers the list's first 50 items by name, in both spellings.
    func checkAnswers() async throws {
        let list = DataSet.listRecordName(7)
        let graphQL = try await send(canonicalQuery, list: list)
        let items = try ResponseData<[CanonicalQuery.Row]>.decode(json: graphQL.text)["Items"] ?? []
        try verify(items.count == CanonicalQuery.limit && items.allSatisfy { $0.list == list }, "POST /graphql answers 50 items of the list")
        try verify(items.map { $0.name ?? "" } == items.map { $0.name ?? "" }.sorted(), "POST /graphql answers the items by name")
        struct Page: Decodable {
            struct Record: Decodable { var recordName: String }
            var records: [Record]
        }
        let page = try JSONDecoder().decode(Page.self, from: try await send(recordsQuery, list: list).body)
        try verify(page.records.map(\.recordName) == items.compactMap(\.recordName), "records/query answers the same items as /graphql")
    }

    /// Checks one request of each write load creates its records: a GraphQL mutation's field
    /// errors come with status 200, which `wrk` would count as answered.
    func checkWrites(_ requests: [Wrk.Request]) async throws {
        struct Answer: Decodable {
            struct Record: Decodable { var serverErrorCode: String? }
            var errors: [JSONValueSkipper]?
            var records: [Record]?
        }
        for (number, request) in requests.enumerated() {
            let response = try await send(request, list: DataSet.listRecordName(7), seq: "check\(number)")
            let answer = try JSONDecoder().decode(Answer.self, from: response.body)
            try verify(
                answer.errors == nil && answer.records?.allSatisfy { $0.serverErrorCode == nil } != false,
                "\(request.path) creates the records: \(response.text.prefix(300))")
        }
    }

    /// A POST of `body` to `endpoint` of the public database (`records/changes`), requiring a
    /// 2xx answer.
    func send(path endpoint: String, body: String) async throws -> LoopbackHTTP.Response {
        try await LoopbackHTTP.expectOK("POST", try baseURL.withPath(databasePath(endpoint)), headers: headers, body: body)
    }

    /// One request of `request`'s kind for `list`, requiring a 2xx answer.
    func send(_ request: Wrk.Request, list: String, seq: String = "0") async throws -> LoopbackHTTP.Response {
        let body = request.body?.replacingOccurrences(of: "{list}", with: list).replacingOccurrences(of: "{seq}", with: seq)
        return try await LoopbackHTTP.expectOK(request.method, try baseURL.withPath(request.path), headers: request.headers, body: body)
    }
}

/// Any JSON value, not read (to tell that a key such as `errors` is there).
struct JSONValueSkipper: Decodable {
    init(from decoder: any Decoder) throws {}
}
