import Foundation
import GraphQL
import RecordKit
import RecordQL

/// Batches of creates through the query language, each beside the engine's own `modify` of the
/// same records (the budget is at least half its rate): the language's cost per record over
/// what the engine does anyway.
extension Bench {
    /// Records per mutation.
    static let mutationBatch = 500

    /// A mutation of 500 aliased `createItems` fields whose literal values are new each time,
    /// so every text is one the engine has never seen: only its shape is (``DocumentShape``).
    func languageAliasedCreates() async throws -> Result {
        try await compareWithModify(
            workload: "a GraphQL mutation of \(Self.mutationBatch) aliased createItems fields, new values each time (raw: the engine's modify)"
        ) { range in
            let fields = range.map { index in
                let item = DataSet.itemRecord(index)
                return "i\(index - range.lowerBound): createItems(recordName: \"\(item.recordName)\", fields: {name: \"\(DataSet.itemName(index))\", "
                    + "list: {recordName: \"\(DataSet.listRecordName(DataSet.list(of: index)))\", action: DELETE_SELF}}) { recordName }"
            }
            return ("mutation { " + fields.joined(separator: " ") + " }", [:])
        }
    }

    /// The same batch as one variable of `createManyItems(records:)`.
    func languageListCreates() async throws -> Result {
        let document = "mutation($records: [ItemsCreate!]!) { createManyItems(records: $records) { recordName } }"
        return try await compareWithModify(workload: "the same batch in list form, createManyItems(records: $records) (raw: the engine's modify)") { range in
            let records = range.map { index -> Map in
                [
                    "recordName": .string(DataSet.itemRecordName(index)),
                    "fields": [
                        "name": .string(DataSet.itemName(index)),
                        "list": ["recordName": .string(DataSet.listRecordName(DataSet.list(of: index))), "action": "DELETE_SELF"],
                    ],
                ]
            }
            return (document, ["records": .array(records)])
        }
    }

    /// Times the request `request` makes for a range of new items against `modify` creating the
    /// same items; each repetition creates items never created before, on both sides.
    private func compareWithModify(workload: String, _ request: @escaping (Range<Int>) -> (String, [String: Map])) async throws -> Result {
        var next = sizes.items + sizes.batch + sizes.cascade + 1_000_000
        func nextRange() -> Range<Int> {
            defer { next += Self.mutationBatch }
            return next..<(next + Self.mutationBatch)
        }
        var pending: (String, [String: Map]) = ("", [:])
        var pendingRange = 0..<0
        var operations: [RecordOperation] = []
        var created: [Range<Int>] = []
        let timings = try await Timing.compare(
            repetitions: sizes.repetitions * 10,
            engine: Timing.Side(prepare: {
                pendingRange = nextRange()
                pending = request(pendingRange)
                created.append(pendingRange)
            }) {
                let response = await self.language.execute(pending.0, variables: pending.1)
                try verify(response.isSuccess, "the mutation succeeds: \(response.json.prefix(300))")
            },
            raw: Timing.Side(prepare: {
                let range = nextRange()
                operations = range.map { .create(DataSet.itemRecord($0)) }
                created.append(range)
            }) {
                try self.engine.modify(operations)
            }
        )
        try verify(try engine.fetch(recordNames: pendingRange.map(DataSet.itemRecordName)).count == Self.mutationBatch, "the last mutation created every item")
        for range in created {
            try engine.modify(range.map { .delete(recordName: DataSet.itemRecordName($0)) })
        }
        return Result(workload: workload, engine: timings.engine, raw: timings.raw, budget: .ratio(2))
    }
}
