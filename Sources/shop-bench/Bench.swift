import Foundation
import RecordKit
import RecordQL
import ShopCLI

/// The databases the workloads run on: an engine database and a raw one with the same rows.
final class Bench {
    let sizes: Sizes
    let folder: URL
    let engine: RecordDatabase
    /// The query language over `engine`, one for the whole run (its caches are per engine).
    let language: RecordQLEngine
    let raw: RawSQLite
    let enginePath: String
    let rawPath: String

    /// How much data each workload uses (full, the sizes the budgets in docs/bench.md name, or `--quick`).
    struct Sizes {
        var items: Int
        var batch: Int
        var cascade: Int
        var fetches: Int
        var updates: Int
        var paginated: Int
        /// Lines of the `shop -f` script.
        var scriptCommands: Int
        var repetitions: Int

        static let full = Sizes(
            items: 1_000_000, batch: 100_000, cascade: 10_000, fetches: 1_000, updates: 10_000, paginated: 100_000, scriptCommands: 10_000, repetitions: 5
        )
        static let quick = Sizes(
            items: 20_000, batch: 5_000, cascade: 1_000, fetches: 200, updates: 500, paginated: 5_000, scriptCommands: 2_000, repetitions: 3)
    }

    init(sizes: Sizes, folder: URL) throws {
        self.sizes = sizes
        self.folder = folder
        enginePath = folder.appendingPathComponent("engine.sqlite").path
        rawPath = folder.appendingPathComponent("raw.sqlite").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        engine = try RecordDatabase(path: enginePath, bootstrap: try ShoppingLists.schema)
        // As the story adds it: `schema add-field Items number INT64`, no index flags.
        try engine.addField(FieldDefinition("number", .int64), to: "Items")
        // The benchmark reads whole tables in one response (Lists { Items { name } } over every
        // item), so it lifts the engine's response record limit, as a trusted caller may.
        language = RecordQLEngine(database: engine, maximumResponseRecords: nil)
        raw = try RawSQLite(path: rawPath)
        try raw.execute(DataSet.rawSchema)
        log("generating \(sizes.items) items in \(DataSet.listCount) lists")
        try DataSet.fillEngine(engine, items: 0..<sizes.items)
        try DataSet.fillRaw(raw, items: 0..<sizes.items)
    }
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("shop-bench: \(message)\n".utf8))
}
