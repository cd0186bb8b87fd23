import Foundation
import RecordKit
import RecordQL

/// The workloads through the query language (`RecordQLEngine.execute`), each beside the same
/// work through SQLite's C API. A response is JSON text; each workload checks once, outside the
/// timings, that it holds exactly what the raw side reads.
extension Bench {
    /// The canonical query with a fixed text: the validated document comes from the cache, so
    /// this is planning, the engine's JSON statement and the response around it.
    func languageQuerySeen() async throws -> Result {
        let document = CanonicalQuery.document()
        let select = try raw.prepare(CanonicalQuery.sql)
        try verify(try CanonicalQuery.rows(of: await language.execute(document)) == CanonicalQuery.rows(select), "RecordQL returns the raw query's rows")
        let engineTiming = try await Timing.measure(repetitions: sizes.repetitions * 40) {
            try verify(await language.execute(document).isSuccess, "the query succeeds")
        }
        let rawTiming = try Timing.measure(repetitions: sizes.repetitions * 40) {
            try verify(try CanonicalQuery.rows(select).count == CanonicalQuery.limit, "the raw query returns 50 rows")
        }
        return Result(
            workload: "the same through the query language, query text seen before", engine: engineTiming, raw: rawTiming, budget: .ratio(5)
        )
    }

    /// The canonical query with a text the engine has never seen (a new alias each time), so
    /// each repetition parses, validates and compiles. Raw prepares its statement afresh each
    /// time (SQLite's C API keeps no statement cache: every prepare parses and plans).
    func languageQueryNew() async throws -> Result {
        let repetitions = sizes.repetitions * 40
        let documents = (0...repetitions).map { CanonicalQuery.document(key: "new\($0)") }
        try verify(try CanonicalQuery.rows(of: await language.execute(CanonicalQuery.document(key: "first")), key: "first").count == CanonicalQuery.limit, "RecordQL returns 50 items")
        var next = documents.makeIterator()
        let engineTiming = try await Timing.measure(repetitions: repetitions) {
            guard let document = next.next() else { throw BenchError("more repetitions than query texts") }
            try verify(await language.execute(document).isSuccess, "the query succeeds")
        }
        let rawTiming = try Timing.measure(repetitions: repetitions) {
            let select = try raw.prepare(CanonicalQuery.sql)
            try verify(try CanonicalQuery.rows(select).count == CanonicalQuery.limit, "the raw query returns 50 rows")
        }
        return Result(
            workload: "the same, a query text never seen before (parse + validate + compile)", engine: engineTiming, raw: rawTiming,
            budget: .medianBelow(0.0005)
        )
    }

    /// Every list with the names of its items, nested, in recordName order (the engine's order
    /// when no sort is given): one statement with a correlated subquery per list in the engine;
    /// by hand, the lists, then each list's items, into nested arrays of strings.
    func languageListsWithItems() async throws -> Result {
        let document = "{ Lists { Items { name } } }"
        // The index a hand-written program would make for this order (the engine finds a list's
        // items through its (list, name, recordName) index and sorts them). Made here, after the
        // workloads whose raw side it would slow.
        try raw.execute("CREATE INDEX IF NOT EXISTS items_list ON items (list, recordName)")
        let lists = try raw.prepare("SELECT recordName FROM lists ORDER BY recordName")
        let items = try raw.prepare("SELECT name FROM items WHERE list = ? ORDER BY recordName")
        func rawListsWithItems() throws -> [[String]] {
            var names: [String] = []
            lists.bind([])
            while try lists.step() { names.append(lists.text(0) ?? "") }
            return try names.map { list in
                items.bind([list])
                var itemNames: [String] = []
                while try items.step() { itemNames.append(items.text(0) ?? "") }
                return itemNames
            }
        }
        let expected = try rawListsWithItems()
        try verify(expected.count == DataSet.listCount && expected.joined().count == sizes.items, "raw reads every list and item")
        let answered = try ResponseData<[ListItems]>.decode(await language.execute(document))["Lists"]?.map { $0.items.map(\.name) }
        try verify(answered == expected, "RecordQL returns the raw lists and items, in the same order")
        let engineTiming = try await Timing.measure(repetitions: sizes.repetitions) {
            try verify(await language.execute(document).isSuccess, "the query succeeds")
        }
        let rawTiming = try Timing.measure(repetitions: sizes.repetitions) {
            try verify(try rawListsWithItems().count == DataSet.listCount, "raw reads every list")
        }
        return Result(
            workload: "Lists { Items { name } } over \(DataSet.listCount) lists, \(sizes.items.formatted()) Items, through the query language",
            engine: engineTiming, raw: rawTiming, budget: .ratio(3)
        )
    }
}

/// A list of `{ Lists { Items { name } } }`.
private struct ListItems: Decodable {
    struct Item: Decodable { var name: String }
    var items: [Item]

    enum CodingKeys: String, CodingKey { case items = "Items" }
}
