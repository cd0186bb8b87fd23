import Foundation
import RecordKit

/// The workloads on the engine API, each beside the same work through SQLite's C API.
extension Bench {
    func saveBatch() async throws -> Result {
        let range = sizes.items..<(sizes.items + sizes.batch)
        let operations = range.map { RecordOperation.create(DataSet.itemRecord($0)) }
        let insert = try raw.prepare("INSERT INTO items (recordName, name, list) VALUES (?, ?, ?)")
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side(prepare: { try self.removeEngineItems(range) }) { try self.engine.modify(operations) },
            raw: Timing.Side(prepare: { try self.removeRawItems(range) }) {
                try self.raw.transaction {
                    for index in range {
                        try insert.run([DataSet.itemRecordName(index), DataSet.itemName(index), DataSet.listRecordName(DataSet.list(of: index))])
                    }
                }
            }
        )
        try removeEngineItems(range)
        try removeRawItems(range)
        return Result(
            workload: "save \(sizes.batch.formatted()) Items with DELETE_SELF references in one batch", engine: timings.engine, raw: timings.raw,
            budget: .ratio(2))
    }

    func canonicalQuery() async throws -> Result {
        let query = CanonicalQuery.engine
        let select = try raw.prepare(CanonicalQuery.sql)
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions * 40,
            engine: Timing.Side { try verify(try self.engine.records(matching: query).count == CanonicalQuery.limit, "the query returns 50 items") },
            raw: Timing.Side { try verify(try CanonicalQuery.rows(select).count == CanonicalQuery.limit, "the raw query returns 50 rows") }
        )
        return Result(
            workload: "query list == X sorted by name, limit 50, on \(sizes.items.formatted()) Items (engine API)", engine: timings.engine, raw: timings.raw,
            budget: .ratio(3))
    }

    func cascadeDelete() async throws -> Result {
        let list = DataSet.listCount + 1
        let range = (sizes.items + sizes.batch)..<(sizes.items + sizes.batch + sizes.cascade)
        let insert = try raw.prepare("INSERT INTO items (recordName, name, list) VALUES (?, ?, ?)")
        let delete = try raw.prepare("DELETE FROM items WHERE list = ?")
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side(prepare: {
                try self.engine.modify([.save(DataSet.listRecord(list))] + range.map { .create(DataSet.itemRecord($0, list: list)) })
            }) {
                try verify(try self.engine.delete(recordName: DataSet.listRecordName(list)).count == self.sizes.cascade + 1, "the cascade removes every item")
            },
            raw: Timing.Side(prepare: {
                try self.raw.transaction {
                    for index in range { try insert.run([DataSet.itemRecordName(index), DataSet.itemName(index), DataSet.listRecordName(list)]) }
                }
            }) {
                try self.raw.transaction { try delete.run([DataSet.listRecordName(list)]) }
            }
        )
        return Result(workload: "delete a list with \(sizes.cascade.formatted()) items (cascade)", engine: timings.engine, raw: timings.raw, budget: .ratio(2))
    }

    func fetchByRecordName() async throws -> Result {
        let names = (0..<sizes.fetches).map { DataSet.itemRecordName(($0 * 7919) % sizes.items) }
        let select = try raw.prepare("SELECT recordName, name, list, number FROM items WHERE recordName = ?")
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side { try verify(try self.engine.fetch(recordNames: names).count == names.count, "every record is found") },
            raw: Timing.Side {
                var found = 0
                for name in names {
                    select.bind([name])
                    if try select.step() {
                        _ = (select.text(0), select.text(1), select.text(2), select.isNull(3) ? nil : select.int64(3))
                        found += 1
                    }
                }
                try verify(found == names.count, "every raw row is found")
            }
        )
        return Result(workload: "fetch \(sizes.fetches.formatted()) records by recordName", engine: timings.engine, raw: timings.raw, budget: .ratio(3))
    }

    func updateEach() async throws -> Result {
        let names = (0..<sizes.updates).map { DataSet.itemRecordName(($0 * 31) % sizes.items) }
        let update = try raw.prepare("UPDATE items SET number = ? WHERE recordName = ?")
        var round: Int64 = 0
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side {
                round += 1
                for name in names {
                    try self.engine.update(recordType: "Items", recordName: name, fields: ["number": .int64(round)])
                }
            },
            raw: Timing.Side {
                round += 1
                for name in names {
                    try self.raw.transaction { try update.run([round, name]) }
                }
            }
        )
        return Result(workload: "update \(sizes.updates.formatted()) items, one transaction each", engine: timings.engine, raw: timings.raw, budget: .ratio(3))
    }

    func paginate() async throws -> Result {
        let query = Query("Items", sort: [SortDescriptor("name")], limit: 500)
        let pages = sizes.paginated / 500
        let first = try raw.prepare("SELECT recordName, name, list FROM items ORDER BY name, recordName LIMIT 500")
        let next = try raw.prepare(
            "SELECT recordName, name, list FROM items WHERE name >= ? AND (name > ? OR recordName > ?) ORDER BY name, recordName LIMIT 500")
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions,
            engine: Timing.Side {
                var cursor: String?
                for _ in 0..<pages {
                    let page = try self.engine.page(query, after: cursor)
                    cursor = page.cursor
                }
            },
            raw: Timing.Side {
                var last: (String, String)?
                for _ in 0..<pages {
                    let statement = last == nil ? first : next
                    statement.bind(last.map { [$0.0, $0.0, $0.1] } ?? [])
                    while try statement.step() {
                        last = (statement.text(1) ?? "", statement.text(0) ?? "")
                        _ = statement.text(2)
                    }
                }
            }
        )
        return Result(
            workload: "keyset-paginate \(sizes.paginated.formatted()) items, 500 at a time", engine: timings.engine, raw: timings.raw, budget: .ratio(3))
    }

    private func removeEngineItems(_ range: Range<Int>) throws {
        let existing = try engine.fetch(recordNames: range.map(DataSet.itemRecordName)).map(\.recordName)
        if !existing.isEmpty { try engine.modify(existing.map { .delete(recordName: $0) }) }
    }

    private func removeRawItems(_ range: Range<Int>) throws {
        try raw.execute("DELETE FROM items WHERE id > (SELECT id FROM items WHERE recordName = '\(DataSet.itemRecordName(range.lowerBound - 1))')")
    }
}
