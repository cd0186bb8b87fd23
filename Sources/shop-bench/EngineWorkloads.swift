import Foundation
import RecordKit

/// The workloads on the engine API, each beside the same work through SQLite's C API.
extension Bench {
    func saveBatch() throws -> Result {
        let range = sizes.items..<(sizes.items + sizes.batch)
        let operations = range.map { RecordOperation.create(DataSet.itemRecord($0)) }
        let engineTiming = try Timing.measure(repetitions: sizes.repetitions, prepare: { try removeEngineItems(range) }) {
            try engine.modify(operations)
        }
        let insert = try raw.prepare("INSERT INTO items (recordName, name, list) VALUES (?, ?, ?)")
        let rawTiming = try Timing.measure(repetitions: sizes.repetitions, prepare: { try removeRawItems(range) }) {
            try raw.transaction {
                for index in range {
                    try insert.run([DataSet.itemRecordName(index), DataSet.itemName(index), DataSet.listRecordName(DataSet.list(of: index))])
                }
            }
        }
        try removeEngineItems(range)
        try removeRawItems(range)
        return Result(workload: "save \(sizes.batch.formatted()) Items with DELETE_SELF references in one batch", engine: engineTiming, raw: rawTiming, budget: .ratio(2))
    }

    func canonicalQuery() throws -> Result {
        let query = CanonicalQuery.engine
        let engineTiming = try Timing.measure(repetitions: sizes.repetitions * 40) {
            try verify(try engine.records(matching: query).count == CanonicalQuery.limit, "the query returns 50 items")
        }
        let select = try raw.prepare(CanonicalQuery.sql)
        let rawTiming = try Timing.measure(repetitions: sizes.repetitions * 40) {
            try verify(try CanonicalQuery.rows(select).count == CanonicalQuery.limit, "the raw query returns 50 rows")
        }
        return Result(workload: "query list == X sorted by name, limit 50, on \(sizes.items.formatted()) Items (engine API)", engine: engineTiming, raw: rawTiming, budget: .ratio(3))
    }

    func cascadeDelete() throws -> Result {
        let list = DataSet.listCount + 1
        let range = (sizes.items + sizes.batch)..<(sizes.items + sizes.batch + sizes.cascade)
        let engineTiming = try Timing.measure(repetitions: sizes.repetitions, prepare: {
            try engine.modify([.save(DataSet.listRecord(list))] + range.map { .create(DataSet.itemRecord($0, list: list)) })
        }) {
            try verify(try engine.delete(recordName: DataSet.listRecordName(list)).count == sizes.cascade + 1, "the cascade removes every item")
        }
        let insert = try raw.prepare("INSERT INTO items (recordName, name, list) VALUES (?, ?, ?)")
        let delete = try raw.prepare("DELETE FROM items WHERE list = ?")
        let rawTiming = try Timing.measure(repetitions: sizes.repetitions, prepare: {
            try raw.transaction {
                for index in range { try insert.run([DataSet.itemRecordName(index), DataSet.itemName(index), DataSet.listRecordName(list)]) }
            }
        }) {
            try raw.transaction { try delete.run([DataSet.listRecordName(list)]) }
        }
        return Result(workload: "delete a list with \(sizes.cascade.formatted()) items (cascade)", engine: engineTiming, raw: rawTiming, budget: .ratio(2))
    }

    func fetchByRecordName() throws -> Result {
        let names = (0..<sizes.fetches).map { DataSet.itemRecordName(($0 * 7919) % sizes.items) }
        let engineTiming = try Timing.measure(repetitions: sizes.repetitions) {
            try verify(try engine.fetch(recordNames: names).count == names.count, "every record is found")
        }
        let select = try raw.prepare("SELECT recordName, name, list, number FROM items WHERE recordName = ?")
        let rawTiming = try Timing.measure(repetitions: sizes.repetitions) {
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
        return Result(workload: "fetch \(sizes.fetches.formatted()) records by recordName", engine: engineTiming, raw: rawTiming, budget: .ratio(3))
    }

    func updateEach() throws -> Result {
        let names = (0..<sizes.updates).map { DataSet.itemRecordName(($0 * 31) % sizes.items) }
        var round: Int64 = 0
        let engineTiming = try Timing.measure(repetitions: sizes.repetitions) {
            round += 1
            for name in names {
                try engine.update(recordType: "Items", recordName: name, fields: ["number": .int64(round)])
            }
        }
        let update = try raw.prepare("UPDATE items SET number = ? WHERE recordName = ?")
        let rawTiming = try Timing.measure(repetitions: sizes.repetitions) {
            round += 1
            for name in names {
                try raw.transaction { try update.run([round, name]) }
            }
        }
        return Result(workload: "update \(sizes.updates.formatted()) items, one transaction each", engine: engineTiming, raw: rawTiming, budget: .ratio(3))
    }

    func paginate() throws -> Result {
        let query = Query("Items", sort: [SortDescriptor("name")], limit: 500)
        let pages = sizes.paginated / 500
        let engineTiming = try Timing.measure(repetitions: sizes.repetitions) {
            var cursor: String?
            for _ in 0..<pages {
                let page = try engine.page(query, after: cursor)
                cursor = page.cursor
            }
        }
        let first = try raw.prepare("SELECT recordName, name, list FROM items ORDER BY name, recordName LIMIT 500")
        let next = try raw.prepare("SELECT recordName, name, list FROM items WHERE name >= ? AND (name > ? OR recordName > ?) ORDER BY name, recordName LIMIT 500")
        let rawTiming = try Timing.measure(repetitions: sizes.repetitions) {
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
        return Result(workload: "keyset-paginate \(sizes.paginated.formatted()) items, 500 at a time", engine: engineTiming, raw: rawTiming, budget: .ratio(3))
    }

    private func removeEngineItems(_ range: Range<Int>) throws {
        let existing = try engine.fetch(recordNames: range.map(DataSet.itemRecordName)).map(\.recordName)
        if !existing.isEmpty { try engine.modify(existing.map { .delete(recordName: $0) }) }
    }

    private func removeRawItems(_ range: Range<Int>) throws {
        try raw.execute("DELETE FROM items WHERE id > (SELECT id FROM items WHERE recordName = '\(DataSet.itemRecordName(range.lowerBound - 1))')")
    }
}
