import Foundation

/// datasette with the datasette-graphql plugin (both from PyPI) on loopback, serving a SQLite
/// file with the same lists and items: `items` indexed on `(list, name)` and `(name)` (each
/// index ends in the rowid, datasette's tie-break when it sorts), recordName unique.
final class DatasettePeer: LoadTarget {
    let name = "datasette-graphql"
    let folder: URL
    private let binary: String
    private let database: URL
    private(set) var server: ServerProcess?
    private(set) var baseURL = URL(fileURLWithPath: "/")

    init(folder: URL, binary: String) {
        self.folder = folder
        self.binary = binary
        database = folder.appendingPathComponent("peer.db")
    }

    static let schema = """
        CREATE TABLE lists (id TEXT PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE items (id INTEGER PRIMARY KEY, recordName TEXT NOT NULL UNIQUE, name TEXT NOT NULL, list TEXT NOT NULL, number INTEGER);
        CREATE INDEX items_list_name ON items (list, name);
        CREATE INDEX items_name ON items (name);
        """

    func load(_ dataSet: ServiceDataSet) async throws {
        let raw = try RawSQLite(path: database.path)
        try raw.execute(Self.schema)
        let insertList = try raw.prepare("INSERT INTO lists (id, name) VALUES (?, ?)")
        let insertItem = try raw.prepare("INSERT INTO items (recordName, name, list) VALUES (?, ?, ?)")
        try raw.transaction {
            for list in 0..<DataSet.listCount { try insertList.run([DataSet.listRecordName(list), DataSet.listName(list)]) }
            for item in 0..<dataSet.items {
                try insertItem.run([DataSet.itemRecordName(item), DataSet.itemName(item), DataSet.listRecordName(DataSet.list(of: item))])
            }
        }
        try raw.execute("ANALYZE")
    }

    func start() async throws -> Double {
        let started = ContinuousClock.now
        let port = try ServerProcess.freePort()
        baseURL = try URL(string: "http://127.0.0.1:\(port)").unwrapped("datasette's address")
        server = try ServerProcess(
            name, program: binary, arguments: ["serve", database.path, "--host", "127.0.0.1", "--port", "\(port)"],
            log: folder.appendingPathComponent("datasette.log")
        )
        return try await LoopbackHTTP.waitUntilAnswered(since: started, timeout: 60) { try await self.send(list: DataSet.listRecordName(7)) }
    }

    func stop() {
        server?.stop()
        server = nil
    }

    /// `POST /graphql/peer`: `items(filter: {list: {eq: …}}, sort: name, first: 50)`.
    var canonicalQuery: Wrk.Request {
        let query = "{ items(filter: {list: {eq: \\\"{list}\\\"}}, sort: name, first: \(CanonicalQuery.limit)) { nodes { recordName name list number } } }"
        return Wrk.Request(
            method: "POST", path: "/graphql/peer", headers: ["Content-Type": "application/json"],
            body: "{\"query\":\"\(query)\"}", lists: ServiceDataSet.listRecordNames
        )
    }

    func checkAnswers() async throws {
        struct Answer: Decodable {
            struct Data: Decodable { var items: Connection }
            struct Connection: Decodable { var nodes: [Item] }
            struct Item: Decodable { var list: String; var name: String }
            var data: Data
        }
        let list = DataSet.listRecordName(7)
        let items = try JSONDecoder().decode(Answer.self, from: try await send(list: list).body).data.items.nodes
        try verify(items.count == CanonicalQuery.limit && items.allSatisfy { $0.list == list }, "datasette-graphql answers 50 items of the list")
        try verify(items.map(\.name) == items.map(\.name).sorted(), "datasette-graphql answers the items by name")
    }

    private func send(list: String) async throws -> LoopbackHTTP.Response {
        let request = canonicalQuery
        return try await LoopbackHTTP.expectOK(
            "POST", try baseURL.withPath(request.path), headers: request.headers, body: request.body?.replacingOccurrences(of: "{list}", with: list))
    }
}
