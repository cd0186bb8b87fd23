import Foundation
import RecordKit
import ShopCLI

/// The workloads of the `shop` program as a whole process, start to exit, each beside the same
/// work through SQLite's own shell, `sqlite3`, also a whole process.
extension Bench {
    /// `shop --db BIG -e 'items L7'`: open the database, find the list by name, query and print
    /// its items as a table. Raw: `sqlite3` runs the same query and prints the same rows.
    func shopItems() async throws -> Result {
        let shop = try Program.built("shop")
        let sqlite3 = try Program.installed("sqlite3", package: "sqlite3")
        let list = DataSet.listName(7)
        let arguments = ["--db", enginePath, "-e", "items \(list)"]
        let sql = """
            SELECT name, coalesce(number, 1) FROM items WHERE list = (SELECT recordName FROM lists WHERE name = '\(list)') \
            ORDER BY name, recordName
            """
        let rawArguments = ["-bail", rawPath, sql]
        let count = sizes.items / DataSet.listCount
        try verify(try lines(of: shop.output(arguments, in: folder)) == count + 1, "shop prints a header and every item of the list")
        try verify(try lines(of: sqlite3.output(rawArguments, in: folder)) == count, "sqlite3 prints every item of the list")
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions * 4,
            engine: Timing.Side { try shop.run(arguments) },
            raw: Timing.Side { try sqlite3.run(rawArguments) }
        )
        return Result(
            workload: "shop --db BIG -e 'items \(list)' start to exit, \(sizes.items.formatted()) Items in \(DataSet.listCount) lists",
            engine: timings.engine, raw: timings.raw, budget: .medianBelow(0.1)
        )
    }

    /// `shop -f` on a script of single-record commands, on a new database each time, beside
    /// the same statements through `sqlite3` (see ``CommandScript``).
    ///
    /// Budget 3x: both sides pay a process, a new database and one commit per command (WAL,
    /// no fsync); shop also parses each line with the command parser, looks the list (and item)
    /// up by name, and writes the change log and its indexes. More than 3x means per-command
    /// overhead beyond that work (re-preparing SQL, extra transactions, schema reloads).
    func shopScript() async throws -> Result {
        let shop = try Program.built("shop")
        let sqlite3 = try Program.installed("sqlite3", package: "sqlite3")
        let script = CommandScript(commands: sizes.scriptCommands)
        let shopFile = folder.appendingPathComponent("script.shop").path
        let sqlFile = folder.appendingPathComponent("script.sql").path
        try script.shop.write(toFile: shopFile, atomically: true, encoding: .utf8)
        try script.sql.write(toFile: sqlFile, atomically: true, encoding: .utf8)
        let shopDatabase = folder.appendingPathComponent("script-engine.sqlite").path
        let rawDatabase = folder.appendingPathComponent("script-raw.sqlite").path
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side(prepare: { try self.removeDatabase(shopDatabase) }) { try shop.run(["--db", shopDatabase, "-f", shopFile]) },
            raw: Timing.Side(prepare: { try self.removeDatabase(rawDatabase) }) { try sqlite3.run(["-bail", rawDatabase], input: sqlFile) }
        )
        try verifyScript(script, shopDatabase: shopDatabase, rawDatabase: rawDatabase)
        return Result(
            workload: "a \(sizes.scriptCommands.formatted())-command shop -f script vs the same SQL through sqlite3",
            engine: timings.engine, raw: timings.raw, budget: .ratio(3)
        )
    }

    /// Both databases hold what the script made: the lists, the items, the numbers set.
    private func verifyScript(_ script: CommandScript, shopDatabase: String, rawDatabase: String) throws {
        let database = try RecordDatabase(path: shopDatabase, bootstrap: try ShoppingLists.schema)
        let items = try database.records(matching: Query("Items"))
        try verify(try database.count(matching: Query("Lists")) == script.listCount, "shop made every list")
        try verify(items.count == script.additions, "shop made every item")
        try verify(items.count(where: { $0["number"] != nil }) == script.updates, "shop set every number")
        let raw = try RawSQLite(path: rawDatabase)
        let counts = try raw.prepare("SELECT (SELECT count(*) FROM lists), count(*), count(number) FROM items")
        counts.bind([])
        try verify(try counts.step(), "sqlite3 made the tables")
        try verify(
            [counts.int64(0), counts.int64(1), counts.int64(2)] == [script.listCount, script.additions, script.updates].map(Int64.init),
            "sqlite3 made every list and item and set every number"
        )
    }

    func removeDatabase(_ path: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    private func lines(of text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: true).count
    }
}
