import Foundation
import RecordKit
import RecordQL

/// The workloads through the query language (`RecordQLEngine.execute`), each beside the same
/// work through SQLite's C API. A response is JSON text; each workload checks once, outside the
/// timings, that it holds exactly what the raw side reads.
extension Bench {
    /// The canonical query with a fixed text: the validated document and its plan come from the
    /// engine's caches, so this is the lookup, the engine's JSON statement and the response around it.
    func languageQuerySeen() async throws -> Result {
        let document = CanonicalQuery.document()
        let select = try raw.prepare(CanonicalQuery.sql)
        try verify(try CanonicalQuery.rows(of: await language.execute(document)) == CanonicalQuery.rows(select), "RecordQL returns the raw query's rows")
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions * 40,
            engine: Timing.Side { try verify(await self.language.execute(document).isSuccess, "the query succeeds") },
            raw: Timing.Side { try verify(try CanonicalQuery.rows(select).count == CanonicalQuery.limit, "the raw query returns 50 rows") }
        )
        return Result(
            workload: "the same through the query language, query text seen before", engine: timings.engine, raw: timings.raw, budget: .ratio(5)
        )
    }

    /// The canonical query with a text the engine has never seen (a new alias each time), so
    /// each repetition parses, validates and compiles. Raw prepares its statement afresh each
    /// time (SQLite's C API keeps no statement cache: every prepare parses and plans).
    func languageQueryNew() async throws -> Result {
        let repetitions = sizes.repetitions * 40
        let documents = (0...repetitions).map { CanonicalQuery.document(key: "new\($0)") }
        try verify(
            try CanonicalQuery.rows(of: await language.execute(CanonicalQuery.document(key: "first")), key: "first").count == CanonicalQuery.limit,
            "RecordQL returns 50 items")
        var next = documents.makeIterator()
        let timings = try await Timing.compare(
            repetitions: repetitions,
            engine: Timing.Side {
                guard let document = next.next() else { throw BenchError("more repetitions than query texts") }
                try verify(await self.language.execute(document).isSuccess, "the query succeeds")
            },
            raw: Timing.Side {
                let select = try self.raw.prepare(CanonicalQuery.sql)
                try verify(try CanonicalQuery.rows(select).count == CanonicalQuery.limit, "the raw query returns 50 rows")
            }
        )
        return Result(
            workload: "the same, a query text never seen before (parse + validate + compile)", engine: timings.engine, raw: timings.raw,
            budget: .medianBelow(0.0005)
        )
    }

    /// Every list with the names of its items, nested, in recordName order (the engine's order
    /// when no sort is given), as the response's JSON text: one statement with a correlated
    /// subquery per list building the JSON inside SQLite in the engine; by hand, one join read
    /// through the C API and written as the same JSON, byte by byte.
    func languageListsWithItems() async throws -> Result {
        let document = "{ Lists { Items { name } } }"
        // The index a hand-written program would make for this read: in this order, covering
        // the name (the engine reads its covering (list, name, recordName) index and sorts each
        // list's items). Made here, after the workloads whose raw side it would slow.
        try raw.execute("CREATE INDEX IF NOT EXISTS items_list ON items (list, recordName, name)")
        let join = try raw.prepare(
            """
            SELECT lists.recordName, items.id, items.name FROM lists LEFT JOIN items ON items.list = lists.recordName \
            ORDER BY lists.recordName, items.recordName
            """)
        var size = 0
        /// `{"data":{"Lists":[{"Items":[{"name":…},…]},…]}}`, a new list where the recordName changes.
        func rawResponse() throws -> String {
            var json = JSONBuffer(capacity: size)
            json.append("{\"data\":{\"Lists\":[")
            var list: [UInt8]?
            var itemsInList = 0
            join.bind([])
            while try join.step() {
                if join.withText(0, { current in list.map(current.elementsEqual) ?? false }) != true {
                    json.append(list == nil ? "{\"Items\":[" : "]},{\"Items\":[")
                    list = join.withText(0, Array.init) ?? []
                    itemsInList = 0
                }
                guard !join.isNull(1) else { continue }
                json.append(itemsInList == 0 ? "{\"name\":" : ",{\"name\":")
                if join.withText(2, { json.appendString($0) }) == nil { json.append("null") }
                json.append("}")
                itemsInList += 1
            }
            json.append(list == nil ? "]}}" : "]}]}}")
            size = json.bytes.count
            return json.text
        }
        func lists(_ data: [String: [ListItems]]) -> [[String?]]? { data["Lists"]?.map { $0.items.map(\.name) } }
        let expected = try lists(ResponseData<[ListItems]>.decode(json: rawResponse()))
        try verify(expected?.count == DataSet.listCount && expected?.joined().count == sizes.items, "raw reads every list and item")
        try verify(
            try lists(ResponseData<[ListItems]>.decode(await language.execute(document))) == expected,
            "RecordQL returns the raw lists and items, in the same order")
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side { try verify(await self.language.execute(document).isSuccess, "the query succeeds") },
            raw: Timing.Side { try verify(try rawResponse().utf8.count == size, "raw writes the whole response") }
        )
        return Result(
            workload: "Lists { Items { name } } over \(DataSet.listCount) lists, \(sizes.items.formatted()) Items, through the query language",
            engine: timings.engine, raw: timings.raw, budget: .ratio(3)
        )
    }
}

/// A list of `{ Lists { Items { name } } }`.
private struct ListItems: Decodable {
    struct Item: Decodable { var name: String? }
    var items: [Item]

    enum CodingKeys: String, CodingKey { case items = "Items" }
}
