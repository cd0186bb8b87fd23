import Foundation
import RecordKit
import ShopCLI

/// `import` and `export` of the `shop` program as whole processes: an import of a CSV file beside
/// `sqlite3`'s own `.import` of the same file, and the peak memory of an export of every item.
extension Bench {
    /// Rows of the imported CSV file.
    var importRows: Int { sizes.items >= 1_000_000 ? 100_000 : 10_000 }

    /// `shop -e 'import Items FILE'` into a new database (the schema, `number` and the lists
    /// made beforehand, untimed), beside `sqlite3 -cmd '.import --csv --skip 1 FILE items'` into a new
    /// database with the raw baseline's indexes. Both read the same file and commit once.
    func shopImport() async throws -> Result {
        let shop = try Program.built("shop")
        let sqlite3 = try Program.installed("sqlite3", package: "sqlite3")
        let rows = importRows
        let file = folder.appendingPathComponent("import.csv").path
        var text = "recordName,name,list,number\n"
        for index in 0..<rows {
            let list = DataSet.listRecordName(DataSet.list(of: index))
            text +=
                "imported-\(index),\(CSV.quoted(DataSet.itemName(index))),\"{\"\"recordName\"\":\"\"\(list)\"\",\"\"action\"\":\"\"DELETE_SELF\"\"}\",\(index)\n"
        }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let engineTarget = folder.appendingPathComponent("import-engine.sqlite").path
        let rawTarget = folder.appendingPathComponent("import-raw.sqlite").path
        let rawScript = folder.appendingPathComponent("import.sql").path
        try """
        CREATE TABLE items (recordName TEXT NOT NULL UNIQUE, name TEXT, list TEXT, number INTEGER);
        CREATE INDEX items_list_name ON items (list, name, recordName);
        CREATE INDEX items_name ON items (name, recordName);
        .import --csv --skip 1 \(file) items
        """.write(toFile: rawScript, atomically: true, encoding: .utf8)
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side(prepare: {
                try self.removeDatabase(engineTarget)
                let empty = try RecordDatabase(path: engineTarget, bootstrap: try ShoppingLists.schema)
                try empty.addField(FieldDefinition("number", .int64), to: "Items")
                try empty.modify((0..<DataSet.listCount).map { .create(DataSet.listRecord($0)) })
            }) { try shop.run(["--db", engineTarget, "-e", "import Items \(file)"]) },
            raw: Timing.Side(prepare: { try self.removeDatabase(rawTarget) }) { try sqlite3.run(["-bail", rawTarget], input: rawScript) }
        )
        try verify(
            try RecordDatabase(path: engineTarget, bootstrap: try ShoppingLists.schema).count(matching: Query("Items")) == rows, "shop imported every row")
        let raw = try RawSQLite(path: rawTarget)
        let count = try raw.prepare("SELECT count(*) FROM items")
        count.bind([])
        try verify(try count.step() && count.int64(0) == Int64(rows), "sqlite3 imported every row")
        return Result(
            workload: "shop -e 'import Items FILE' of a \(rows.formatted())-row CSV vs sqlite3's .import of the same file",
            engine: timings.engine, raw: timings.raw, budget: .ratio(10)
        )
    }

    /// Peak resident memory of `shop -e 'export Items FILE'` writing every item as CSV. The
    /// first run is not measured: the first `shop` to open a database the engine API made adopts
    /// the shopping rules there (building their indexes), which is not the export's work.
    func shopExportMemory() throws -> Result {
        let shop = try Program.built("shop")
        let file = folder.appendingPathComponent("export.csv").path
        try shop.run(["--db", enginePath, "-e", "export Items \(file)"])
        // GNU time forks before it runs shop, so the figure is shop's alone (a process started
        // with posix_spawn's vfork would count the benchmark's own memory in its ru_maxrss).
        let time = try Program.installed("time", package: "time")
        let report = folder.appendingPathComponent("export-memory.txt").path
        try time.run(["-f", "%M", "-o", report, shop.path, "--db", enginePath, "-e", "export Items \(file)"])
        guard let kilobytes = Double(try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("GNU time reported no peak memory in \(report)")
        }
        let megabytes = kilobytes / 1024
        let lines = try String(contentsOfFile: file, encoding: .utf8).utf8.count(where: { $0 == 10 })
        try verify(lines == sizes.items + 1, "the export holds a header and every item")
        try FileManager.default.removeItem(atPath: file)
        return Result(
            workload: "memory of shop -e 'export Items FILE' writing all \(sizes.items.formatted()) Items", absolute: megabytes, unit: "MB", budget: .below(64))
    }
}

/// CSV quoting for the generated file (item names have no quotes or commas, but may one day).
private enum CSV {
    static func quoted(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
